package apply

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
)

// NewCmds builds apply, diff and export.
func NewCmds(f *cmdutil.Factory) []*cobra.Command {
	return []*cobra.Command{NewCmdApply(f, nil), NewCmdDiff(f, nil), NewCmdExport(f, nil)}
}

// Options are the inputs apply and diff share.
type Options struct {
	cmdutil.Deps

	Files    []string
	DryRun   bool
	ExitCode bool
}

func newOptions(f *cmdutil.Factory) *Options {
	return &Options{Deps: cmdutil.NewDeps(f)}
}

func addFileFlag(cmd *cobra.Command, opts *Options) {
	cmd.Flags().StringArrayVarP(&opts.Files, "file", "f", nil, "YAML or JSON file of documents, a directory of them, or - for standard input (repeatable)")
	_ = cmd.MarkFlagRequired("file")
	_ = cmd.MarkFlagFilename("file", "yaml", "yml", "json")
}

// plans validates every document, then reads what each valid one names,
// and returns the plans in the order they are applied: by dependency
// (stores before the backup jobs configurations that name them, and so
// on), then as the files give them; an invalid document is a refused
// plan, first, so that one run lists every problem of every document.
// Only reads are sent, and none when no document is valid.
func plans(ctx context.Context, opts *Options) ([]*Plan, *client.Client, error) {
	docs, invalid, err := readDocuments(opts.IO, "-f", opts.Files)
	if err != nil {
		return nil, nil, err
	}
	var out []*Plan
	for _, iv := range invalid {
		out = append(out, &Plan{Doc: &Document{Source: iv.Source, Kind: iv.Kind, Line: iv.Line}, Action: Refused, Problems: iv.Problems, invalid: true})
	}
	if len(docs) == 0 {
		return out, nil, nil
	}
	c, err := opts.Client()
	if err != nil {
		return nil, nil, err
	}
	list, err := PlanDocuments(ctx, &Planner{Client: c, ProjectID: opts.ProjectID, OrgID: opts.OrgID}, docs)
	return append(out, list...), c, err
}

// PlanDocuments plans docs with p in the order they are applied (see
// plans); only reads are sent. It sorts docs.
func PlanDocuments(ctx context.Context, p *Planner, docs []*Document) ([]*Plan, error) {
	sort.SliceStable(docs, func(i, j int) bool { return docs[i].Kind.Rank < docs[j].Kind.Rank })
	p.planned = plannedStores(docs)
	var out []*Plan
	for _, d := range docs {
		pl, err := p.Plan(ctx, d)
		if err != nil {
			return nil, fmt.Errorf("%s (%s): %w", d.Source, d.Kind.Name, err)
		}
		out = append(out, pl)
	}
	return out, nil
}

// count sums up plans by action.
func count(list []*Plan) map[Action]int {
	n := map[Action]int{}
	for _, pl := range list {
		n[pl.Action]++
	}
	return n
}

// showPlan prints the diff of every change, and of every refused
// document the diff it asked for and why it cannot be applied.
func showPlan(opts *Options, list []*Plan) {
	color := opts.IO.ColorEnabled()
	for _, pl := range list {
		switch pl.Action {
		case Create, Update:
			WriteDiff(opts.IO.Out, pl, color)
		case Refused:
			if pl.After != nil && !reflect.DeepEqual(pl.Before, pl.After) {
				WriteDiff(opts.IO.Out, pl, color)
			}
			reportRefused(opts.IO, pl)
		}
	}
}

func reportRefused(ios *iostreams.IOStreams, pl *Plan) {
	if pl.invalid {
		fmt.Fprintf(ios.ErrOut, "Invalid document %s\n", Invalid{Source: pl.Doc.Source, Kind: pl.Doc.Kind, Problems: pl.Problems})
		return
	}
	fmt.Fprintf(ios.ErrOut, "%s (%s) cannot be applied, nothing of it is sent:\n  %s\n", pl.Label, pl.Doc.Source, strings.Join(pl.Problems, "\n  "))
}

// summary is the one line that ends a plan.
func summary(list []*Plan, would bool) string {
	n := count(list)
	if n[Create]+n[Update]+n[Refused] == 0 {
		return fmt.Sprintf("No changes: %d resource(s) already as the documents say.", n[Unchanged])
	}
	format := "%d created, %d updated, %d unchanged"
	if would {
		format = "%d to create, %d to update, %d unchanged"
	}
	s := fmt.Sprintf(format, n[Create], n[Update], n[Unchanged])
	if n[Refused] > 0 {
		s += fmt.Sprintf(", %d refused", n[Refused])
	}
	return s + "."
}

// planExit is the end of diff and apply --dry-run: 1 when a document is
// refused, else with --exit-code 2 when something would change.
func planExit(opts *Options, list []*Plan) error {
	n := count(list)
	if n[Refused] > 0 {
		return cmdutil.ErrSilent
	}
	if opts.ExitCode && n[Create]+n[Update] > 0 {
		return &cmdutil.ExitCodeError{Code: 2}
	}
	return nil
}
