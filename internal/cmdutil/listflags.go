package cmdutil

import (
	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/client"
)

// ListFlags are the flags of every list command.
type ListFlags struct {
	Page  int
	Limit int
	All   bool
	// BackupJobsEnabledOnly is nil unless given, so the server's default
	// for each endpoint applies otherwise.
	BackupJobsEnabledOnly *bool
}

// AddListFlags registers --page, --limit and --all, and
// --backup-jobs-enabled-only where the endpoint takes it.
func AddListFlags(cmd *cobra.Command, withBackupJobs bool) *ListFlags {
	l := &ListFlags{}
	cmd.Flags().IntVar(&l.Page, "page", 1, "page number to fetch, from 1")
	cmd.Flags().IntVar(&l.Limit, "limit", 100, "items per page, 1 to 500")
	cmd.Flags().BoolVar(&l.All, "all", false, "fetch every page, from --page on")
	if withBackupJobs {
		OptionalBoolVar(cmd.Flags(), &l.BackupJobsEnabledOnly, "backup-jobs-enabled-only",
			"exclude daemons not enabled for backup jobs; =false includes them (server default when not given)")
	}
	return l
}

// ListOptions checks the flags and turns them into client options.
func (l *ListFlags) ListOptions() (client.ListOptions, error) {
	if l.Page < 1 {
		return client.ListOptions{}, FlagErrorf("invalid --page %d: pages start at 1", l.Page)
	}
	if l.Limit < 1 || l.Limit > client.MaxItemsPerPage {
		return client.ListOptions{}, FlagErrorf("invalid --limit %d: must be between 1 and %d", l.Limit, client.MaxItemsPerPage)
	}
	return client.ListOptions{PageNum: l.Page, ItemsPerPage: l.Limit, All: l.All,
		BackupJobsEnabledOnly: l.BackupJobsEnabledOnly}, nil
}
