// Package globalalertconfigs implements `omctl globalalertconfigs`: list,
// enable and disable global alert configurations (endpoints 8 and 9).
package globalalertconfigs

import (
	"context"
	"math"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmd/alertconfigs"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// NewCmdGlobalAlertConfigs is the `globalalertconfigs` command group.
func NewCmdGlobalAlertConfigs(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "globalalertconfigs <command>",
		Short: "List, enable and disable global alert configurations",
	})
	cmd.AddCommand(NewCmdList(f, nil), NewCmdSetEnabled(f, true, nil), NewCmdSetEnabled(f, false, nil))
	return cmd
}

// Table shows global alert configurations.
var Table = output.Columns([]string{"ID", "EVENT", "ENABLED", "ALL PROJECTS", "NOTIFICATIONS", "UPDATED"},
	func(c api.AlertConfig) []string {
		all := ""
		if c.ForAllGroups != nil {
			all = strconv.FormatBool(*c.ForAllGroups)
		}
		return []string{c.ID, c.EventTypeName, strconv.FormatBool(c.Enabled), all, alertconfigs.NotificationKinds(c), c.Updated}
	})

// scope is the global alert configurations, which list, enable and
// disable as a project's do.
var scope = alertconfigs.Scope{
	List: api.ListGlobalAlertConfigs, Get: api.GetGlobalAlertConfig, Enable: api.EnableGlobalAlertConfig,
	Noun: "global alert configuration", ANoun: "a global alert configuration", IDName: "global alert config",
	Table: Table,
}

// ListOptions are the inputs of `globalalertconfigs list`.
type ListOptions = alertconfigs.ListOptions

// NewCmdList builds `globalalertconfigs list`.
func NewCmdList(f *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	if runF == nil {
		runF = listRun
	}
	return scope.NewCmdList(f, "List global alert configurations",
		"List global alert configurations (GET /globalAlertConfigs).",
		"  omctl globalalertconfigs list --all -o jsonl", runF)
}

func listRun(ctx context.Context, opts *ListOptions) error {
	return scope.ListRun(ctx, opts.Deps, opts.List)
}

// SetEnabledOptions are the inputs of `globalalertconfigs enable|disable`.
type SetEnabledOptions struct {
	cmdutil.Deps

	ConfigID string
	// ConfigIDs are the ids of a bulk change: several, or - for standard
	// input.
	ConfigIDs []string
	Enabled   bool
	DryRun    bool
	Yes       bool
}

// NewCmdSetEnabled builds `globalalertconfigs enable` or `... disable`.
func NewCmdSetEnabled(f *cmdutil.Factory, enabled bool, runF func(context.Context, *SetEnabledOptions) error) *cobra.Command {
	opts := &SetEnabledOptions{Deps: cmdutil.NewDeps(f), Enabled: enabled}
	verb := alertconfigs.EnableVerb(enabled)
	cmd := &cobra.Command{
		Use:   verb + " (GLOBAL_ALERT_CONFIG_ID... | -)",
		Short: cmdutil.Title(verb) + " global alert configurations",
		Long: cmdutil.Title(verb) + ` global alert configurations (PUT /globalAlertConfigs/{id} with enabled).

Several configurations: give several ids, or - to read them from standard
input (one a line, the first field of each). They are changed 8 at a time,
and one line per configuration says what happened, as for alertconfigs.
--dry-run prints each PUT and the configuration's diff, and sends nothing.
At a terminal omctl asks before changing several; --yes skips that.`,
		Example: "  omctl globalalertconfigs " + verb + " 5f2b0c2e8f9d4b0012340003\n" +
			"  omctl globalalertconfigs list --all | cut -f1 | omctl globalalertconfigs " + verb + " -",
		Args:              cmdutil.RangeArgs(1, math.MaxInt, "GLOBAL_ALERT_CONFIG_ID"),
		ValidArgsFunction: alertconfigs.CompleteIDs(f, func() (string, error) { return api.ListGlobalAlertConfigs.Path(), nil }),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 && args[0] != "-" {
				opts.ConfigID = args[0]
			} else {
				opts.ConfigIDs = args
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return setEnabledRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddDryRunFlag(cmd, &opts.DryRun)
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "change several configurations without asking at a terminal")
	return cmd
}

func setEnabledRun(ctx context.Context, opts *SetEnabledOptions) error {
	if len(opts.ConfigIDs) > 0 {
		return scope.BulkSetEnabledRun(ctx, opts.Deps, opts.ConfigIDs, opts.Enabled, opts.DryRun, opts.Yes)
	}
	return scope.SetEnabledRun(ctx, opts.Deps, opts.ConfigID, opts.Enabled, opts.DryRun)
}
