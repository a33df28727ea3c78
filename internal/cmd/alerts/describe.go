package alerts

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// DescribeOptions are the inputs of `alerts describe`.
type DescribeOptions struct {
	cmdutil.Deps

	AlertID string
}

// NewCmdDescribe builds `alerts describe`.
func NewCmdDescribe(f *cmdutil.Factory, runF func(context.Context, *DescribeOptions) error) *cobra.Command {
	opts := &DescribeOptions{Deps: cmdutil.NewDeps(f)}
	return &cobra.Command{
		Use:               "describe ALERT_ID",
		Short:             "Show one alert",
		Long:              "Show one alert of a project (GET /groups/{project_id}/alerts/{alert_id}). Its fields depend on its event type.",
		Example:           "  omctl alerts describe 5f1a0c2e8f9d4b0000000025 -o json",
		Args:              cmdutil.ExactArgs(1, "ALERT_ID"),
		ValidArgsFunction: completeAlertIDs(f, false),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.AlertID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return describeRun(cmd.Context(), opts)
		},
	}
}

func describeRun(ctx context.Context, opts *DescribeOptions) error {
	if err := cmdutil.CheckID("alert", opts.AlertID); err != nil {
		return err
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedProject | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	printer, projectID, c := r.Printer, r.ProjectID, r.Client
	body, err := c.Get(ctx, api.GetAlert.Path(projectID, opts.AlertID), nil)
	if err != nil {
		return err
	}
	return printer.Describe(body, Table, Detail.Of("id", opts.AlertID))
}
