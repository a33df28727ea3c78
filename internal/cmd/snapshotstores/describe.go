package snapshotstores

import (
	"context"
	"net/url"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmd/s3store"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// DescribeOptions are the inputs of `snapshotstores describe`.
type DescribeOptions struct {
	Client  func() (*client.Client, error)
	Printer func() (*output.Printer, error)

	StoreID string
}

// NewCmdDescribe builds `snapshotstores describe`.
func NewCmdDescribe(f *cmdutil.Factory, runF func(context.Context, *DescribeOptions) error) *cobra.Command {
	opts := &DescribeOptions{Client: f.Client, Printer: f.Printer}
	return &cobra.Command{
		Use:     "describe STORE_ID",
		Short:   "Show a snapshot store",
		Long:    "Show an S3-compatible snapshot store (GET /admin/backup/snapshot/s3Configs/{id}).",
		Example: "  omctl snapshotstores describe blockstore-1",
		Args:    cmdutil.ExactArgs(1, "STORE_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.StoreID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return describeRun(cmd.Context(), opts)
		},
	}
}

func describeRun(ctx context.Context, opts *DescribeOptions) error {
	if opts.StoreID == "" {
		return cmdutil.FlagErrorf("STORE_ID must not be empty")
	}
	printer, err := opts.Printer()
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	body, err := c.Get(ctx, basePath+"/"+url.PathEscape(opts.StoreID), nil)
	if err != nil {
		return err
	}
	return printer.Resource(body, s3store.Table)
}
