package server

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// DumpOptions are the inputs of `omctl server dump`.
type DumpOptions struct {
	cmdutil.Deps
	// File is where the dump goes, "" or - for standard output.
	File string
	// Output is the raw -o, which was the file before it was a format as
	// for every other command: a value that is no format is old usage.
	Output string
}

// NewCmdDump builds `omctl server dump`.
func NewCmdDump(f *cmdutil.Factory, runF func(context.Context, *DumpOptions) error) *cobra.Command {
	opts := &DumpOptions{Deps: cmdutil.NewDeps(f)}
	// The dump is JSON (or YAML with -o yaml), never a table.
	opts.Printer = f.JSONPrinter
	cmd := &cobra.Command{
		Use:   "dump [--file FILE] [-o json|yaml]",
		Short: "Write a running server's current data as a fixture file",
		Long: `Write the data a running omctl server (the profile's) serves now as a fixture
file (GET /_omctl/fixtures): omctl server --fixtures FILE starts a server
that answers the same. With --state, this is how data moves between
versions of omctl.

--file FILE writes the file (mode 0600); without it the dump goes to
standard output, where --jq applies. -o is the format, as for every command:
json (the default) or yaml.

The file holds the server's secrets as they are (API keys' private keys,
webhook secrets, store credentials): it is written with mode 0600, and only
a GLOBAL_OWNER key may ask for it.`,
		Example: `  omctl server dump --file state.json
  omctl server dump --jq '.alerts | length'
  omctl server dump -o yaml --file state.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o := cmd.Flags().Lookup("output"); o != nil && o.Changed {
				opts.Output = o.Value.String()
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return dumpRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.File, "file", "", "file to write (mode 0600); standard output when not given")
	_ = cmd.MarkFlagFilename("file", "json", "yaml")
	return cmd
}

func dumpRun(ctx context.Context, opts *DumpOptions) error {
	if opts.Output != "" && !slices.Contains(api.OutputFormats, opts.Output) {
		// -o named the file before it was a format.
		file := opts.Output
		if file == "-" {
			return cmdutil.FlagErrorf("-o is the output format (json or yaml), as for every command, no longer the file: the dump goes to standard output when --file is not given")
		}
		return cmdutil.FlagErrorf("-o is the output format (json or yaml), as for every command, no longer the file: write the dump with --file %s", file)
	}
	if opts.File == "" {
		opts.File = "-"
	}
	printer, err := opts.Printer()
	if err != nil {
		return err
	}
	if printer.Format() == api.FormatJSONL {
		return cmdutil.FlagErrorf("-o jsonl does not apply here: the dump is one document; use -o json or -o yaml")
	}
	body, err := control(ctx, opts.Deps, api.DumpFixtures, nil)
	if err != nil {
		return err
	}
	if opts.File == "-" {
		return printer.Resource(body, output.TableDef{})
	}
	if printer.Format() == api.FormatYAML {
		if body, err = output.ToYAML(body); err != nil {
			return err
		}
	}
	if err := cmdutil.WriteSecretFile(opts.File, opts.IO.Out, func(w io.Writer) error {
		_, err := w.Write(body)
		return err
	}); err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "✓ Wrote the server's data to %s\n", opts.File)
	return nil
}
