package projects

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// DescribeOptions are the inputs of `projects describe`.
type DescribeOptions struct {
	cmdutil.Deps

	// Project is an id (24 hexadecimal digits) or a name.
	Project string
}

// NewCmdDescribe builds `projects describe`.
func NewCmdDescribe(f *cmdutil.Factory, runF func(context.Context, *DescribeOptions) error) *cobra.Command {
	opts := &DescribeOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "describe PROJECT_ID|NAME",
		Short: "Show a project by ID or name",
		Long: `Show a project: by its ID (GET /groups/{project_id}), or by its name
(GET /groups/byName/{name}; names are matched exactly, case included).`,
		Example: `  omctl projects describe 5e2b0c2e8f9d4b0012340001
  omctl projects describe shop -o json`,
		Args:              cmdutil.ExactArgs(1, "PROJECT_ID|NAME"),
		ValidArgsFunction: cmdutil.CompleteListed(f, 0, cmdutil.ProjectsListed),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Project = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return describeRun(cmd.Context(), opts)
		},
	}
	return cmd
}

func describeRun(ctx context.Context, opts *DescribeOptions) error {
	if opts.Project == "" {
		return cmdutil.FlagErrorf("PROJECT_ID|NAME must not be empty")
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	path, detail := api.GetProjectByName.Path(opts.Project), Detail.Of("id", "")
	if api.IsObjectID(opts.Project) {
		path, detail = api.GetProject.Path(opts.Project), Detail.Of("id", opts.Project)
	}
	body, err := r.Client.Get(ctx, path, nil)
	if err != nil {
		return err
	}
	return r.Printer.Describe(body, Table, detail)
}
