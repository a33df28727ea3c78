package alertconfigs

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/prompt"
	"github.com/omctl/omctl/internal/testutil/prompttest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestNewCmdCreateDescribeDelete(t *testing.T) {
	for _, tt := range []struct {
		name    string
		args    []string
		wantErr string
		check   func(any) bool
	}{
		{"create", []string{"--file", "cfg.json"}, "", func(o any) bool { return o.(*CreateOptions).File == "cfg.json" }},
		{"create", []string{"-f", "-"}, "", func(o any) bool { return o.(*CreateOptions).File == "-" }},
		{"create", []string{}, `required flag(s) "file" not set`, nil},
		{"create", []string{"--file", "a", "extra"}, "unknown command", nil},
		{"describe", []string{configID}, "", func(o any) bool { return o.(*DescribeOptions).ConfigID == configID }},
		{"describe", []string{}, "ALERT_CONFIG_ID", nil},
		{"delete", []string{configID}, "", func(o any) bool { d := o.(*DeleteOptions); return d.ConfigID == configID && !d.Yes }},
		{"delete", []string{configID, "--yes"}, "", func(o any) bool { return o.(*DeleteOptions).Yes }},
		{"delete", []string{"-y", configID}, "", func(o any) bool { return o.(*DeleteOptions).Yes }},
		{"delete", []string{configID, configID}, "ALERT_CONFIG_ID", nil},
	} {
		ios, _, _, _ := iostreams.Test()
		f := &cmdutil.Factory{IOStreams: ios}
		var got any
		var cmd interface {
			SetArgs([]string)
			Execute() error
		}
		switch tt.name {
		case "create":
			c := NewCmdCreate(f, func(_ context.Context, o *CreateOptions) error { got = o; return nil })
			c.SetOut(ios.ErrOut)
			c.SetErr(ios.ErrOut)
			cmd = c
		case "describe":
			c := NewCmdDescribe(f, func(_ context.Context, o *DescribeOptions) error { got = o; return nil })
			c.SetOut(ios.ErrOut)
			c.SetErr(ios.ErrOut)
			cmd = c
		case "delete":
			c := NewCmdDelete(f, func(_ context.Context, o *DeleteOptions) error { got = o; return nil })
			c.SetOut(ios.ErrOut)
			c.SetErr(ios.ErrOut)
			cmd = c
		}
		cmd.SetArgs(tt.args)
		err := cmd.Execute()
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s %v: error %v, want %q", tt.name, tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got == nil || !tt.check(got) {
			t.Errorf("%s %v: %v %+v", tt.name, tt.args, err, got)
		}
	}
}

func TestCreatePostsTheFileAsIs(t *testing.T) {
	doc := `{"groupId":"` + project + `","eventTypeName":"HOST_DOWN","enabled":true,"notifications":[{"typeName":"EMAIL","emailAddress":"a@example.com"}],"custom":1}`
	srv := stubapi.New(t)
	srv.Reply("POST", "/groups/"+project+"/alertConfigs", 200, cfgJSON)
	ios, stdin, out, _ := iostreams.Test()
	stdin.WriteString(doc)
	err := createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, "json", project), File: "-"})
	if err != nil {
		t.Fatal(err)
	}
	req := srv.Only()
	if req.Method != "POST" || string(req.Body) != doc {
		t.Errorf("sent %s %s", req.Method, req.Body)
	}
	if out.String() != cfgJSON+"\n" {
		t.Errorf("-o json output = %q, want the server's answer", out.String())
	}
}

func TestCreateTablePipedPrintsTheNewRow(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("POST", "/groups/"+project+"/alertConfigs", 200, cfgJSON)
	ios, stdin, out, stderr := iostreams.Test()
	stdin.WriteString(`{"eventTypeName":"HOST_DOWN","notifications":[]}`)
	err := createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, "table", project), File: "-"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), configID+"\tHOST_DOWN\ttrue\t") {
		t.Errorf("output = %q", out.String())
	}
	if !strings.Contains(stderr.String(), `no "enabled" field`) {
		t.Errorf("no warning about enabled: %q", stderr.String())
	}
}

