// Package version implements `omctl version`.
package version

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/build"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// Info is what `omctl version -o json` prints.
type Info struct {
	Version  string `json:"version"`
	Commit   string `json:"commit"`
	Built    string `json:"built"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

// Options are the inputs of `omctl version`.
type Options struct {
	cmdutil.Deps

	// Info is what is shown: the binary's own, stamped at build time.
	Info Info
}

// NewCmdVersion builds `omctl version`; runF replaces versionRun in tests.
func NewCmdVersion(f *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{Deps: cmdutil.NewDeps(f), Info: Info{Version: build.Version, Commit: build.Commit, Built: build.Date,
		Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}}
	if runF == nil {
		runF = versionRun
	}
	return &cobra.Command{
		Use:   "version",
		Short: "Show the version, commit, build date and Go version of omctl",
		Long: `Show the version, commit, build date and Go version of omctl; -o json prints
them as one JSON object. ` + "`omctl --version`" + ` prints the version alone.`,
		Example: "  omctl version\n  omctl version -o json --jq .commit",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runF(cmd.Context(), opts)
		},
	}
}

func versionRun(_ context.Context, opts *Options) error {
	r, err := opts.Resolve(cmdutil.NeedPrinter)
	if err != nil {
		return err
	}
	info := opts.Info
	if r.Printer.Format() == api.FormatTable {
		_, err := fmt.Fprintf(opts.IO.Out, "omctl %s\ncommit: %s\nbuilt: %s\ngo: %s %s\n",
			info.Version, info.Commit, info.Built, info.Go, info.Platform)
		return err
	}
	body, err := json.Marshal(info)
	if err != nil {
		return err
	}
	return r.Printer.Resource(body, output.TableDef{})
}
