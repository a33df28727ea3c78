package apply

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
)

// NewCmdApply builds `apply`.
func NewCmdApply(f *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	opts := newOptions(f)
	cmd := &cobra.Command{
		Use:   "apply -f FILE|DIR|- [--dry-run [--exit-code]]",
		Short: "Create or update resources from YAML or JSON documents",
		Long: `Make the server hold what YAML or JSON documents describe. Each document is
one resource in the API's own field names plus a kind: OplogStore,
SnapshotStore, BackupJobsConfig, AlertConfig, GlobalAlertConfig, BackupConfig
or AccessList. A file may hold several documents separated by ---; -f takes
files, directories (their .yaml, .yml and .json files, by name) and - for
standard input, and may be repeated.

Every document is checked first (unknown kind, unknown field, wrong type);
when any is invalid, the message names the file, the document and the field,
and nothing is sent. Then each resource is read: one that does not exist is
created where the API can create it, one that differs is updated, one that is
already as described is left alone, so a second run makes no write. A field a
document leaves out keeps the server's value. Fields the server manages
(links, created, updated, counters, ids it assigns) are ignored, so the answer
of a GET, with a kind added, is a valid document.

A secret the server shows redacted cannot be compared: it is never counted
as a change and never sent back redacted. What the API cannot do (remove an
access-list entry, change a global alert configuration other than enabling or
disabling it, create a backup configuration) is reported by name; that
document is not sent and apply exits 1.

Alert configurations are found by id, or by name: apply keeps the name in the
tag omctl:name=NAME. --dry-run prints the plan as diff does.
docs/apply.md describes every kind.`,
		Example: `  omctl apply -f storage.yaml
  omctl apply -f config/ --dry-run
  omctl export AlertConfig > alerts.yaml   # edit, then:
  omctl apply -f alerts.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.ExitCode && !opts.DryRun {
				return cmdutil.FlagErrorf("--exit-code goes with --dry-run (or use omctl diff --exit-code)")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return applyRun(cmd.Context(), opts)
		},
	}
	addFileFlag(cmd, opts)
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "print what would change, as diff does, and send no write")
	cmd.Flags().BoolVar(&opts.ExitCode, "exit-code", false, "with --dry-run: exit 2 when something would change, 0 when nothing would")
	return cmd
}

func applyRun(ctx context.Context, opts *Options) error {
	if opts.DryRun {
		return diffRun(ctx, opts)
	}
	list, c, err := plans(ctx, opts)
	if err != nil {
		return err
	}
	// All or nothing before the first write: one refused document and
	// nothing is sent.
	if n := count(list)[Refused]; n > 0 {
		for _, pl := range list {
			if pl.Action == Refused {
				reportRefused(opts.IO, pl)
			}
		}
		fmt.Fprintf(opts.IO.Out, "Nothing was sent: %d of %d document(s) cannot be applied.\n", n, len(list))
		return cmdutil.ErrSilent
	}
	for i, pl := range list {
		if pl.Action == Unchanged {
			fmt.Fprintf(opts.IO.Out, "unchanged %s\n", pl.Label)
			continue
		}
		said, err := pl.write(ctx, c)
		if err != nil {
			reportFailure(opts, list, i, err)
			return &cmdutil.ExitCodeError{Code: cmdutil.ExitCode(err)}
		}
		pl.done = true
		fmt.Fprintln(opts.IO.Out, said)
	}
	fmt.Fprintln(opts.IO.Out, summary(list, false))
	return nil
}

// reportFailure says, when the write of list[failed] failed, what was
// done and what was not, the summary line last.
func reportFailure(opts *Options, list []*Plan, failed int, err error) {
	pl := list[failed]
	fmt.Fprintf(opts.IO.ErrOut, "Error: %s (%s) was not applied: %s\n", pl.Label, pl.Doc.Source, err)
	var notSent []string
	for _, rest := range list[failed+1:] {
		if rest.Action != Unchanged {
			notSent = append(notSent, fmt.Sprintf("%s %s (%s)", rest.Action, rest.Label, rest.Doc.Source))
		}
	}
	if len(notSent) > 0 {
		fmt.Fprintf(opts.IO.ErrOut, "Not sent, after the failure:\n  %s\n", strings.Join(notSent, "\n  "))
	}
	n := map[Action]int{}
	for _, p := range list {
		if p.done || p.Action == Unchanged {
			n[p.Action]++
		}
	}
	fmt.Fprintf(opts.IO.Out, "Stopped at a failure: %d created, %d updated, %d unchanged, 1 failed, %d not sent.\n",
		n[Create], n[Update], n[Unchanged], len(notSent))
}
