package model

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A fixture file with a JSON mistake says where it is, by line and column.
func TestFixtureJSONErrorsGiveLineAndColumn(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"truncated", "{\"orgs\": [\n  {\"id\": \"6a1a00000000000000000001\"},\n  {\"id\": ", "line 3, column 10: the JSON ends early"},
		{"bad token", "{\"orgs\": [\n  {\"id\": 'x'}\n]}", "line 2, column 10: invalid character '\\'' looking for beginning of value"},
		{"truncated alerts", "{\"alerts\": [\n {\"id\": \"6a1a0000000000000000a001\",", "line 2, column 36: the JSON ends early"},
		{"bad alerts", "{\"alerts\": [\n {\"id\": x}]}", "line 2, column 9: invalid character 'x'"},
	} {
		path := filepath.Join(t.TempDir(), "fx.json")
		if err := os.WriteFile(path, []byte(tc.data), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := LoadFixtures(path)
		if err == nil || !strings.Contains(err.Error(), path+", "+tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
		if _, err := ParseFixtures("fx.json", []byte(tc.data)); err == nil || !strings.Contains(err.Error(), "fx.json, "+tc.want) {
			t.Errorf("%s (parsed): %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := ParseFixtures("fx.json", []byte(`[1]`)); err == nil || !strings.Contains(err.Error(), "not a JSON object of arrays") {
		t.Errorf("an array: %v", err)
	}
}
