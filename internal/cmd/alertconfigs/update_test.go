package alertconfigs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestUpdateSendsFileAsIsAndWarnsWithoutEnabled(t *testing.T) {
	doc := `{"eventTypeName":"HOST_DOWN","notifications":[{"typeName":"EMAIL","emailAddress":"a@example.com"}],"custom":1}`
	cases := []struct {
		name     string
		doc      string
		wantWarn bool
	}{
		{"without enabled", doc, true},
		{"with enabled", strings.Replace(doc, `{"event`, `{"enabled":true,"event`, 1), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := stubapi.New(t)
			srv.Reply("PUT", "/groups/"+project+"/alertConfigs/"+configID, 200, cfgJSON)
			ios, stdin, _, stderr := iostreams.Test()
			stdin.WriteString(tc.doc)
			err := updateRun(context.Background(), &UpdateOptions{Deps: srv.Deps(ios, "json", project), ConfigID: configID, File: "-"})
			if err != nil {
				t.Fatal(err)
			}
			req := srv.Only()
			if req.Method != "PUT" || string(req.Body) != tc.doc {
				t.Errorf("sent %s %s", req.Method, req.Body)
			}
			if got := strings.Contains(stderr.String(), `no "enabled" field`); got != tc.wantWarn {
				t.Errorf("warning shown = %v, stderr %q", got, stderr.String())
			}
		})
	}
}

func TestUpdateRequiresEventTypeAndNotifications(t *testing.T) {
	dir := t.TempDir()
	for name, doc := range map[string]string{
		"eventTypeName":  `{"enabled":true,"notifications":[]}`,
		"notifications":  `{"enabled":true,"eventTypeName":"HOST_DOWN"}`,
		"not valid JSON": `{"enabled":`,
		"a JSON object":  `[1,2]`,
	} {
		path := filepath.Join(dir, "cfg.json")
		os.WriteFile(path, []byte(doc), 0o600)
		srv := stubapi.New(t)
		ios, _, _, _ := iostreams.Test()
		err := updateRun(context.Background(), &UpdateOptions{Deps: srv.Deps(ios, "json", project), ConfigID: configID, File: path})
		if err == nil || !strings.Contains(err.Error(), name) || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%s: err = %v", name, err)
		}
		if len(srv.Requests()) != 0 {
			t.Errorf("%s: request sent", name)
		}
	}
}

func TestUpdateConfirmsPerFormat(t *testing.T) {
	doc := `{"enabled":true,"eventTypeName":"HOST_DOWN","notifications":[{"typeName":"EMAIL","emailAddress":"a@example.com"}]}`
	for _, tt := range []struct {
		format string
		tty    bool
		want   string
	}{
		// On a terminal, colour is on unless turned off: the mark is green.
		{"table", true, "\x1b[32m✓\x1b[0m Alert configuration " + configID + " replaced\n"},
		{"table", false, configID + "\tHOST_DOWN\ttrue\tEMAIL,SMS\t2026-11-01T00:00:00Z\n"},
		{"json", false, cfgJSON + "\n"},
	} {
		t.Run(tt.format, func(t *testing.T) {
			srv := stubapi.New(t)
			srv.Reply("PUT", "/groups/"+project+"/alertConfigs/"+configID, 200, cfgJSON)
			ios, stdin, out, _ := iostreams.Test()
			ios.SetStdoutTTY(tt.tty)
			stdin.WriteString(doc)
			err := updateRun(context.Background(), &UpdateOptions{Deps: srv.Deps(ios, tt.format, project), ConfigID: configID, File: "-"})
			if err != nil {
				t.Fatal(err)
			}
			if req := srv.Only(); req.Method != "PUT" || string(req.Body) != doc || len(req.Query) != 0 {
				t.Errorf("sent %s %v %s", req.Method, req.Query, req.Body)
			}
			if out.String() != tt.want {
				t.Errorf("output = %q, want %q", out.String(), tt.want)
			}
		})
	}
}

func TestUpdateUnknownConfigIsNotFound(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("PUT", "/groups/"+project+"/alertConfigs/"+configID, 404,
		`{"detail":"No alert configuration with ID 5f2a0c2e8f9d4b0012345678 exists in group 5e2b0c2e8f9d4b0012345678.","error":404,"errorCode":"ALERT_CONFIG_NOT_FOUND","reason":"Not Found"}`)
	ios, stdin, out, _ := iostreams.Test()
	stdin.WriteString(`{"enabled":true,"eventTypeName":"HOST_DOWN","notifications":[]}`)
	err := updateRun(context.Background(), &UpdateOptions{Deps: srv.Deps(ios, "json", project), ConfigID: configID, File: "-"})
	if cmdutil.ExitCode(err) != cmdutil.ExitNotFound || !strings.Contains(err.Error(), "ALERT_CONFIG_NOT_FOUND") || out.Len() != 0 {
		t.Errorf("err = %v, exit %d, stdout %q", err, cmdutil.ExitCode(err), out.String())
	}
}

func TestUpdateRejectsMalformedIDBeforeReading(t *testing.T) {
	srv := stubapi.New(t)
	ios, _, _, _ := iostreams.Test()
	err := updateRun(context.Background(), &UpdateOptions{Deps: srv.Deps(ios, "json", project), ConfigID: "abc", File: "/does/not/exist"})
	if err == nil || !strings.Contains(err.Error(), "24 hexadecimal digits") || len(srv.Requests()) != 0 {
		t.Errorf("err = %v", err)
	}
}
