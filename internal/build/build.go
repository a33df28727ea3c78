// Package build carries the version stamped in by the release build.
package build

import "runtime/debug"

// Set by -ldflags "-X github.com/omctl/omctl/internal/build.Version=..." in releases.
var (
	Version = "dev"
	Commit  = "none"
	Date    = "unknown"
)

func init() {
	// `go install ./cmd/omctl@version` has no ldflags but does know its module version.
	if Version != "dev" {
		return
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		Version = info.Main.Version
	}
}
