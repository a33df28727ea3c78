// Package globalalerts implements `omctl globalalerts list` (endpoint 7).
package globalalerts

import (
	"context"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmd/alerts"
	"github.com/omctl/omctl/internal/cmdutil"
)

// NewCmdGlobalAlerts is the `globalalerts` command group.
func NewCmdGlobalAlerts(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "globalalerts <command>",
		Short: "List global alerts, raised by global alert configurations",
	})
	cmd.AddCommand(NewCmdList(f, nil))
	return cmd
}

// ListOptions are the inputs of `globalalerts list`.
type ListOptions struct {
	cmdutil.Deps
	Now func() time.Time

	Status string
	Since  string
	Until  string
	List   *cmdutil.ListFlags
}

// NewCmdList builds `globalalerts list`.
func NewCmdList(f *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	opts := &ListOptions{Deps: cmdutil.NewDeps(f), Now: f.Now}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List global alerts",
		Long: `List global alerts (GET /globalAlerts), optionally only those in a status or
created within a time range. --since and --until bound the creation time, in
the past: they take RFC 3339, a date, or a duration back from now (--since 7d
is seven days ago, --until 1d one day ago). (alerts ack --until, by contrast,
is a time to come.)`,
		Example: `  omctl globalalerts list --status OPEN --since 7d
  omctl globalalerts list --since 2026-11-01 --until 2026-11-15 -o jsonl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return listRun(cmd.Context(), opts)
		},
	}
	alerts.AddStatusFlag(cmd, &opts.Status)
	cmd.Flags().StringVar(&opts.Since, "since", "", "only alerts created on or after this time (7d: seven days ago)")
	cmd.Flags().StringVar(&opts.Until, "until", "", "only alerts created on or before this time (1d: one day ago)")
	opts.List = cmdutil.AddListFlags(cmd, true)
	return cmd
}

func listRun(ctx context.Context, opts *ListOptions) error {
	filter, err := alerts.ParseFilter(opts.Status, "")
	if err != nil {
		return err
	}
	q := filter.Query()
	for flag, value := range map[string]string{"--since": opts.Since, "--until": opts.Until} {
		if _, err := cmdutil.ParsePastTime(value, time.Time{}); value != "" && err != nil {
			return cmdutil.FlagErrorf("invalid %s %v", flag, strings.TrimPrefix(err.Error(), "invalid time "))
		}
	}
	// The client before the times: --since 7d counts back from the
	// server's clock, which the client learns (Factory.Now).
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	printer, c := r.Printer, r.Client
	var since, until time.Time
	for _, b := range []struct {
		flag, value, param string
		dst                *time.Time
	}{{"--since", opts.Since, "createdOnOrAfter", &since}, {"--until", opts.Until, "createdOnOrBefore", &until}} {
		if b.value == "" {
			continue
		}
		t, err := cmdutil.ParsePastTime(b.value, opts.Now())
		if err != nil {
			return cmdutil.FlagErrorf("invalid %s %v", b.flag, strings.TrimPrefix(err.Error(), "invalid time "))
		}
		*b.dst = t
		q.Set(b.param, cmdutil.FormatTime(t))
	}
	if !since.IsZero() && !until.IsZero() && until.Before(since) {
		return cmdutil.FlagErrorf("--until %s is before --since %s", opts.Until, opts.Since)
	}
	lo, err := opts.List.ListOptions()
	if err != nil {
		return err
	}
	lo.Query = q
	return printer.List(filter.Pages(c.Pages(ctx, api.ListGlobalAlerts.Path(), lo)), opts.List.Part(), alerts.Table)
}
