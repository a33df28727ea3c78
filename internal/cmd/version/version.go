// Package version implements `omctl version`.
package version

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/build"
	"github.com/omctl/omctl/internal/cmdutil"
)

// NewCmdVersion builds `omctl version`.
func NewCmdVersion(f *cmdutil.Factory) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Show the version, commit, build date and Go version of omctl",
		Long:    "Show the version, commit, build date and Go version of omctl. `omctl --version` prints the version alone.",
		Example: "  omctl version",
		Args:    cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintf(f.IOStreams.Out, "omctl %s\ncommit: %s\nbuilt: %s\ngo: %s %s/%s\n",
				build.Version, build.Commit, build.Date, runtime.Version(), runtime.GOOS, runtime.GOARCH)
		},
	}
}
