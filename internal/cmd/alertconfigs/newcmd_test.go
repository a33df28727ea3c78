package alertconfigs

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestNewCmdAlertConfigsGroupHasEveryVerb(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdAlertConfigs(&cmdutil.Factory{IOStreams: ios})
	var got []string
	for _, c := range cmd.Commands() {
		got = append(got, c.Name())
	}
	if want := "create delete describe disable enable list update"; strings.Join(got, " ") != want {
		t.Errorf("subcommands = %v, want %s", got, want)
	}
}

func TestNewCmdListUpdateAndSetEnabled(t *testing.T) {
	for _, tt := range []struct {
		name    string
		args    []string
		wantErr string
		flagErr bool
		check   func(any) bool
	}{
		{"list", []string{}, "", false, func(o any) bool {
			l := o.(*ListOptions).List
			return l.Page == 1 && l.Limit == 100 && !l.All && l.BackupJobsEnabledOnly == nil
		}},
		{"list", []string{"--all", "--limit", "7", "--page", "2"}, "", false, func(o any) bool {
			l := o.(*ListOptions).List
			return l.All && l.Limit == 7 && l.Page == 2
		}},
		{"list", []string{"x"}, "unknown command", false, nil},
		{"update", []string{configID, "--file", "cfg.json"}, "", false, func(o any) bool {
			u := o.(*UpdateOptions)
			return u.ConfigID == configID && u.File == "cfg.json"
		}},
		{"update", []string{"-f", "-", configID}, "", false, func(o any) bool { return o.(*UpdateOptions).File == "-" }},
		{"update", []string{configID}, `required flag(s) "file" not set`, false, nil},
		{"update", []string{"--file", "a"}, "ALERT_CONFIG_ID", true, nil},
		{"update", []string{configID, config2, "--file", "a"}, "ALERT_CONFIG_ID", true, nil},
		{"disable", []string{configID}, "", false, func(o any) bool {
			s := o.(*SetEnabledOptions)
			return s.ConfigID == configID && !s.Enabled && !s.DryRun && s.Event == ""
		}},
		{"disable", []string{"-"}, "", false, func(o any) bool {
			s := o.(*SetEnabledOptions)
			return s.ConfigID == "" && len(s.ConfigIDs) == 1 && s.ConfigIDs[0] == "-"
		}},
		{"disable", []string{"--event", "HOST_DOWN", "--dry-run"}, "", false, func(o any) bool {
			s := o.(*SetEnabledOptions)
			return s.Event == "HOST_DOWN" && s.DryRun && !s.Enabled && len(s.ConfigIDs) == 0
		}},
		{"disable", []string{"--nope"}, "unknown flag", false, nil},
	} {
		ios, _, _, _ := iostreams.Test()
		f := &cmdutil.Factory{IOStreams: ios}
		var got any
		var cmd *cobra.Command
		switch tt.name {
		case "list":
			cmd = NewCmdList(f, func(_ context.Context, o *ListOptions) error { got = o; return nil })
		case "update":
			cmd = NewCmdUpdate(f, func(_ context.Context, o *UpdateOptions) error { got = o; return nil })
		case "disable":
			cmd = NewCmdSetEnabled(f, false, func(_ context.Context, o *SetEnabledOptions) error { got = o; return nil })
		}
		cmd.SetOut(ios.ErrOut)
		cmd.SetErr(ios.ErrOut)
		cmd.SetArgs(tt.args)
		err := cmd.Execute()
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s %v: error %v, want %q", tt.name, tt.args, err, tt.wantErr)
			}
			var fe *cmdutil.FlagError
			if tt.flagErr && !errors.As(err, &fe) {
				t.Errorf("%s %v: error %T is not a *cmdutil.FlagError", tt.name, tt.args, err)
			}
			if got != nil {
				t.Errorf("%s %v: runF called on bad input", tt.name, tt.args)
			}
			continue
		}
		if err != nil || got == nil || !tt.check(got) {
			t.Errorf("%s %v: %v %+v", tt.name, tt.args, err, got)
		}
	}
}

