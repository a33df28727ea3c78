package orgs

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmd/projects"
	"github.com/omctl/omctl/internal/cmdutil"
)

// ProjectsOptions are the inputs of `orgs projects`.
type ProjectsOptions struct {
	cmdutil.Deps

	OrgID string
	Name  string
	List  *cmdutil.ListFlags
}

// NewCmdProjects builds `orgs projects`.
func NewCmdProjects(f *cmdutil.Factory, runF func(context.Context, *ProjectsOptions) error) *cobra.Command {
	opts := &ProjectsOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "projects ORG_ID [--name NAME]",
		Short: "List the projects of an organization",
		Long: `List the projects of an organization that the API key reads
(GET /orgs/{org_id}/groups). --name keeps those of that whole name, without
regard to case.`,
		Example: `  omctl orgs projects 5e1a0c2e8f9d4b0012340001
  omctl orgs projects 5e1a0c2e8f9d4b0012340001 --name production`,
		Args:              cmdutil.ExactArgs(1, "ORG_ID"),
		ValidArgsFunction: cmdutil.CompleteListed(f, 0, cmdutil.OrgsListed),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.OrgID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return projectsRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Name, "name", "", "only the projects of this name (case ignored)")
	opts.List = cmdutil.AddListFlags(cmd, false)
	return cmd
}

func projectsRun(ctx context.Context, opts *ProjectsOptions) error {
	if err := cmdutil.CheckID("organization", opts.OrgID); err != nil {
		return err
	}
	return cmdutil.PrintList(ctx, opts.Deps, 0, opts.List, nameQuery(opts.Name),
		func(cmdutil.Resolved) string { return api.ListOrgProjects.Path(opts.OrgID) }, projects.Table)
}
