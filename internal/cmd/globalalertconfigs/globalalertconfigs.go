// Package globalalertconfigs implements `omctl globalalertconfigs`: list,
// enable and disable global alert configurations (endpoints 8 and 9).
package globalalertconfigs

import (
	"context"
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
	Enabled  bool
	DryRun   bool
}

// NewCmdSetEnabled builds `globalalertconfigs enable` or `... disable`.
func NewCmdSetEnabled(f *cmdutil.Factory, enabled bool, runF func(context.Context, *SetEnabledOptions) error) *cobra.Command {
	opts := &SetEnabledOptions{Deps: cmdutil.NewDeps(f), Enabled: enabled}
	verb := alertconfigs.EnableVerb(enabled)
	cmd := &cobra.Command{
		Use:   verb + " GLOBAL_ALERT_CONFIG_ID",
		Short: cmdutil.Title(verb) + " a global alert configuration",
		Long: cmdutil.Title(verb) + ` a global alert configuration (PUT /globalAlertConfigs/{id} with enabled).
--dry-run prints the PUT and the configuration's diff, and sends nothing.`,
		Example:           "  omctl globalalertconfigs " + verb + " 5f1a0c2e8f9d4b0012345678",
		Args:              cmdutil.ExactArgs(1, "GLOBAL_ALERT_CONFIG_ID"),
		ValidArgsFunction: alertconfigs.CompleteIDs(f, func() (string, error) { return api.ListGlobalAlertConfigs.Path(), nil }),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ConfigID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return setEnabledRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddDryRunFlag(cmd, &opts.DryRun)
	return cmd
}

func setEnabledRun(ctx context.Context, opts *SetEnabledOptions) error {
	return scope.SetEnabledRun(ctx, opts.Deps, opts.ConfigID, opts.Enabled, opts.DryRun)
}
