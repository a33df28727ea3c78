package apikeys

import (
	"context"
	"net/netip"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// AccessListAddOptions are the inputs of `apikeys accesslist add`.
type AccessListAddOptions struct {
	cmdutil.Deps

	KeyID  string
	IPs    []string
	CIDRs  []string
	DryRun bool
}

// NewCmdAccessListAdd builds `apikeys accesslist add`.
func NewCmdAccessListAdd(f *cmdutil.Factory, runF func(context.Context, *AccessListAddOptions) error) *cobra.Command {
	opts := &AccessListAddOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "add API_KEY_ID --org ORG_ID (--ip ADDR | --cidr BLOCK) ...",
		Short: "Add addresses to the access list of an API key",
		Long: `Add IP addresses or CIDR blocks to the access list of an organization API key
(POST /orgs/{org_id}/apiKeys/{api_key_id}/accessList). Entries already present
are kept once; the list is extended, never replaced. A key with a non-empty
access list can be used only from the addresses in it. --dry-run prints the
POST and sends nothing.`,
		Example: `  omctl apikeys accesslist add 5f4d0c2e8f9d4b0012340005 --org 5e1a0c2e8f9d4b0012340001 --ip 203.0.113.7
  omctl apikeys accesslist add 5f4d0c2e8f9d4b0012340005 --cidr 10.0.0.0/16 --cidr 192.0.2.0/24`,
		Args: cmdutil.ExactArgs(1, "API_KEY_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.KeyID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return accessListAddRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringArrayVar(&opts.IPs, "ip", nil, "IP address to allow (repeatable)")
	cmd.Flags().StringArrayVar(&opts.CIDRs, "cidr", nil, "CIDR block to allow (repeatable)")
	cmd.MarkFlagsOneRequired("ip", "cidr")
	cmdutil.AddDryRunFlag(cmd, &opts.DryRun)
	return cmd
}

func accessListAddRun(ctx context.Context, opts *AccessListAddOptions) error {
	if err := cmdutil.CheckID("API key", opts.KeyID); err != nil {
		return err
	}
	entries, err := accessListEntries(opts.IPs, opts.CIDRs)
	if err != nil {
		return err
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedOrg | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	printer, orgID, c := r.Printer, r.OrgID, r.Client
	path := api.AddAccessList.Path(orgID, opts.KeyID)
	if opts.DryRun {
		w := cmdutil.Write{Method: api.AddAccessList.Method, Path: path, Body: entries, After: entries}
		return w.Preview(opts.IO.Out, printer.Format())
	}
	res, err := c.Send(ctx, api.AddAccessList.Method, path, entries)
	if err != nil {
		return err
	}
	return printer.List(client.SinglePage(res), output.PageAsked, AccessListTable)
}

// accessListEntries checks every address and block, one entry each.
func accessListEntries(ips, cidrs []string) ([]api.AccessListEntry, error) {
	if len(ips)+len(cidrs) == 0 {
		return nil, cmdutil.FlagErrorf("give at least one --ip ADDR or --cidr BLOCK")
	}
	entries := make([]api.AccessListEntry, 0, len(ips)+len(cidrs))
	for _, ip := range ips {
		if _, err := netip.ParseAddr(ip); err != nil {
			return nil, cmdutil.FlagErrorf("invalid --ip %q: not an IPv4 or IPv6 address (use --cidr for a block)", ip)
		}
		entries = append(entries, api.AccessListEntry{IPAddress: ip})
	}
	for _, block := range cidrs {
		if _, err := netip.ParsePrefix(block); err != nil {
			return nil, cmdutil.FlagErrorf("invalid --cidr %q: want CIDR notation like 192.0.2.0/24", block)
		}
		entries = append(entries, api.AccessListEntry{CIDRBlock: block})
	}
	return entries, nil
}