func TestCreateRefusesWhatTheServerWould(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`{"id":"` + configID + `","eventTypeName":"HOST_DOWN","notifications":[]}`, `remove "id"`},
		{`{"groupId":"5e2b0c2e8f9d4b00123456ff","eventTypeName":"HOST_DOWN","notifications":[]}`, "is not the project " + project},
		{`{"groupId":5,"eventTypeName":"HOST_DOWN","notifications":[]}`, "groupId: got a number, want a string"},
		{`{"notifications":[]}`, "eventTypeName is required"},
		{`{"eventTypeName":"HOST_DOWN"}`, "notifications is required"},
		{`[]`, "must be a JSON object"},
	} {
		srv := stubapi.New(t)
		ios, stdin, _, _ := iostreams.Test()
		stdin.WriteString(tc.doc)
		err := createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, "json", project), File: "-"})
		if err == nil || !strings.Contains(err.Error(), tc.want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage || len(srv.Requests()) != 0 {
			t.Errorf("%s: err = %v, want %q", tc.doc, err, tc.want)
		}
	}
}

func TestDescribeShowsDetailOrJSON(t *testing.T) {
	cfg := `{"id":"` + configID + `","groupId":"` + project + `","eventTypeName":"OUTSIDE_METRIC_THRESHOLD","enabled":false,` +
		`"matchers":[{"fieldName":"HOSTNAME","operator":"ENDS_WITH","value":".example.com"}],` +
		`"metricThreshold":{"metricName":"CONNECTIONS","operator":"GREATER_THAN","threshold":100,"units":"RAW"},` +
		`"notifications":[{"typeName":"WEBHOOK","webhookUrl":"https://h.example.com/****","delayMin":5,"intervalMin":10}]}`
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alertConfigs/"+configID, 200, cfg)
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	if err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "table", project), ConfigID: configID}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"OUTSIDE_METRIC_THRESHOLD", "HOSTNAME ENDS_WITH .example.com", "CONNECTIONS GREATER_THAN 100 RAW",
		"WEBHOOK https://h.example.com/**** after 5m every 10m"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("detail lacks %q:\n%s", want, out.String())
		}
	}
	ios, _, out, _ = iostreams.Test()
	if err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "json", project), ConfigID: configID}); err != nil {
		t.Fatal(err)
	}
	if out.String() != cfg+"\n" {
		t.Errorf("json = %q", out.String())
	}
	err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "json", project), ConfigID: "bad"})
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("bad id: %v", err)
	}
}

func TestDeleteNeedsYesWithoutATerminal(t *testing.T) {
	srv := stubapi.New(t)
	ios, _, _, _ := iostreams.Test()
	err := deleteRun(context.Background(), &DeleteOptions{Deps: srv.Deps(ios, "table", project), ConfigID: configID})
	if err == nil || !strings.Contains(err.Error(), "without --yes") || cmdutil.ExitCode(err) != cmdutil.ExitUsage || len(srv.Requests()) != 0 {
		t.Errorf("err = %v, requests %d", err, len(srv.Requests()))
	}
}

// The real service answers DELETE with 200 and no body, omctl server with
// {}: both are success, whatever the output format.
func TestDeleteWithYesSendsDeleteAndPrints(t *testing.T) {
	for _, answer := range []string{`{}`, ``} {
		for _, tc := range []struct {
			format string
			tty    bool
			want   string
		}{
			{"table", false, configID + "\n"},
			{"table", true, "✓ Alert configuration " + configID + " deleted\n"},
			{"json", false, "{}\n"},
			{"jsonl", false, "{}\n"},
			{"yaml", false, "{}\n"},
		} {
			srv := stubapi.New(t)
			srv.Reply("DELETE", "/groups/"+project+"/alertConfigs/"+configID, 200, answer)
			ios, _, out, _ := iostreams.Test()
			ios.SetStdoutTTY(tc.tty)
			ios.SetNoColor(true)
			err := deleteRun(context.Background(), &DeleteOptions{Deps: srv.Deps(ios, tc.format, project), ConfigID: configID, Yes: true})
			if err != nil {
				t.Errorf("answer %q -o %s: %v", answer, tc.format, err)
				continue
			}
			if r := srv.Only(); r.Method != "DELETE" || len(r.Body) != 0 {
				t.Errorf("sent %s %q", r.Method, r.Body)
			}
			if out.String() != tc.want {
				t.Errorf("answer %q -o %s tty=%v: output %q, want %q", answer, tc.format, tc.tty, out.String(), tc.want)
			}
		}
	}
}

