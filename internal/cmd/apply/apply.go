package apply

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/client"
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
files, directories (their .yaml, .yml and .json files) and - for standard
input, and may be repeated.

apply is all or nothing before its first write. Every document is checked
first with the rules the server checks requests with (unknown kind, unknown
field, wrong type, a value the API refuses), and its secret references are
resolved; then each resource is read and the request it needs is checked
again, merged with what the server has. If any document cannot be applied,
nothing is written: every problem of every document is listed at once,
naming the file, the document and the field, and apply exits 1. The writes
are made in dependency order, not file order: stores, then backup jobs
configurations (which name stores), backup configurations, alert
configurations, access lists. A write that fails stops the run, which says
what was done and what was not; the summary line comes last. A write whose
connection is lost after it was sent is said to be unknown (it may or may
not have been applied) and counted apart from failures.

A resource that does not exist is created where the API can create it, one
that differs is updated, one already as described is left alone, so a second
run makes no write. A field a document leaves out keeps the server's value.
Fields the server manages (links, created, updated, counters, ids it assigns)
are ignored, so the answer of a GET, with a kind added, is a valid document.

Secrets (webhook secrets and URLs, integration keys, store keys) can be given
as references, ${env:NAME} or ${file:PATH}, read when apply runs; an unset
variable or unreadable file is an error before anything is sent. The server
shows secrets redacted: a redacted secret is never counted as a change and
never sent; a document that changes a resource and still holds one is
refused. omctl export --secret-refs writes documents with references.

What the API cannot do (remove an access-list entry, change a global alert
configuration other than enabling or disabling it, create a backup
configuration) is reported by name, and nothing is sent.

Alert configurations are found by id, or by name: apply keeps the name in the
tag omctl:name=NAME. --dry-run prints the plan as diff does.
docs/apply.md describes every kind, and omctl help exit-codes the exit codes.`,
		Example: `  omctl apply -f storage.yaml
  omctl apply -f config/ --dry-run
  omctl export AlertConfig --secret-refs > alerts.yaml   # edit, set the variables, then:
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
	var done, interrupted, notStarted int
	for i, pl := range list {
		if pl.Action == Unchanged {
			fmt.Fprintf(opts.IO.Out, "unchanged %s\n", pl.Label)
			continue
		}
		// Once interrupted, no write starts; the rest are listed as not
		// started so that the user knows what to apply again.
		if ctx.Err() != nil {
			fmt.Fprintf(opts.IO.Out, "not started %s\n", pl.Label)
			notStarted++
			continue
		}
		said, err := pl.write(ctx, c)
		if err != nil && ctx.Err() != nil {
			fmt.Fprintf(opts.IO.Out, "interrupted %s (it may or may not have been applied; omctl diff says)\n", pl.Label)
			interrupted++
			continue
		}
		if err != nil {
			reportFailure(opts, list, i, err)
			return &cmdutil.ExitCodeError{Code: cmdutil.ExitCode(err)}
		}
		pl.done = true
		done++
		fmt.Fprintln(opts.IO.Out, said)
	}
	if interrupted+notStarted > 0 {
		how := "Interrupted"
		if !cmdutil.Interrupted(ctx) {
			how = "Stopped by --timeout"
		}
		fmt.Fprintf(opts.IO.ErrOut, "%s: %d written, %d interrupted in flight (may or may not have been applied), %d not started.\n", how, done, interrupted, notStarted)
		return cmdutil.StopCause(ctx)
	}
	fmt.Fprintln(opts.IO.Out, summary(list, false))
	return nil
}

// reportFailure says, when the write of list[failed] failed, what was
// done and what was not, the summary line last. A write whose connection
// was lost after it was sent is neither done nor failed: it is said once
// to be unknown, and counted apart.
func reportFailure(opts *Options, list []*Plan, failed int, err error) {
	pl := list[failed]
	unknown := errors.Is(err, client.ErrOutcomeUnknown)
	if unknown {
		fmt.Fprintf(opts.IO.ErrOut, "Error: %s (%s): unknown whether it was applied: %s; omctl diff -f %s shows whether it was\n",
			pl.Label, pl.Doc.Source, lostRequest(err), strings.Join(opts.Files, " -f "))
	} else {
		fmt.Fprintf(opts.IO.ErrOut, "Error: %s (%s) was not applied: %s\n", pl.Label, pl.Doc.Source, err)
	}
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
	at, outcome := "a failure", "1 failed"
	if unknown {
		at, outcome = "a lost connection", "1 unknown"
	}
	fmt.Fprintf(opts.IO.Out, "Stopped at %s: %d created, %d updated, %d unchanged, %s, %d not sent.\n",
		at, n[Create], n[Update], n[Unchanged], outcome, len(notSent))
}

// lostRequest says which request lost its connection ("the connection was
// lost before POST https://… answered"), from the client's error, whose
// own words say the rest.
func lostRequest(err error) string {
	request, _, _ := strings.Cut(err.Error(), ": ")
	return "the connection was lost before " + request + " answered"
}
