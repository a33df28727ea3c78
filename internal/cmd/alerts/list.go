package alerts

import (
	"context"
	"encoding/json"
	"fmt"
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
	cmd.Flags().StringVar(status, "status", "", "only alerts in this status: "+strings.Join(api.AlertStatusFilters, ", "))
	_ = cmd.RegisterFlagCompletionFunc("status", completeStatusFilter)
}

// StatusQuery checks --status and returns the query of a list of alerts
// that asks for it (none when status is empty).
func StatusQuery(status string) (url.Values, error) {
	q := url.Values{}
	if status != "" {
		if !api.OneOf(status, api.AlertStatusFilters) {
			return nil, cmdutil.FlagErrorf("invalid --status %q: valid values are %s", status, strings.Join(api.AlertStatusFilters, ", "))
		}
		q.Set("status", status)
	}
	return q, nil
}

func listRun(ctx context.Context, opts *ListOptions) error {
	q, err := StatusQuery(opts.Status)
	if err != nil {
		return err
	}
	switch {
	case opts.Event != "" && !api.IsEventTypeName(opts.Event):
		return cmdutil.FlagErrorf("invalid --event %q: want an event type name in capitals, such as HOST_DOWN or REPLICA_SET", opts.Event)
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
	lo.Query = q
	printer, err := opts.Printer()
	if err != nil {
		return err
	}
	if opts.AllProjects {
		if opts.Watch {
			return cmdutil.FlagErrorf("--watch follows one project: leave out --all-projects")
		}
		if opts.Event != "" {
			return cmdutil.FlagErrorf("--event goes with one project: leave out --all-projects, or filter with --jq 'select(.eventTypeName == \"%s\")'", opts.Event)
		}
		r, err := opts.Resolve(cmdutil.NeedClient)
		if err != nil {
			return err
		}
		return printer.List(cmdutil.EveryProjectsPages(ctx, r.Client, api.ListAlerts, lo), true, output.WithProject(Table))
	}
	switch {
	case opts.Watch && printer.Format() == api.FormatJSON:
		return cmdutil.FlagErrorf("--watch prints alerts one at a time, not one JSON document%s: use -o jsonl (--jq then filters each alert)", formatFrom(printer))
	case opts.Watch && printer.Format() != api.FormatTable && printer.Format() != api.FormatJSONL:
		// A redraw is a table; piped, one line per change is what a
		// reader of the stream can split.
		return cmdutil.FlagErrorf("--watch takes -o table or -o jsonl, not -o %s%s", printer.Format(), formatFrom(printer))
	case opts.Event != "" && printer.Format() != api.FormatTable && printer.Format() != api.FormatJSONL:
		// -o json and yaml print the server's answer as received; a
		// filtered one would be omctl's.
		return cmdutil.FlagErrorf("--event filters alerts one by one: use -o table or -o jsonl, or --jq 'select(.eventTypeName == \"%s\")' with -o json", opts.Event)
	}
	r, err := opts.Resolve(cmdutil.NeedProject | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	projectID, c := r.ProjectID, r.Client
	if opts.Watch {
		return watchRun(ctx, opts, c, printer, alertsPath(projectID), lo)
	}
	return printer.List(ofEvent(c.Pages(ctx, alertsPath(projectID), lo), opts.Event), lo.All, Table)
}

// formatFrom says where an output format the command refuses was set,
// when not by -o on its command line: a profile's or the environment's
// format is what the user has to find.
func formatFrom(p *output.Printer) string {
	if from := p.FormatFrom(); from != "" && !strings.HasPrefix(from, "-") {
		return fmt.Sprintf(" (-o %s is set by %s; give -o on the command line to override it)", p.Format(), from)
	}
	return ""
}

// ofEvent keeps the alerts of event in each page (all when event is "").
// A filtered page has no total: it is no longer the server's count.
func ofEvent(pages iter.Seq2[*client.Page, error], event string) iter.Seq2[*client.Page, error] {
	if event == "" {
		return pages
	}
	return func(yield func(*client.Page, error) bool) {
		for page, err := range pages {
			if page != nil {
				kept := *page
				kept.Results = keepEvent(page.Results, event)
				kept.TotalCount, kept.HasTotal = len(kept.Results), false
				page = &kept
			}
			if !yield(page, err) {
				return
			}
		}
	}
}

func keepEvent(items []json.RawMessage, event string) []json.RawMessage {
	var kept []json.RawMessage
	for _, item := range items {
		var a struct {
			EventTypeName string `json:"eventTypeName"`
		}
		if json.Unmarshal(item, &a) == nil && a.EventTypeName == event {
			kept = append(kept, item)
		}
	}
	return kept
}
