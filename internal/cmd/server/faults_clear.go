package server

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// FaultsClearOptions are the inputs of `server faults clear`.
type FaultsClearOptions struct {
	cmdutil.Deps
	IDs []string
}

// NewCmdFaultsClear builds `server faults clear`.
func NewCmdFaultsClear(f *cmdutil.Factory, runF func(context.Context, *FaultsClearOptions) error) *cobra.Command {
	opts := &FaultsClearOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "clear [ID...]",
		Short: "Remove faults from a running omctl server",
		Long: `Remove the faults with the given ids (DELETE /_omctl/faults/{id}), or every
fault when no id is given (DELETE /_omctl/faults). An unknown id is an
error (exit code 3).`,
		Example: `  omctl server faults clear
  omctl server faults clear 6a1f0c2e8f9d4b0000000001`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.IDs = args
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return faultsClearRun(cmd.Context(), opts)
		},
	}
	return cmd
}

func faultsClearRun(ctx context.Context, opts *FaultsClearOptions) error {
	printer, err := opts.Printer()
	if err != nil {
		return err
	}
	if len(opts.IDs) == 0 {
		body, err := control(ctx, opts.Deps, api.ClearFaults, nil)
		if err != nil {
			return err
		}
		return confirmCleared(opts.IO, printer, body, "Every fault removed")
	}
	for _, id := range opts.IDs {
		body, err := control(ctx, opts.Deps, api.RemoveFault, nil, id)
		if err != nil {
			return err
		}
		if err := confirmCleared(opts.IO, printer, body, fmt.Sprintf("Fault %s removed", id)); err != nil {
			return err
		}
	}
	return nil
}
