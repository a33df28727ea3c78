package alerts

import (
	"context"
	"encoding/json"
	"iter"
	"net/url"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// ListOptions are the inputs of `alerts list`.
type ListOptions struct {
	cmdutil.Deps

	Status string
	// Event keeps the alerts of one event type; the API has no such
	// filter, so omctl applies it to the items it receives.
	Event string
	List  *cmdutil.ListFlags
	// AllProjects lists the alerts of every project the key reads.
	AllProjects bool
	Watch       bool
	Interval    time.Duration
	// IntervalSet says --interval was given, which only --watch uses.
	IntervalSet bool
	// Now is the server's time, for the title of a redraw (nil: the
	// machine's).
	Now func() time.Time
}

// NewCmdList builds `alerts list`; runF replaces listRun in tests.
func NewCmdList(f *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	opts := &ListOptions{Deps: cmdutil.NewDeps(f), Now: f.Now}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the alerts of a project",
		Long:  "List the alerts of a project (GET /groups/{project_id}/alerts), oldest first, a page at a time (--page, --limit) or every page (--all).",
		Example: `  omctl alerts list --status OPEN
  omctl alerts list --all -o jsonl
  omctl alerts list --all --jq '.results[] | select(.eventTypeName=="HOST_DOWN") | .id'
  omctl alerts list --all-projects --status OPEN --all
  omctl alerts list --status OPEN --watch --interval 30s
  omctl alerts list --watch -o jsonl | while read -r alert; do ...; done`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.IntervalSet = cmd.Flags().Changed("interval")
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return listRun(cmd.Context(), opts)
		},
	}
	AddStatusFlag(cmd, &opts.Status)
	cmd.Flags().StringVar(&opts.Event, "event", "", "only alerts of this event type, such as HOST_DOWN (filtered by omctl: the API has no such filter)")
	_ = cmd.RegisterFlagCompletionFunc("event", cmdutil.CompleteValues(api.NamedEventTypes...))
	opts.List = cmdutil.AddListFlags(cmd, true)
	cmdutil.AddAllProjectsFlag(cmd, &opts.AllProjects)
	cmd.Flags().BoolVar(&opts.Watch, "watch", false, "poll until interrupted: redraw on a terminal; piped, print each alert as it appears or changes status")
	cmd.Flags().DurationVar(&opts.Interval, "interval", 10*time.Second, "time between polls with --watch")
	return cmd
}

// AddStatusFlag adds --status, the filter of alerts list and globalalerts
// list, with its completion.
func AddStatusFlag(cmd *cobra.Command, status *string) {
	cmd.Flags().StringVar(status, "status", "", "only alerts in this status: "+strings.Join(api.AlertStatuses, ", ")+" (any case)")
	_ = cmd.RegisterFlagCompletionFunc("status", completeStatus)
}

// Filter is what a list of alerts keeps: a status and an event type.
// The API filters by TRACKING, OPEN and CLOSED itself (its `status`
// parameter); CANCELLED, a status it does not filter by, and an event
// type, which it has no filter for, are kept by omctl from the pages it
// receives.
type Filter struct {
	Status, Event string
}

// ParseFilter checks --status (in any case: open is OPEN) and --event.
func ParseFilter(status, event string) (Filter, error) {
	f := Filter{Status: strings.ToUpper(strings.TrimSpace(status)), Event: event}
	if f.Status != "" && !api.OneOf(f.Status, api.AlertStatuses) {
		return f, cmdutil.FlagErrorf("invalid --status %q: valid values are %s", status, strings.Join(api.AlertStatuses, ", "))
	}
	if f.Event != "" && !api.IsEventTypeName(f.Event) {
		return f, cmdutil.FlagErrorf("invalid --event %q: want an event type name in capitals, such as HOST_DOWN or REPLICA_SET", f.Event)
	}
	return f, nil
}

// Query is the query of a list of alerts that asks the server for what
// it can filter.
func (f Filter) Query() url.Values {
	q := url.Values{}
	if f.Status != "" && api.OneOf(f.Status, api.AlertStatusFilters) {
		q.Set("status", f.Status)
	}
	return q
}

