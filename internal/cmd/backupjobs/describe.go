// Package backupjobs implements `omctl backupjobs describe|update`: the
// backup job settings of a project (endpoint 20, and the real service's
// create or replace, docs/api.md).
package backupjobs

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// NewCmdBackupJobs is the `backupjobs` command group.
func NewCmdBackupJobs(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "backupjobs <command>",
		Short: "Read and set the backup job settings of a project",
	})
	cmd.AddCommand(NewCmdDescribe(f, nil), NewCmdUpdate(f, nil))
	return cmd
}

// Table shows a project's backup job settings.
var Table = output.Columns([]string{"PROJECT", "LABELS", "OPLOG STORES", "SNAPSHOT STORES", "SYNC STORES", "DAEMONS"},
	func(c api.BackupJobConfig) []string {
		daemons := make([]string, len(c.DaemonFilter))
		for i, d := range c.DaemonFilter {
			daemons[i] = d.Machine
		}
		return []string{c.ID, strings.Join(c.LabelFilter, ","), storeIDs(c.OplogStoreFilter), storeIDs(c.SnapshotStoreFilter),
			strings.Join(c.SyncStoreFilter, ","), strings.Join(daemons, ",")}
	})

func storeIDs(fs []api.StoreFilter) string {
	ids := make([]string, len(fs))
	for i, f := range fs {
		ids[i] = f.ID
	}
	return strings.Join(ids, ",")
}

// DescribeOptions are the inputs of `backupjobs describe`.
type DescribeOptions struct {
	cmdutil.Deps

	// Project is the PROJECT_ID argument; empty means --project or the profile's.
	Project string
}

// NewCmdDescribe builds `backupjobs describe`.
func NewCmdDescribe(f *cmdutil.Factory, runF func(context.Context, *DescribeOptions) error) *cobra.Command {
	opts := &DescribeOptions{Deps: cmdutil.NewDeps(f)}
	return &cobra.Command{
		Use:   "describe [PROJECT_ID]",
		Short: "Show the backup job settings of a project",
		Long: `Show which daemons, stores and labels a project's backup jobs may use
(GET /admin/backup/groups/{project_id}). PROJECT_ID defaults to --project.
A project with no such settings answers 404.`,
		Example: `  omctl backupjobs describe
  omctl backupjobs describe 5e2b0c2e8f9d4b0012340001 -o json`,
		Args: cmdutil.RangeArgs(0, 1, "PROJECT_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Project = args[0]
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return describeRun(cmd.Context(), opts)
		},
	}
}

func describeRun(ctx context.Context, opts *DescribeOptions) error {
	projectID := opts.Project
	if projectID == "" {
		var err error
		if projectID, err = opts.ProjectID(); err != nil {
			return err
		}
	} else if err := cmdutil.CheckID("project", projectID); err != nil {
		return err
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	printer, c := r.Printer, r.Client
	body, err := c.Get(ctx, api.GetBackupJobConfig.Path(projectID), nil)
	if err != nil {
		return err
	}
	return printer.Describe(body, Table, Detail.Of("id", projectID))
}