func TestNewCmdWithoutRunFRunsTheRunFunction(t *testing.T) {
	for _, tt := range []struct {
		cmd     func(*cmdutil.Factory) *cobra.Command
		args    []string
		wantErr string
	}{
		{func(f *cmdutil.Factory) *cobra.Command { return NewCmdList(f, nil) }, []string{"--page", "0"}, "--page"},
		{func(f *cmdutil.Factory) *cobra.Command { return NewCmdUpdate(f, nil) }, []string{"nope", "--file", "-"}, "24 hexadecimal digits"},
		{func(f *cmdutil.Factory) *cobra.Command { return NewCmdSetEnabled(f, true, nil) }, []string{}, "which configurations?"},
	} {
		ios, _, _, _ := iostreams.Test()
		cmd := tt.cmd(&cmdutil.Factory{IOStreams: ios})
		cmd.SetOut(ios.ErrOut)
		cmd.SetErr(ios.ErrOut)
		cmd.SetArgs(tt.args)
		err := cmd.Execute()
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s %v: err = %v, want %q", cmd.Name(), tt.args, err, tt.wantErr)
		}
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

func TestSetEnabledConfirmsWhatTheServerAnswered(t *testing.T) {
	disabled := strings.Replace(cfgJSON, `"enabled":true`, `"enabled":false`, 1)
	for _, tt := range []struct {
		enable bool
		answer string
		format string
		tty    bool
		want   string
	}{
		{true, cfgJSON, "table", true, "✓ Alert configuration " + configID + " enabled\n"},
		{false, disabled, "table", true, "✓ Alert configuration " + configID + " disabled\n"},
		{false, disabled, "table", false, configID + "\tHOST_DOWN\tfalse\tEMAIL,SMS\t2026-11-01T00:00:00Z\n"},
		{false, disabled, "jsonl", false, disabled + "\n"},
	} {
		srv := stubapi.New(t)
		srv.Reply("PATCH", "/groups/"+project+"/alertConfigs/"+configID, 200, tt.answer)
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(tt.tty)
		ios.SetNoColor(true)
		err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: srv.Deps(ios, tt.format, project), ConfigID: configID, Enabled: tt.enable})
		if err != nil {
			t.Fatal(err)
		}
		if b := srv.Only().JSON(t); b["enabled"] != tt.enable {
			t.Errorf("body = %v", b)
		}
		if out.String() != tt.want {
			t.Errorf("enable=%v %s tty=%v: output %q, want %q", tt.enable, tt.format, tt.tty, out.String(), tt.want)
		}
	}
}

// An answer that shows the configuration not changed is an error, not a
// confirmation of the state it shows.
func TestSetEnabledAnswerWithoutTheChangeIsAnError(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("PATCH", "/groups/"+project+"/alertConfigs/"+configID, 200, strings.Replace(cfgJSON, `"enabled":true`, `"enabled":false`, 1))
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: srv.Deps(ios, "table", project), ConfigID: configID, Enabled: true})
	if err == nil || !strings.Contains(err.Error(), "still disabled") || cmdutil.ExitCode(err) != cmdutil.ExitError || out.Len() != 0 {
		t.Errorf("err = %v, output %q", err, out.String())
	}
}

func TestSetEnabledRefusesBadInputAndMapsErrors(t *testing.T) {
	t.Run("no config", func(t *testing.T) {
		srv := stubapi.New(t)
		ios, _, _, _ := iostreams.Test()
		err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: srv.Deps(ios, "json", project), Enabled: true})
		var fe *cmdutil.FlagError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), "which configurations?") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("malformed id", func(t *testing.T) {
		srv := stubapi.New(t)
		ios, _, _, _ := iostreams.Test()
		err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: srv.Deps(ios, "json", project), ConfigID: "zz", Enabled: true})
		if err == nil || !strings.Contains(err.Error(), "24 hexadecimal digits") || len(srv.Requests()) != 0 {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("forbidden", func(t *testing.T) {
		srv := stubapi.New(t)
		srv.Reply("PATCH", "/groups/"+project+"/alertConfigs/"+configID, 403, `{"detail":"no","error":403,"errorCode":"USER_CANNOT_ACCESS_GROUP","reason":"Forbidden"}`)
		ios, _, out, _ := iostreams.Test()
		err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: srv.Deps(ios, "json", project), ConfigID: configID, Enabled: false})
		if cmdutil.ExitCode(err) != cmdutil.ExitAuth || out.Len() != 0 {
			t.Errorf("err = %v, exit %d", err, cmdutil.ExitCode(err))
		}
	})
	t.Run("answer not a config", func(t *testing.T) {
		srv := stubapi.New(t)
		srv.Reply("PATCH", "/groups/"+project+"/alertConfigs/"+configID, 200, `[1]`)
		ios, _, _, _ := iostreams.Test()
		err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: srv.Deps(ios, "json", project), ConfigID: configID, Enabled: true})
		if err == nil || !strings.Contains(err.Error(), "alert configuration") {
			t.Errorf("err = %v", err)
		}
	})
}

func TestBulkEnableRefusesBadEventAndMissingTargets(t *testing.T) {
	for _, tt := range []struct {
		opts    SetEnabledOptions
		wantErr string
	}{
		{SetEnabledOptions{Event: "host_down"}, "invalid --event"},
		{SetEnabledOptions{DryRun: true}, "which configurations?"},
	} {
		srv := stubapi.New(t)
		ios, _, _, _ := iostreams.Test()
		o := tt.opts
		o.IO, o.Client, o.Printer, o.ProjectID, o.Enabled = ios, srv.Client(), stubapi.Printer(ios, "json", ""), stubapi.Project(project), true
		err := setEnabledRun(context.Background(), &o)
		var fe *cmdutil.FlagError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%+v: err = %v", tt.opts, err)
		}
	}
}

