// Package version implements `omctl version`.
package version

import (
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

// NewCmdVersion builds `omctl version`.
func NewCmdVersion(f *cmdutil.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Show the version, commit, build date and Go version of omctl",
		Long: `Show the version, commit, build date and Go version of omctl; -o json prints
them as one JSON object. ` + "`omctl --version`" + ` prints the version alone.`,
		Example: "  omctl version\n  omctl version -o json --jq .commit",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			info := Info{Version: build.Version, Commit: build.Commit, Built: build.Date,
				Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
			printer, err := f.Printer()
			if err != nil {
				return err
			}
			if printer.Format() == api.FormatTable {
				_, err := fmt.Fprintf(f.IOStreams.Out, "omctl %s\ncommit: %s\nbuilt: %s\ngo: %s %s\n",
					info.Version, info.Commit, info.Built, info.Go, info.Platform)
				return err
			}
			body, err := json.Marshal(info)
			if err != nil {
				return err
			}
			return printer.Resource(body, output.TableDef{})
		},
	}
}
