package api

import (
	"regexp"
	"testing"
)

// shape is what IsEventTypeName checks, as a regular expression.
var shape = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)

func FuzzIsEventTypeName(f *testing.F) {
	for _, s := range []string{"", "HOST_DOWN", "H", "_HOST", "1HOST", "HOST_DOWN\n", "host_down", "HOST-DOWN", "HOST DOWN", "ÉVENT", "A1_", "Z", "@", "[", "HOST_DOWn"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := IsEventTypeName(s), shape.MatchString(s); got != want {
			t.Errorf("IsEventTypeName(%q) = %v, the shape says %v", s, got, want)
		}
	})
}
