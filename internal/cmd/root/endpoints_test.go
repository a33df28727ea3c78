package root

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/api"
)

// TestEveryEndpointHasACommand: a newcomer greps an endpoint's name
// (AckAlert) and finds the command that calls it, so every endpoint of
// internal/api, and every test control, is named by the command code
// that sends it, not reached through another endpoint's path
// (docs/api.md).
func TestEveryEndpointHasACommand(t *testing.T) {
	var src strings.Builder
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		b, err := os.ReadFile(path)
		src.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range append(slices.Clone(api.Endpoints), api.Controls...) {
		if e == api.GetHealth {
			continue // no command: a script waiting for the server polls it
		}
		if e == api.GetUI || e == api.StreamEvents {
			continue // no command: a browser opens the page, and follows the stream as curl -N does
		}
		if !regexp.MustCompile(`\bapi\.` + e.Name + `\b`).MatchString(src.String()) {
			t.Errorf("no command names api.%s (%s %s)", e.Name, e.Method, e.Pattern)
		}
	}
}
