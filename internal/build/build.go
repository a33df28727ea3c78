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
	if stamped() {
		return // nothing to fill, and parsing the build info costs every start
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return
	}
	fromBuildInfo(info)
}

// stamped says whether -ldflags stamped all there is to know, as a release
// build does.
func stamped() bool { return Version != "dev" && Commit != "none" && Date != "unknown" }

// fromBuildInfo fills what -ldflags did not stamp from what the Go
// toolchain records: the module version of `go install ...@version`, and
// the commit and its time of a build inside a git checkout (`go install
// ./cmd/omctl`, `go build`).
func fromBuildInfo(info *debug.BuildInfo) {
	if Version == "dev" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		Version = info.Main.Version
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if Commit == "none" && settings["vcs.revision"] != "" {
		Commit = settings["vcs.revision"]
		if len(Commit) > 12 {
			Commit = Commit[:12]
		}
		if settings["vcs.modified"] == "true" {
			Commit += "-dirty"
		}
	}
	if Date == "unknown" && settings["vcs.time"] != "" {
		Date = settings["vcs.time"]
	}
}
