package iostreams

import "testing"

func TestColourFollowsTheEnvironment(t *testing.T) {
	for _, tc := range []struct {
		noColor, clicolor, force string
		want                     bool
	}{
		{"", "", "", false}, // tests run piped: no colour
		{"", "", "1", true},
		{"", "", "0", false},
		{"1", "", "1", false},
		{"", "0", "1", false},
	} {
		t.Setenv("NO_COLOR", tc.noColor)
		t.Setenv("CLICOLOR", tc.clicolor)
		t.Setenv("CLICOLOR_FORCE", tc.force)
		t.Setenv("TERM", "xterm")
		if got := System().ColorEnabled(); got != tc.want {
			t.Errorf("NO_COLOR=%q CLICOLOR=%q CLICOLOR_FORCE=%q: colour %v, want %v", tc.noColor, tc.clicolor, tc.force, got, tc.want)
		}
	}
}
