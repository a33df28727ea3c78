package s3store

import (
	"context"
	"net/url"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/rules"
)

// ListOptions are the inputs of `oplogstores list` and `snapshotstores list`.
type ListOptions struct {
	cmdutil.Deps

	// Endpoint lists the stores of Kind.
	Endpoint api.Endpoint
	Kind     rules.StoreKind
	// AssignableOnly is nil unless given: the server's default (true)
	// leaves out the stores whose assignment is disabled.
	AssignableOnly *bool
	List           *cmdutil.ListFlags
}

// NewCmdList builds the list command of one kind of store, which calls
// endpoint e.
func NewCmdList(f *cmdutil.Factory, e api.Endpoint, kind rules.StoreKind, long, example string, runF func(context.Context, *ListOptions) error) *cobra.Command {
	opts := &ListOptions{Deps: cmdutil.NewDeps(f), Endpoint: e, Kind: kind}
	cmd := &cobra.Command{
		Use:     "list [--assignable-only=false]",
		Short:   "List the stores",
		Long:    long,
		Example: example,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return ListRun(cmd.Context(), opts)
		},
	}
	cmdutil.OptionalBoolVar(cmd.Flags(), &opts.AssignableOnly, "assignable-only",
		"only the stores new backups may be assigned to; =false lists every store (server default: true)")
	opts.List = cmdutil.AddListFlags(cmd, true)
	return cmd
}

// ListRun fetches and prints the stores.
func ListRun(ctx context.Context, opts *ListOptions) error {
	var q url.Values
	if opts.AssignableOnly != nil {
		q = url.Values{"assignableOnly": {strconv.FormatBool(*opts.AssignableOnly)}}
	}
	return cmdutil.PrintList(ctx, opts.Deps, 0, opts.List, q,
		func(cmdutil.Resolved) string { return opts.Endpoint.Path() }, TableFor(opts.Kind))
}
