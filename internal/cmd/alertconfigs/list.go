package alertconfigs

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// ListOptions are the inputs of `alertconfigs list`.
type ListOptions struct {
	Client    func() (*client.Client, error)
	Printer   func() (*output.Printer, error)
	ProjectID func() (string, error)

	List *cmdutil.ListFlags
}

// NewCmdList builds `alertconfigs list`.
func NewCmdList(f *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	opts := &ListOptions{Client: f.Client, Printer: f.Printer, ProjectID: f.ProjectID}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the alert configurations of a project",
		Long:  "List the alert configurations of a project (GET /groups/{project_id}/alertConfigs).",
		Example: `  omctl alertconfigs list
  omctl alertconfigs list --all --jq '.results[] | select(.enabled | not) | .id'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return listRun(cmd.Context(), opts)
		},
	}
	opts.List = cmdutil.AddListFlags(cmd, true)
	return cmd
}

func listRun(ctx context.Context, opts *ListOptions) error {
	lo, err := opts.List.ListOptions()
	if err != nil {
		return err
	}
	printer, err := opts.Printer()
	if err != nil {
		return err
	}
	projectID, err := opts.ProjectID()
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	return printer.List(c.Pages(ctx, configsPath(projectID), lo), lo.All, Table)
}
