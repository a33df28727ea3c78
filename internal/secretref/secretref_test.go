package secretref

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func env(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
}

func TestResolveReplacesReferencesInSecretFieldsOnly(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "pd")
	if err := os.WriteFile(secret, []byte("pd-key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	in := map[string]any{"notifications": []any{
		map[string]any{"typeName": "WEBHOOK", "webhookUrl": "${env:HOOK}", "webhookSecret": "${file:" + secret + "}"},
		map[string]any{"typeName": "PAGER_DUTY", "serviceKey": "plain-value"},
	}, "tags": []any{"a"}}
	r := Resolver{Getenv: env(map[string]string{"HOOK": "https://h.example.com/x"})}.Resolve(in)
	if len(r.Problems) != 0 {
		t.Fatal(r.Problems)
	}
	n := r.Value.(map[string]any)["notifications"].([]any)
	if got := n[0].(map[string]any); got["webhookUrl"] != "https://h.example.com/x" || got["webhookSecret"] != "pd-key" {
		t.Errorf("resolved %v", got)
	}
	if n[1].(map[string]any)["serviceKey"] != "plain-value" {
		t.Error("a plain value changed")
	}
	want := map[string]Ref{"notifications[0].webhookUrl": {"env", "HOOK"}, "notifications[0].webhookSecret": {"file", secret}}
	if !reflect.DeepEqual(r.Refs, want) {
		t.Errorf("refs %v", r.Refs)
	}
	// The input is left as it was.
	if in["notifications"].([]any)[0].(map[string]any)["webhookUrl"] != "${env:HOOK}" {
		t.Error("Resolve changed its input")
	}
}

func TestResolveProblemsNameThePathAndNeverAValue(t *testing.T) {
	in := map[string]any{
		"a": map[string]any{"webhookSecret": "${env:UNSET}"},
		"b": map[string]any{"apiToken": "${file:/nonexistent/omctl-test}"},
		"c": map[string]any{"channelName": "${env:HOOK}"},
		"d": map[string]any{"webhookUrl": "https://x/${env:HOOK}"},
		"e": map[string]any{"serviceKey": "${env:bad-name}"},
		"f": map[string]any{"serviceKey": "${vault:x}"},
	}
	r := Resolver{Getenv: env(map[string]string{"HOOK": "the-real-secret"})}.Resolve(in)
	joined := strings.Join(r.Report(), "\n")
	for _, want := range []string{
		"the environment variable of 1 secret reference is not set:\n  UNSET  a.webhookSecret",
		"b.apiToken: ${file:/nonexistent/omctl-test}: cannot read the file: no such file",
		"c.channelName: references (${env:...}, ${file:...}) are read only in secret fields",
		"d.webhookUrl: a reference must be the whole value",
		`e.serviceKey: ${env:bad-name}: "bad-name" is not an environment variable name`,
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("problems lack %q:\n%s", want, joined)
		}
	}
	if strings.Contains(joined, "the-real-secret") {
		t.Error("a problem shows a secret")
	}
	if _, ok := Parse("${vault:x}"); ok {
		t.Error("${vault:x} parsed as a reference")
	}
}

// Variables that are not set, often every secret of an export at once,
// are listed one short line each after a count, not a long line each.
func TestUnsetVariablesAreListedCompactly(t *testing.T) {
	in := map[string]any{"notifications": []any{
		map[string]any{"typeName": "WEBHOOK", "webhookUrl": "${env:ALERTCONFIG_HOSTS_DOWN_NOTIFICATIONS_0_WEBHOOKURL}", "webhookSecret": "${env:ALERTCONFIG_HOSTS_DOWN_NOTIFICATIONS_0_WEBHOOKSECRET}"},
		map[string]any{"typeName": "SLACK", "apiToken": "${env:ALERTCONFIG_HOSTS_DOWN_NOTIFICATIONS_1_APITOKEN}"},
	}}
	report := Resolver{Getenv: env(nil)}.Resolve(in).Report()
	want := `the environment variables of 3 secret references are not set:
  ALERTCONFIG_HOSTS_DOWN_NOTIFICATIONS_0_WEBHOOKSECRET  notifications[0].webhookSecret
  ALERTCONFIG_HOSTS_DOWN_NOTIFICATIONS_0_WEBHOOKURL     notifications[0].webhookUrl
  ALERTCONFIG_HOSTS_DOWN_NOTIFICATIONS_1_APITOKEN       notifications[1].apiToken`
	if len(report) != 1 || report[0] != want {
		t.Errorf("report:\n%s\nwant:\n%s", strings.Join(report, "\n"), want)
	}
}

func TestFileReferenceLimits(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, MaxFileBytes+1), 0o600); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{big: "too large", empty: "the file is empty", dir: "directory"} {
		_, err := Resolver{}.Value(Ref{"file", path})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", path, err, want)
		}
	}
	if _, err := (Resolver{ReadFile: func(string) ([]byte, error) { return nil, errors.New("boom") }}).Value(Ref{"file", "/x"}); err == nil {
		t.Error("a read error was not reported")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"${env:A}", "${file:/run/secrets/x}", "${env:}", "${file:}", "${env:A}}", "x${env:A}", "${", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ref, ok := Parse(s)
		if ok && ref.String() != s {
			t.Errorf("Parse(%q) = %v, which prints as %q", s, ref, ref.String())
		}
		r := Resolver{Getenv: func(string) (string, bool) { return "v", true }, ReadFile: func(string) ([]byte, error) { return []byte("v"), nil }}
		_ = r.Resolve(map[string]any{"webhookSecret": s, "name": s})
	})
}
