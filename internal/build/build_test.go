package build

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfoFillsWhatLdflagsDidNot(t *testing.T) {
	Version, Commit, Date = "dev", "none", "unknown"
	t.Cleanup(func() { Version, Commit, Date = "dev", "none", "unknown" })
	fromBuildInfo(&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "5f18af4c0ffee0123456789abcdef0123456789a"},
		{Key: "vcs.time", Value: "2026-11-23T18:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}})
	if Version != "dev" || Commit != "5f18af4c0ffe-dirty" || Date != "2026-11-23T18:00:00Z" {
		t.Errorf("version %q commit %q date %q", Version, Commit, Date)
	}
}

func TestStampedValuesWin(t *testing.T) {
	Version, Commit, Date = "v1.2.0", "abc1234", "2026-01-01T00:00:00Z"
	t.Cleanup(func() { Version, Commit, Date = "dev", "none", "unknown" })
	fromBuildInfo(&debug.BuildInfo{Main: debug.Module{Version: "v9.9.9"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "5f18af4c0ffee0123456789abcdef0123456789a"},
		{Key: "vcs.time", Value: "2026-11-23T18:00:00Z"},
	}})
	if Version != "v1.2.0" || Commit != "abc1234" || Date != "2026-01-01T00:00:00Z" {
		t.Errorf("version %q commit %q date %q", Version, Commit, Date)
	}
}

func TestStampedSaysWhenTheBuildInfoHasNothingToAdd(t *testing.T) {
	t.Cleanup(func() { Version, Commit, Date = "dev", "none", "unknown" })
	for _, c := range []struct {
		version, commit, date string
		stamped               bool
	}{
		{"v1.2.0", "abc1234", "2026-01-01T00:00:00Z", true},
		{"dev", "abc1234", "2026-01-01T00:00:00Z", false},
		{"v1.2.0", "none", "2026-01-01T00:00:00Z", false},
		{"v1.2.0", "abc1234", "unknown", false},
	} {
		Version, Commit, Date = c.version, c.commit, c.date
		if stamped() != c.stamped {
			t.Errorf("%s %s %s: stamped() = %v", c.version, c.commit, c.date, !c.stamped)
		}
	}
}
