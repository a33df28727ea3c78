package cmdutil

import (
	"context"
	"net/url"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/output"
)

// ListFlags are the flags of every list command.
type ListFlags struct {
	Page     int
	Limit    int
	All      bool
	Parallel int
	// BackupJobsEnabledOnly is nil unless given, so the server's default
	// for each endpoint applies otherwise.
	BackupJobsEnabledOnly *bool

	flags *pflag.FlagSet
}

// AddListFlags registers --page, --limit, --all and --parallel, and
// --backup-jobs-enabled-only where the endpoint takes it.
func AddListFlags(cmd *cobra.Command, withBackupJobs bool) *ListFlags {
	l := &ListFlags{flags: cmd.Flags()}
	cmd.Flags().IntVar(&l.Page, "page", 1, "page number to fetch, from 1")
	cmd.Flags().IntVar(&l.Limit, "limit", 100, "items per page, 1 to 500 (with --all, 500 unless given)")
	cmd.Flags().BoolVar(&l.All, "all", false, "fetch every page, from --page on, 500 items a request unless --limit is given")
	AddParallelFlag(cmd, &l.Parallel)
	if withBackupJobs {
		OptionalBoolVar(cmd.Flags(), &l.BackupJobsEnabledOnly, "backup-jobs-enabled-only",
			"exclude daemons not enabled for backup jobs; =false includes them (server default when not given)")
		// The API takes it on these lists, but none of them lists daemons:
		// it is still passed on when given, and not offered in help or
		// completion, where it would only puzzle.
		_ = cmd.Flags().MarkHidden("backup-jobs-enabled-only")
	}
	return l
}

// AddParallelFlag registers --parallel, the pages fetched at once when
// every page is asked for.
func AddParallelFlag(cmd *cobra.Command, p *int) {
	cmd.Flags().IntVar(p, "parallel", client.DefaultParallel, "pages fetched at once when fetching every page, 1 to 32 (fewer when pages are large)")
}

// CheckParallel refuses a --parallel outside 1 to client.MaxParallel.
func CheckParallel(n int) error {
	if n < 1 || n > client.MaxParallel {
		return FlagErrorf("invalid --parallel %d: must be between 1 and %d", n, client.MaxParallel)
	}
	return nil
}

// Part is how much of the list the flags ask for: every page (--all), a
// page the user chose (--page or --limit), or else the first page, of
// which the printer says when more items follow.
func (l *ListFlags) Part() output.Part {
	switch {
	case l.All:
		return output.AllPages
	case l.flags != nil && (l.flags.Changed("page") || l.flags.Changed("limit")):
		return output.PageAsked
	}
	return output.FirstPage
}

// LimitGiven says --limit was given on the command line.
func (l *ListFlags) LimitGiven() bool { return l.flags != nil && l.flags.Changed("limit") }

// ListOptions checks the flags and turns them into client options.
func (l *ListFlags) ListOptions() (client.ListOptions, error) {
	if l.Page < 1 {
		return client.ListOptions{}, FlagErrorf("invalid --page %d: pages start at 1", l.Page)
	}
	if l.Limit < 1 || l.Limit > client.MaxItemsPerPage {
		return client.ListOptions{}, FlagErrorf("invalid --limit %d: must be between 1 and %d", l.Limit, client.MaxItemsPerPage)
	}
	if l.Parallel != 0 || (l.flags != nil && l.flags.Changed("parallel")) {
		if err := CheckParallel(l.Parallel); err != nil {
			return client.ListOptions{}, err
		}
	}
	limit := l.Limit
	if l.All && l.flags != nil && !l.flags.Changed("limit") {
		// Every page is wanted: the fewest requests that the API allows.
		limit = client.MaxItemsPerPage
	}
	return client.ListOptions{PageNum: l.Page, ItemsPerPage: limit, All: l.All, Parallel: l.Parallel,
		BackupJobsEnabledOnly: l.BackupJobsEnabledOnly}, nil
}

// PrintList is the run of a plain list command: it checks the list flags,
// resolves what need names (the printer and the client always), builds the
// list's path from them, and prints every page asked for with def.
func PrintList(ctx context.Context, d Deps, need Need, l *ListFlags, query url.Values, path func(Resolved) string, def output.TableDef) error {
	lo, err := l.ListOptions()
	if err != nil {
		return err
	}
	lo.Query = query
	r, err := d.Resolve(need | NeedPrinter | NeedClient)
	if err != nil {
		return err
	}
	return r.Printer.List(r.Client.Pages(ctx, path(r), lo), l.Part(), def)
}
