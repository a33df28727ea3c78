package alertconfigs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const (
	project  = "5e2b0c2e8f9d4b0012345678"
	configID = "5f2a0c2e8f9d4b0012345678"
	cfgJSON  = `{"id":"5f2a0c2e8f9d4b0012345678","groupId":"5e2b0c2e8f9d4b0012345678","eventTypeName":"HOST_DOWN","enabled":true,"notifications":[{"typeName":"EMAIL","emailAddress":"a@example.com","delayMin":0,"intervalMin":5},{"typeName":"SMS","mobileNumber":"+15555550100"}],"updated":"2026-11-01T00:00:00Z"}`
)

func TestListPrintsNotificationKinds(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alertConfigs", 200, `{"results":[`+cfgJSON+`],"totalCount":1,"links":[]}`)
	ios, _, out, _ := iostreams.Test()
	err := listRun(context.Background(), &ListOptions{Deps: srv.Deps(ios, "table", project), List: &cmdutil.ListFlags{Page: 1, Limit: 100}})
	if err != nil {
		t.Fatal(err)
	}
	if want := configID + "\tHOST_DOWN\ttrue\tEMAIL,SMS\t2026-11-01T00:00:00Z\n"; out.String() != want {
		t.Errorf("output = %q, want %q", out.String(), want)
	}
}

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

func TestEnableAndDisablePatchOnlyEnabled(t *testing.T) {
	for _, enabled := range []bool{true, false} {
		srv := stubapi.New(t)
		srv.Reply("PATCH", "/groups/"+project+"/alertConfigs/"+configID, 200, strings.Replace(cfgJSON, `"enabled":true`, fmt.Sprintf(`"enabled":%v`, enabled), 1))
		ios, _, _, _ := iostreams.Test()
		err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: srv.Deps(ios, "json", project), ConfigID: configID, Enabled: enabled})
		if err != nil {
			t.Fatal(err)
		}
		body := srv.Only().JSON(t)
		if len(body) != 1 || body["enabled"] != enabled {
			t.Errorf("enabled=%v: body = %v", enabled, body)
		}
	}
}
