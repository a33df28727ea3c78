package alertconfigs

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
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

func TestListFormats(t *testing.T) {
	cfg2 := strings.NewReplacer(configID, config2, `"enabled":true`, `"enabled":false`, `"HOST_DOWN"`, `"NO_PRIMARY"`).Replace(cfgJSON)
	for _, tt := range []struct {
		format string
		tty    bool
		want   func(string) bool
	}{
		{"table", false, func(s string) bool {
			return s == configID+"\tHOST_DOWN\ttrue\tEMAIL,SMS\t2026-11-01T00:00:00Z\n"+
				config2+"\tNO_PRIMARY\tfalse\tEMAIL,SMS\t2026-11-01T00:00:00Z\n"
		}},
		{"table", true, func(s string) bool {
			l := strings.Split(strings.TrimRight(s, "\n"), "\n")
			return len(l) == 3 && strings.HasPrefix(l[0], "ID") && strings.Contains(l[0], "NOTIFICATIONS") &&
				strings.HasPrefix(l[1], configID) && strings.HasPrefix(l[2], config2) && strings.Contains(l[2], "false")
		}},
		{"json", false, func(s string) bool {
			var v struct {
				Results    []map[string]any `json:"results"`
				TotalCount int              `json:"totalCount"`
			}
			return json.Unmarshal([]byte(s), &v) == nil && v.TotalCount == 2 && len(v.Results) == 2 &&
				v.Results[0]["id"] == configID && v.Results[1]["enabled"] == false
		}},
		{"jsonl", false, func(s string) bool {
			l := strings.Split(strings.TrimRight(s, "\n"), "\n")
			return len(l) == 2 && strings.HasPrefix(l[0], `{"`) && strings.Contains(l[0], configID) && strings.Contains(l[1], config2)
		}},
		{"yaml", false, func(s string) bool {
			return strings.Contains(s, "results:") && strings.Contains(s, "eventTypeName: NO_PRIMARY") && strings.Contains(s, "enabled: false")
		}},
	} {
		t.Run(tt.format, func(t *testing.T) {
			srv := stubapi.New(t)
			srv.Reply("GET", "/groups/"+project+"/alertConfigs", 200, `{"results":[`+cfgJSON+`,`+cfg2+`],"totalCount":2,"links":[]}`)
			ios, _, out, _ := iostreams.Test()
			ios.SetStdoutTTY(tt.tty)
			err := listRun(context.Background(), &ListOptions{Deps: srv.Deps(ios, tt.format, project), List: &cmdutil.ListFlags{Page: 2, Limit: 10}})
			if err != nil {
				t.Fatal(err)
			}
			req := srv.Only()
			if req.Method != "GET" || req.Query.Get("pageNum") != "2" || req.Query.Get("itemsPerPage") != "10" {
				t.Errorf("request = %s %v", req.Method, req.Query)
			}
			if !tt.want(out.String()) {
				t.Errorf("%s output = %q", tt.format, out.String())
			}
		})
	}
}

func TestListServerErrorsMapToExitCodes(t *testing.T) {
	for _, tt := range []struct {
		status int
		code   int
	}{
		{401, cmdutil.ExitAuth}, {403, cmdutil.ExitAuth}, {404, cmdutil.ExitNotFound}, {500, cmdutil.ExitError}, {400, cmdutil.ExitError},
	} {
		srv := stubapi.New(t)
		srv.Reply("GET", "/groups/"+project+"/alertConfigs", tt.status, `{"detail":"no","error":`+itoa(tt.status)+`,"errorCode":"SOME_ERROR","reason":"r"}`)
		ios, _, out, _ := iostreams.Test()
		err := listRun(context.Background(), &ListOptions{Deps: srv.Deps(ios, "json", project), List: &cmdutil.ListFlags{Page: 1, Limit: 100}})
		if err == nil || cmdutil.ExitCode(err) != tt.code || out.Len() != 0 {
			t.Errorf("%d: err = %v, exit %d want %d, stdout %q", tt.status, err, cmdutil.ExitCode(err), tt.code, out.String())
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestListRefusesBadPageBeforeSending(t *testing.T) {
	srv := stubapi.New(t)
	ios, _, _, _ := iostreams.Test()
	err := listRun(context.Background(), &ListOptions{Deps: srv.Deps(ios, "json", project), List: &cmdutil.ListFlags{Page: 1, Limit: 501}})
	var fe *cmdutil.FlagError
	if !errors.As(err, &fe) || len(srv.Requests()) != 0 {
		t.Errorf("err = %v (%T), %d requests", err, err, len(srv.Requests()))
	}
}
