package backupconfigs

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// ListOptions are the inputs of `backupconfigs list`.
type ListOptions struct {
	cmdutil.Deps

	List *cmdutil.ListFlags
}

// NewCmdList builds `backupconfigs list`.
func NewCmdList(f *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	opts := &ListOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the backup configurations of a project",
		Long: `List the backup configurations of a project
(GET /groups/{project_id}/backupConfigs), each as describe shows it without
its members.`,
		Example: `  omctl backupconfigs list --project 5e2b0c2e8f9d4b0012340001
  omctl backupconfigs list -o jsonl --jq 'select(.statusName == "STARTED") | .clusterId'`,
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
	return cmdutil.PrintList(ctx, opts.Deps, cmdutil.NeedProject, opts.List, nil,
		func(r cmdutil.Resolved) string { return api.ListBackupConfigs.Path(r.ProjectID) }, Table)
}
