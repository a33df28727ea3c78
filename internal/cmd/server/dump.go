package server

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// DumpOptions are the inputs of `omctl server dump`.
type DumpOptions struct {
	cmdutil.Deps
	File string
}

// NewCmdDump builds `omctl server dump`.
func NewCmdDump(f *cmdutil.Factory, runF func(context.Context, *DumpOptions) error) *cobra.Command {
	opts := &DumpOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:   "dump [-o FILE]",
		Short: "Write a running server's current data as a fixture file",
		Long: `Write the data a running omctl server (the profile's) serves now as a fixture
file (GET /_omctl/fixtures): omctl server --fixtures FILE starts a server
that answers the same. With --state, this is how data moves between
versions of omctl.

The file holds the server's secrets as they are (API keys' private keys,
webhook secrets, store credentials): it is written with mode 0600, and only
a GLOBAL_OWNER key may ask for it.`,
		Example: `  omctl server dump -o state.json
  omctl server dump -o - | jq '.alerts | length'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return dumpRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.File, "output", "o", "-", "file to write (mode 0600), - for standard output")
	return cmd
}

func dumpRun(ctx context.Context, opts *DumpOptions) error {
	if opts.File == "" {
		return fmt.Errorf("--output needs a file name, or - for standard output")
	}
	body, err := control(ctx, opts.Deps, api.DumpFixtures, nil)
	if err != nil {
		return err
	}
	if err := cmdutil.WriteSecretFile(opts.File, opts.IO.Out, func(w io.Writer) error {
		_, err := w.Write(body)
		return err
	}); err != nil {
		return err
	}
	if opts.File != "-" {
		fmt.Fprintf(opts.IO.ErrOut, "✓ Wrote the server's data to %s\n", opts.File)
	}
	return nil
}