func TestBulkEnableByEventWithNoMatchChangesNothing(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alertConfigs", 200, `{"results":[`+cfgJSON+`],"totalCount":1,"links":[]}`)
	ios, _, out, stderr := iostreams.Test()
	err := setEnabledRun(context.Background(), &SetEnabledOptions{Deps: srv.Deps(ios, "table", project), Event: "NO_PRIMARY", Enabled: true})
	if err != nil || out.Len() != 0 || !strings.Contains(stderr.String(), "No alert configurations to change.") {
		t.Errorf("err = %v, stdout %q, stderr %q", err, out.String(), stderr.String())
	}
	if req := srv.Only(); req.Method != "GET" {
		t.Errorf("request = %s", req.Method)
	}
}

func TestDescribeDetailShowsThresholdMatchersAndNotifications(t *testing.T) {
	const doc = `{"id":"5f2a0c2e8f9d4b0012345678","groupId":"5e2b0c2e8f9d4b0012345678","eventTypeName":"OUTSIDE_METRIC_THRESHOLD","enabled":false,` +
		`"matchers":[{"fieldName":"HOSTNAME","operator":"EQUALS","value":"db1"}],` +
		`"metricThreshold":{"metricName":"ASSERT_REGULAR","operator":"GREATER_THAN","threshold":2.5,"units":"RAW"},` +
		`"notifications":[{"typeName":"EMAIL","emailAddress":"a@example.com","delayMin":5,"intervalMin":60}],"tags":["x","y"]}`
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alertConfigs/"+configID, 200, doc)
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "table", project), ConfigID: configID})
	if err != nil {
		t.Fatal(err)
	}
	if req := srv.Only(); req.Method != "GET" {
		t.Errorf("method %s", req.Method)
	}
	for _, want := range []string{"OUTSIDE_METRIC_THRESHOLD", "HOSTNAME EQUALS db1", "ASSERT_REGULAR GREATER_THAN 2.5 RAW", "EMAIL a@example.com after 5m every 60m", "Tags:          x\n               y"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("detail lacks %q:\n%s", want, out.String())
		}
	}
}

func TestDescribeServerErrorsAndBadID(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alertConfigs/"+configID, 401, `{"detail":"bad key","error":401,"errorCode":"NOT_AUTHORIZED","reason":"Unauthorized"}`)
	ios, _, out, _ := iostreams.Test()
	err := describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "json", project), ConfigID: configID})
	if cmdutil.ExitCode(err) != cmdutil.ExitAuth || out.Len() != 0 {
		t.Errorf("err = %v, exit %d", err, cmdutil.ExitCode(err))
	}
	err = describeRun(context.Background(), &DescribeOptions{Deps: srv.Deps(ios, "json", project), ConfigID: "12"})
	if err == nil || !strings.Contains(err.Error(), "24 hexadecimal digits") || len(srv.Requests()) != 1 {
		t.Errorf("err = %v, %d requests", err, len(srv.Requests()))
	}
}

func TestCompleteConfigIDsListsEveryPageWithState(t *testing.T) {
	disabled := strings.NewReplacer(configID, config2, `"enabled":true`, `"enabled":false`).Replace(cfgJSON)
	srv := stubapi.New(t)
	path := "/groups/" + project + "/alertConfigs"
	srv.Reply("GET", path, 200, `{"results":[`+cfgJSON+`],"totalCount":2,"links":[{"href":"y","rel":"next"}]}`)
	srv.Reply("GET", path, 200, `{"results":[`+disabled+`],"totalCount":2,"links":[]}`)
	f := cmdtest.EnvFactory(t, srv.URL, project)
	cmd := &cobra.Command{}
	cmd.SetContext(context.Background())
	got, dir := completeConfigIDs(f)(cmd, nil, "")
	want := []string{configID + "\tHOST_DOWN (enabled)", config2 + "\tHOST_DOWN (disabled)"}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("completions = %q, want %q", got, want)
	}
	if dir&cobra.ShellCompDirectiveNoFileComp == 0 {
		t.Errorf("directive = %v", dir)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Query.Get("itemsPerPage") != "500" {
		t.Errorf("requests = %v", reqs)
	}
}

func TestCompleteIDsGivesNothingOnErrorOrAfterAnArg(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/"+project+"/alertConfigs", 500, `{"detail":"Boom.","error":500,"errorCode":"UNEXPECTED_ERROR","reason":"Internal Server Error"}`)
	f := cmdtest.EnvFactory(t, srv.URL, project)
	cmd := &cobra.Command{}
	cmd.SetContext(context.Background())
	if got, _ := completeConfigIDs(f)(cmd, nil, ""); len(got) != 0 {
		t.Errorf("on error: %q", got)
	}
	if got, _ := completeConfigIDs(f)(cmd, []string{configID}, ""); len(got) != 0 {
		t.Errorf("after an arg: %q", got)
	}
	pathErr := errors.New("no project")
	if got, _ := CompleteIDs(f, func() (string, error) { return "", pathErr })(cmd, nil, ""); len(got) != 0 {
		t.Errorf("path error: %q", got)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}
