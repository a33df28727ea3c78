package apikeys

import (
	"context"
	"fmt"
	"net/netip"
	"strings"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// AccessListRemoveOptions are the inputs of `apikeys accesslist remove`.
type AccessListRemoveOptions struct {
	cmdutil.Deps

	KeyID, Entry string
	DryRun       bool
}

// NewCmdAccessListRemove builds `apikeys accesslist remove`.
func NewCmdAccessListRemove(f *cmdutil.Factory, runF func(context.Context, *AccessListRemoveOptions) error) *cobra.Command {
	opts := &AccessListRemoveOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "remove API_KEY_ID ADDRESS --org ORG_ID",
		Short: "Remove an entry from the access list of an API key",
		Long: `Remove one entry from the access list of an organization API key
(DELETE /orgs/{org_id}/apiKeys/{api_key_id}/accessList/{entry}). ADDRESS is an
IP address or a CIDR block, as accesslist list shows it. It takes effect from
the next request; removing the last entry lets the key be used from anywhere.
Piped, it prints the entry removed. --dry-run prints the DELETE and the entry
it would remove, and sends nothing.`,
		Example: `  omctl apikeys accesslist remove 5f4d0c2e8f9d4b0012340005 203.0.113.7 --org 5e1a0c2e8f9d4b0012340001
  omctl apikeys accesslist remove 5f4d0c2e8f9d4b0012340005 10.0.0.0/16`,
		Args:              cmdutil.ExactArgs(2, "API_KEY_ID", "ADDRESS"),
		ValidArgsFunction: completeKeyThenEntry(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.KeyID, opts.Entry = args[0], args[1]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return accessListRemoveRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddDryRunFlag(cmd, &opts.DryRun)
	return cmd
}

func accessListRemoveRun(ctx context.Context, opts *AccessListRemoveOptions) error {
	if err := checkEntry(opts.KeyID, opts.Entry); err != nil {
		return err
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedOrg | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	e := api.DeleteAccessListEntry
	if opts.DryRun {
		current, err := cmdutil.Current(ctx, r.Client, api.GetAccessListEntry.Path(r.OrgID, opts.KeyID, opts.Entry), false)
		if err != nil {
			return err
		}
		w := cmdutil.Write{Method: e.Method, Path: e.Path(r.OrgID, opts.KeyID, opts.Entry), Before: current}
		return w.Preview(opts.IO.Out, r.Printer.Format())
	}
	res, err := r.Client.Send(ctx, e.Method, e.Path(r.OrgID, opts.KeyID, opts.Entry), nil)
	if err != nil {
		return err
	}
	if r.Printer.Format() == api.FormatTable && !opts.IO.IsStdoutTTY() {
		// A script reading the table gets what is gone, as alertconfigs
		// delete prints the id it deleted.
		_, err := fmt.Fprintln(opts.IO.Out, opts.Entry)
		return err
	}
	return r.Printer.Confirm(res, AccessListTable, fmt.Sprintf("Removed %s from the access list of API key %s", opts.Entry, opts.KeyID))
}

// checkEntry checks a key id and an access-list entry (an address or a
// block) before anything is sent.
func checkEntry(keyID, entry string) error {
	if err := cmdutil.CheckID("API key", keyID); err != nil {
		return err
	}
	if strings.Contains(entry, "/") {
		if _, err := netip.ParsePrefix(entry); err != nil {
			return cmdutil.FlagErrorf("invalid ADDRESS %q: want an IP address or a CIDR block like 192.0.2.0/24", entry)
		}
		return nil
	}
	if _, err := netip.ParseAddr(entry); err != nil {
		return cmdutil.FlagErrorf("invalid ADDRESS %q: want an IP address or a CIDR block like 192.0.2.0/24", entry)
	}
	return nil
}
