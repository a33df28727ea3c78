package alertconfigs

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// DeleteOptions are the inputs of `alertconfigs delete`.
type DeleteOptions struct {
	cmdutil.Deps

	ConfigID string
	Yes      bool
	DryRun   bool
}

// errNotConfirmed ends a deletion the user did not confirm.
var errNotConfirmed = errors.New("not deleted: the deletion was not confirmed")

// NewCmdDelete builds `alertconfigs delete`.
func NewCmdDelete(f *cmdutil.Factory, runF func(context.Context, *DeleteOptions) error) *cobra.Command {
	opts := &DeleteOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "delete ALERT_CONFIG_ID [--yes]",
		Short: "Delete an alert configuration",
		Long: `Delete an alert configuration of the project
(DELETE /groups/{project_id}/alertConfigs/{alert_config_id}). Its TRACKING
and OPEN alerts are cancelled.

On a terminal omctl asks before deleting (No unless you choose Yes); --yes
skips the question. When standard input is not a terminal (a script, a CI
job) there is nobody to ask, so omctl refuses to delete without --yes.
--dry-run shows the configuration that would be deleted, asks nothing and
deletes nothing.

The real service answers a deletion with an empty body; omctl takes any
success as done, and -o json prints {} for it.`,
		Example: `  omctl alertconfigs delete 5f2a0c2e8f9d4b0000000001
  omctl alertconfigs delete 5f2a0c2e8f9d4b0000000001 --yes`,
		Args:              cmdutil.ExactArgs(1, "ALERT_CONFIG_ID"),
		ValidArgsFunction: completeConfigIDs(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ConfigID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return deleteRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "delete without asking for confirmation")
	cmdutil.AddDryRunFlag(cmd, &opts.DryRun)
	return cmd
}

func deleteRun(ctx context.Context, opts *DeleteOptions) error {
	if err := cmdutil.CheckID("alert config", opts.ConfigID); err != nil {
		return err
	}
	if opts.DryRun {
		return deletePreview(ctx, opts)
	}
	asker, canAsk := opts.Prompt()
	if !opts.Yes && !canAsk {
		return cmdutil.FlagErrorf("refusing to delete alert configuration %s without --yes: there is no terminal, so omctl cannot ask for confirmation", opts.ConfigID)
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedProject)
	if err != nil {
		return err
	}
	printer, projectID := r.Printer, r.ProjectID
	if !opts.Yes {
		sure, err := asker.Confirm(ctx, fmt.Sprintf("Delete alert configuration %s of project %s?", opts.ConfigID, projectID), "Its open alerts will be cancelled.", false)
		if err != nil {
			return err
		}
		if !sure {
			return errNotConfirmed
		}
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	res, err := c.Send(ctx, api.DeleteAlertConfig.Method, api.DeleteAlertConfig.Path(projectID, opts.ConfigID), nil)
	if err != nil {
		return err
	}
	if printer.Format() == api.FormatTable && !opts.IO.IsStdoutTTY() {
		// A script reading the table gets the id of what is gone.
		_, err := fmt.Fprintln(opts.IO.Out, opts.ConfigID)
		return err
	}
	return printer.Confirm(res, Table, fmt.Sprintf("Alert configuration %s deleted", opts.ConfigID))
}

// deletePreview shows the DELETE that would be sent and the configuration
// it would remove.
func deletePreview(ctx context.Context, opts *DeleteOptions) error {
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedProject | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	current, err := r.Client.Get(ctx, api.GetAlertConfig.Path(r.ProjectID, opts.ConfigID), nil)
	if err != nil {
		return err
	}
	w := cmdutil.Write{Method: api.DeleteAlertConfig.Method, Path: api.DeleteAlertConfig.Path(r.ProjectID, opts.ConfigID), Before: r.Client.Content(current)}
	return w.Preview(opts.IO.Out, r.Printer.Format())
}
