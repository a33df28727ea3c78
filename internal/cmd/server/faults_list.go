package server

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// FaultsListOptions are the inputs of `server faults list`.
type FaultsListOptions struct {
	cmdutil.Deps
	List *cmdutil.ListFlags
}

// NewCmdFaultsList builds `server faults list`.
func NewCmdFaultsList(f *cmdutil.Factory, runF func(context.Context, *FaultsListOptions) error) *cobra.Command {
	opts := &FaultsListOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the faults of a running omctl server",
		Long: `List the faults of a running omctl server, in the order they were added,
with the requests each has left (GET /_omctl/faults).`,
		Example: `  omctl server faults list
  omctl server faults list -o json --jq '.results[].id'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return faultsListRun(cmd.Context(), opts)
		},
	}
	opts.List = cmdutil.AddListFlags(cmd, false)
	return cmd
}

func faultsListRun(ctx context.Context, opts *FaultsListOptions) error {
	lo, err := opts.List.ListOptions()
	if err != nil {
		return err
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	printer, c := r.Printer, r.Client
	return notOmctlServer(api.ListFaults, printer.List(c.Pages(ctx, api.ListFaults.Path(), lo), opts.List.Part(), FaultTable))
}
