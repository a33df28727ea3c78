package apply

import (
	"context"
	"fmt"

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
	var done, interrupted, notStarted int
	for _, pl := range list {
		switch pl.Action {
		case Refused:
			reportRefused(opts.IO, pl)
		case Unchanged:
			fmt.Fprintf(opts.IO.Out, "unchanged %s\n", pl.Label)
		default:
			// Once interrupted, no write starts; the rest are listed as
			// not started so that the user knows what to apply again.
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
				return fmt.Errorf("%s (%s): %w", pl.Label, pl.Doc.Source, err)
			}
			fmt.Fprintln(opts.IO.Out, said)
			done++
		}
	}
	if interrupted+notStarted > 0 {
		fmt.Fprintf(opts.IO.ErrOut, "Interrupted: %d written, %d interrupted in flight (may or may not have been applied), %d not started.\n", done, interrupted, notStarted)
		return cmdutil.StopCause(ctx)
	}
	fmt.Fprintln(opts.IO.Out, summary(list, false))
	if count(list)[Refused] > 0 {
		return cmdutil.ErrSilent
	}
	return nil
}
