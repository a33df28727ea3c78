package s3store

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/rules"
)

// DescribeOptions are the inputs of `oplogstores describe` and
// `snapshotstores describe`.
type DescribeOptions struct {
	cmdutil.Deps

	// Endpoint reads one store of Kind.
	Endpoint api.Endpoint
	Kind     rules.StoreKind
	StoreID  string
}

// NewCmdDescribe builds the describe command of one kind of store, which
// calls endpoint e.
func NewCmdDescribe(f *cmdutil.Factory, e api.Endpoint, kind rules.StoreKind, long, example string, runF func(context.Context, *DescribeOptions) error) *cobra.Command {
	opts := &DescribeOptions{Deps: cmdutil.NewDeps(f), Endpoint: e, Kind: kind}
	return &cobra.Command{
		Use:     "describe STORE_ID",
		Short:   "Show a store",
		Long:    long,
		Example: example,
		Args:    cmdutil.ExactArgs(1, "STORE_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.StoreID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return DescribeRun(cmd.Context(), opts)
		},
	}
}

// DescribeRun fetches and prints one store.
func DescribeRun(ctx context.Context, opts *DescribeOptions) error {
	if opts.StoreID == "" {
		return cmdutil.FlagErrorf("STORE_ID must not be empty")
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	printer, c := r.Printer, r.Client
	body, err := c.Get(ctx, opts.Endpoint.Path(opts.StoreID), nil)
	if err != nil {
		return err
	}
	return printer.Describe(body, TableFor(opts.Kind), Detail.Of("id", opts.StoreID))
}
