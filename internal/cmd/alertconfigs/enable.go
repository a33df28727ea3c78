package alertconfigs

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
)

// SetEnabledOptions are the inputs of `alertconfigs enable|disable`.
type SetEnabledOptions struct {
	cmdutil.Deps

	// ConfigID is the one configuration of a single change; ConfigIDs
	// (where "-" reads ids from standard input) or Event choose those of
	// a bulk one.
	ConfigID  string
	ConfigIDs []string
	Event     string
	DryRun    bool
	Enabled   bool
	// Yes skips the question a bulk change asks at a terminal.
	Yes bool
}

// NewCmdSetEnabled builds `alertconfigs enable` or `alertconfigs disable`.
func NewCmdSetEnabled(f *cmdutil.Factory, enabled bool, runF func(context.Context, *SetEnabledOptions) error) *cobra.Command {
	opts := &SetEnabledOptions{Deps: cmdutil.NewDeps(f), Enabled: enabled}
	verb := EnableVerb(enabled)
	cmd := &cobra.Command{
		Use:   verb + " (ALERT_CONFIG_ID... | - | --event E)",
		Short: cmdutil.Title(verb) + " alert configurations",
		Long: cmdutil.Title(verb) + ` alert configurations (PATCH
/groups/{project_id}/alertConfigs/{alert_config_id}). ` + enableEffect(enabled) + `

Several configurations: give several ids, or - to read them from standard
input (one a line, the first field of each, as ` + "`alertconfigs list --all | cut -f1`" + `
prints them), or --event to choose the configurations of an event type that
are not ` + verb + `d already (ids given are acted on as given).
They are changed 8 at a time, and one line per configuration says what
happened: a table on a terminal, tab-separated ID, RESULT and DETAIL when
piped, a JSON object per line with -o json or jsonl. Every one is tried; the
exit code is 1 when any failed. --dry-run prints, for each configuration,
the PATCH it would send and its diff (and, for disable, on stderr, the
active alerts it would cancel), and changes nothing. At a terminal
omctl asks before changing several; --yes skips that.

Without ids or --event, at a terminal, omctl offers the configurations the
command would change to choose from; elsewhere it is a usage error.`,
		Example: "  omctl alertconfigs " + verb + " 5f2a0c2e8f9d4b0000000001\n" +
			"  omctl alertconfigs " + verb + " --event HOST_DOWN --dry-run\n" +
			"  omctl alertconfigs list --all | cut -f1 | omctl alertconfigs " + verb + " -",
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: completeConfigIDs(f),
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
	cmd.Flags().StringVar(&opts.Event, "event", "", verb+" the configurations of this event type (HOST_DOWN, ...) that are not "+verb+"d")
	cmdutil.AddDryRunFlag(cmd, &opts.DryRun)
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "change several configurations without asking at a terminal")
	return cmd
}

func setEnabledRun(ctx context.Context, opts *SetEnabledOptions) error {
	if len(opts.ConfigIDs) > 0 || opts.Event != "" || opts.DryRun {
		return bulkSetEnabledRun(ctx, opts)
	}
	if opts.ConfigID == "" {
		if picker, ok := opts.Picker(); ok {
			return pickAndSetEnabled(ctx, opts, picker)
		}
		return cmdutil.FlagErrorf("which configurations? give ALERT_CONFIG_ID..., - to read ids from standard input, or --event")
	}
	return ProjectScope.SetEnabledRun(ctx, opts.Deps, opts.ConfigID, opts.Enabled, false)
}

// enableEffect says what a change of enabled does besides the flag, as the
// API has it: disabling cancels the configuration's active alerts.
func enableEffect(enabled bool) string {
	if enabled {
		return `Nothing else of the
configuration changes.`
	}
	return `Disabling also cancels
the configuration's active alerts, as the API does: each TRACKING or OPEN
alert of it becomes CANCELLED. Nothing else of the configuration changes.`
}