func TestDeleteDryRunSendsNothing(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alertConfigs/"+configID, 200, cfgJSON)
	ios, _, out, _ := iostreams.Test()
	err := deleteRun(context.Background(), &DeleteOptions{Deps: srv.Deps(ios, "table", project), ConfigID: configID, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := srv.Only(); r.Method != "GET" {
		t.Errorf("sent %s", r.Method)
	}
	got := out.String()
	for _, want := range []string{"DELETE /groups/" + project + "/alertConfigs/" + configID, "--- current", "+++ /dev/null", `-  "eventTypeName": "HOST_DOWN"`} {
		if !strings.Contains(got, want) {
			t.Errorf("preview has no %q:\n%s", want, got)
		}
	}
}

func TestDeleteAsksOnATerminal(t *testing.T) {
	for _, tc := range []struct {
		answer  any
		deleted bool
	}{{true, true}, {false, false}, {prompt.ErrCancelled, false}} {
		srv := stubapi.New(t)
		if tc.deleted {
			srv.Reply("DELETE", "/groups/"+project+"/alertConfigs/"+configID, 200, `{}`)
		}
		ios, _, _, _ := iostreams.Test()
		ios.SetStdinTTY(true)
		ios.SetStderrTTY(true)
		script := prompttest.New(t, tc.answer)
		deps := srv.Deps(ios, "table", project)
		deps.Prompter = script
		err := deleteRun(context.Background(), &DeleteOptions{Deps: deps, ConfigID: configID})
		if len(script.Asked) != 1 || script.Asked[0] != "Delete alert configuration "+configID+" of project "+project+"?" {
			t.Errorf("%v: asked %q", tc.answer, script.Asked)
		}
		if sent := len(srv.Requests()) == 1; sent != tc.deleted || (err == nil) != tc.deleted {
			t.Errorf("%v: deleted=%v err=%v", tc.answer, sent, err)
		}
	}
}

func TestDeleteUnknownIsNotFound(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("DELETE", "/groups/"+project+"/alertConfigs/"+configID, 404, `{"detail":"No alert configuration.","error":404,"errorCode":"ALERT_CONFIG_NOT_FOUND","reason":"Not Found"}`)
	ios, _, _, _ := iostreams.Test()
	err := deleteRun(context.Background(), &DeleteOptions{Deps: srv.Deps(ios, "table", project), ConfigID: configID, Yes: true})
	if cmdutil.ExitCode(err) != cmdutil.ExitNotFound || !strings.Contains(err.Error(), "ALERT_CONFIG_NOT_FOUND") {
		t.Errorf("err = %v", err)
	}
}

// --dry-run of create and update prints the request with its secrets
// masked and the diff, and sends no write.
func TestCreateAndUpdateDryRunSendNothing(t *testing.T) {
	doc := `{"eventTypeName":"HOST_DOWN","enabled":true,"notifications":[{"typeName":"WEBHOOK","webhookUrl":"https://hooks.example.com/T0/secret-path","webhookSecret":"s3cret"}]}`
	for _, update := range []bool{false, true} {
		srv := stubapi.New(t)
		ios, stdin, out, _ := iostreams.Test()
		stdin.WriteString(doc)
		var err error
		if update {
			srv.Reply("GET", "/groups/"+project+"/alertConfigs/"+configID, 200, cfgJSON)
			err = updateRun(context.Background(), &UpdateOptions{Deps: srv.Deps(ios, "table", project), ConfigID: configID, File: "-", DryRun: true})
		} else {
			err = createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, "table", project), File: "-", DryRun: true})
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range srv.Requests() {
			if r.Method != "GET" {
				t.Errorf("update=%v: sent %s", update, r.Method)
			}
		}
		got := out.String()
		if strings.Contains(got, "s3cret") || strings.Contains(got, "secret-path") || !strings.Contains(got, `"webhookUrl": "https://hooks.example.com/****"`) {
			t.Errorf("update=%v: secrets not masked:\n%s", update, got)
		}
		if want := map[bool]string{false: "POST /groups/" + project + "/alertConfigs\n", true: "PUT /groups/" + project + "/alertConfigs/" + configID + "\n"}[update]; !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
		if update && !strings.Contains(got, `-      "typeName": "SMS"`) {
			t.Errorf("update: the diff does not show the SMS target going:\n%s", got)
		}
	}
}
