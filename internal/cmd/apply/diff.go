package apply

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
)

// NewCmdDiff builds `diff`.
func NewCmdDiff(f *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	opts := newOptions(f)
	cmd := &cobra.Command{
		Use:   "diff -f FILE|DIR|- [--exit-code]",
		Short: "Show what apply would change",
		Long: `Compare the documents of apply with what the server has, sending only reads,
and print each resource that would change as a unified diff (the server's
resource against the documents'), coloured on a terminal. Fields the server
manages are left out; secrets are shown masked, and a secret the server shows
redacted is never counted as a change. A document that cannot be applied is
reported on stderr with its reasons, and the exit code is 1.

Each change is shown with 3 lines of context, not the whole resource.

--exit-code exits 0 when nothing would change, 2 when something would, and
1 on any error (a refused document, a bad file or flag, a server error), as
terraform plan -detailed-exitcode does, so a CI job can tell the three apart.
Without it, diff exits 0 whether or not something would change, 1 on a
refused document, and an error's own code otherwise (omctl help exit-codes).
docs/apply.md describes the documents.`,
		Example: `  omctl diff -f storage.yaml
  omctl diff -f config/ --exit-code || echo "the server drifted from git"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.DryRun = true
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return diffRun(cmd.Context(), opts)
		},
	}
	addFileFlag(cmd, opts)
	cmd.Flags().BoolVar(&opts.ExitCode, "exit-code", false, "exit 2 when something would change, 0 when nothing would")
	return cmd
}

func diffRun(ctx context.Context, opts *Options) error {
	err := diffPlan(ctx, opts)
	if !opts.ExitCode || err == nil || errors.Is(err, cmdutil.ErrSilent) || ctx.Err() != nil {
		return err
	}
	var code *cmdutil.ExitCodeError
	if errors.As(err, &code) {
		return err
	}
	// With --exit-code, 2 means "changes" and nothing else: every error,
	// a usage error or a 404 included, exits 1 (omctl help exit-codes).
	fmt.Fprintf(opts.IO.ErrOut, "Error: %v\n", err)
	return &cmdutil.ExitCodeError{Code: cmdutil.ExitError}
}

func diffPlan(ctx context.Context, opts *Options) error {
	list, _, err := plans(ctx, opts)
	if err != nil {
		return err
	}
	showPlan(opts, list)
	fmt.Fprintln(opts.IO.ErrOut, summary(list, true))
	return planExit(opts, list)
}