// byOmctl says whether omctl keeps items itself, beyond the server's
// filter.
func (f Filter) byOmctl() bool {
	return f.Event != "" || (f.Status != "" && !api.OneOf(f.Status, api.AlertStatusFilters))
}

// Keep is the items of a page that f keeps, each as the server sent it.
func (f Filter) Keep(items []json.RawMessage) []json.RawMessage {
	if !f.byOmctl() {
		return items
	}
	var kept []json.RawMessage
	for _, item := range items {
		var a struct {
			Status        string `json:"status"`
			EventTypeName string `json:"eventTypeName"`
		}
		if json.Unmarshal(item, &a) != nil || (f.Event != "" && a.EventTypeName != f.Event) || (f.Status != "" && a.Status != f.Status) {
			continue
		}
		kept = append(kept, item)
	}
	return kept
}

// Pages keeps, of each page, the items f keeps. A page filtered by omctl
// is a list of its own, `{"results": [...], "totalCount": N}` of the
// items kept (as --all merges pages), so that -o json and yaml print
// only them; the page the server sent stays its Unfiltered.
func (f Filter) Pages(pages iter.Seq2[*client.Page, error]) iter.Seq2[*client.Page, error] {
	if !f.byOmctl() {
		return pages
	}
	return func(yield func(*client.Page, error) bool) {
		for page, err := range pages {
			if page != nil {
				kept := client.Page{Number: page.Number, IsList: true, Results: f.Keep(page.Results), Unfiltered: page}
				kept.TotalCount, kept.Body = len(kept.Results), listBody(kept.Results)
				page = &kept
			}
			if !yield(page, err) {
				return
			}
		}
	}
}

func listRun(ctx context.Context, opts *ListOptions) error {
	filter, err := ParseFilter(opts.Status, opts.Event)
	if err != nil {
		return err
	}
	opts.Status = filter.Status
	switch {
	case opts.IntervalSet && !opts.Watch:
		return cmdutil.FlagErrorf("--interval is the time between polls of --watch: add --watch, or leave --interval out")
	case opts.Watch && opts.Interval <= 0:
		return cmdutil.FlagErrorf("invalid --interval %s: it must be positive", opts.Interval)
	}
	if opts.Watch {
		// An alert can appear on any page: watch them all, fetched as
		// --all fetches them.
		opts.List.All = true
	}
	lo, err := opts.List.ListOptions()
	if err != nil {
		return err
	}
	lo.Query = filter.Query()
	printer, err := opts.Printer()
	if err != nil {
		return err
	}
	if opts.AllProjects {
		if opts.Watch {
			return cmdutil.FlagErrorf("--watch follows one project: leave out --all-projects")
		}
		r, err := opts.Resolve(cmdutil.NeedClient)
		if err != nil {
			return err
		}
		return printer.List(filter.Pages(cmdutil.EveryProjectsPages(ctx, r.Client, api.ListAlerts, lo)), output.AllPages, output.WithProject(Table))
	}
	switch {
	case opts.Watch && printer.Format() == api.FormatJSON:
		return cmdutil.FlagErrorf("--watch prints alerts one at a time, not one JSON document: use -o jsonl (--jq then filters each alert)")
	case opts.Watch && printer.Format() != api.FormatTable && printer.Format() != api.FormatJSONL:
		// A redraw is a table; piped, one line per change is what a
		// reader of the stream can split.
		return cmdutil.FlagErrorf("--watch takes -o table or -o jsonl, not -o %s", printer.Format())
	}
	r, err := opts.Resolve(cmdutil.NeedProject | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	projectID, c := r.ProjectID, r.Client
	if opts.Watch {
		return watchRun(ctx, opts, c, printer, alertsPath(projectID), lo)
	}
	return printer.List(filter.Pages(c.Pages(ctx, alertsPath(projectID), lo)), opts.List.Part(), Table)
}
