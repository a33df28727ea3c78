package server

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func isFlagError(err error) bool {
	var fe *cmdutil.FlagError
	return errors.As(err, &fe)
}

func TestNewCmdServer(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		check   func(*Options) bool
	}{
		{[]string{}, "", func(o *Options) bool {
			return o.Listen == "127.0.0.1:8080" && o.JournalSize == 10000 && o.JournalBytes == 64<<20 && o.MaxConns == 4096 && o.AuthFailures == 0 && o.NonceTTL.String() == "5m0s" && !o.Demo && o.WebhookAllow == nil
		}},
		{[]string{"--listen", "127.0.0.1:0", "--demo", "--state", "s.json", "--clock", "2026-01-01T00:00:00Z", "--nonce-ttl", "1m",
			"--env-file", "e.env", "--quiet", "--webhook-allow", "10.0.0.0/8,hooks.example", "--rate-limit", "3", "--journal-size", "0", "--journal-bytes", "2MiB", "--tls-self-signed"}, "",
			func(o *Options) bool {
				return o.Listen == "127.0.0.1:0" && o.Demo && o.StateFile == "s.json" && o.Clock == "2026-01-01T00:00:00Z" && o.NonceTTL.String() == "1m0s" &&
					o.EnvFile == "e.env" && o.Quiet && len(o.WebhookAllow) == 2 && o.WebhookAllow[1] == "hooks.example" &&
					o.RateLimit == 3 && o.JournalSize == 0 && o.JournalBytes == 2<<20 && o.TLSSelfSigned
			}},
		{[]string{"--fixtures", "f.json", "--tls-cert", "c.pem", "--tls-key", "k.pem"}, "", func(o *Options) bool {
			return o.FixturesFile == "f.json" && o.TLSCert == "c.pem" && o.TLSKey == "k.pem"
		}},
		{[]string{"--fixtures", "f.json", "--demo"}, "none of the others can be", nil},
		{[]string{"--tls-self-signed", "--tls-cert", "c.pem", "--tls-key", "k.pem"}, "none of the others can be", nil},
		{[]string{"--tls-cert", "c.pem"}, "must all be set", nil},
		{[]string{"extra"}, "unknown command", nil},
		{[]string{"--max-connections", "8", "--auth-failure-limit", "5"}, "", func(o *Options) bool { return o.MaxConns == 8 && o.AuthFailures == 5 }},
		{[]string{"--journal-bytes", "1024"}, "", func(o *Options) bool { return o.JournalBytes == 1024 }},
		{[]string{"--journal-bytes", "0"}, "want a positive number of bytes", nil},
		{[]string{"--journal-bytes", "64MB"}, "such as 64MiB", nil},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *Options
		cmd := NewCmdServer(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *Options) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || got != nil {
				t.Errorf("%v: error %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got == nil || !tt.check(got) {
			t.Errorf("%v: %v %+v", tt.args, err, got)
		}
	}
}

func TestServerTreeHidesClientFlagsOnlyFromItsOwnHelp(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdServer(&cmdutil.Factory{IOStreams: ios}, nil)
	if strings.Contains(cmd.UsageTemplate(), "HasAvailableInheritedFlags") {
		t.Error("omctl server's usage still shows the global flags")
	}
	for _, path := range [][]string{{"trigger"}, {"notifications"}, {"clock"}, {"reset"}, {"requests"}, {"faults", "add"}, {"faults", "list"}, {"faults", "clear"}} {
		sub, rest, err := cmd.Find(path)
		if err != nil || len(rest) != 0 || sub.Name() != path[len(path)-1] {
			t.Errorf("%v: %v %v %v", path, sub, rest, err)
			continue
		}
		if !strings.Contains(sub.UsageTemplate(), "HasAvailableInheritedFlags") {
			t.Errorf("%v: the client command lost the global flags from its usage", path)
		}
	}
	faults, _, _ := cmd.Find([]string{"faults"})
	if !strings.Contains(faults.UsageTemplate(), "HasAvailableInheritedFlags") {
		t.Error("faults group lost the global flags from its usage")
	}
}

func TestHideClientFlagsLeavesATemplateWithoutThem(t *testing.T) {
	cmd := &cobra.Command{Use: "x"}
	cmd.SetUsageTemplate("Usage: {{.UseLine}}")
	hideClientFlags(cmd)
	if cmd.UsageTemplate() != "Usage: {{.UseLine}}" {
		t.Errorf("template = %q", cmd.UsageTemplate())
	}
	cmd.SetUsageTemplate("a{{if .HasAvailableInheritedFlags}}b")
	hideClientFlags(cmd)
	if cmd.UsageTemplate() != "a{{if .HasAvailableInheritedFlags}}b" {
		t.Errorf("unterminated template = %q", cmd.UsageTemplate())
	}
}

func TestNewCmdClockAndReset(t *testing.T) {
	for _, tt := range []struct {
		args          []string
		action, value string
		usage         bool
	}{
		{[]string{}, "", "", false},
		{[]string{"advance", "15m"}, "advance", "15m", false},
		{[]string{"set", "2026-06-01T00:00:00Z"}, "set", "2026-06-01T00:00:00Z", false},
		{[]string{"advance"}, "", "", true},
		{[]string{"rewind", "5m"}, "", "", true},
		{[]string{"set", "a", "b"}, "", "", true},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *ClockOptions
		cmd := NewCmdClock(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *ClockOptions) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.usage {
			if !isFlagError(err) || got != nil {
				t.Errorf("%v: %v, want a usage error", tt.args, err)
			}
			continue
		}
		if err != nil || got == nil || got.Action != tt.action || got.Value != tt.value || got.IO != ios {
			t.Errorf("%v: %v %+v", tt.args, err, got)
		}
	}
	ios, _, _, _ := iostreams.Test()
	called := false
	reset := func() *cobra.Command {
		return NewCmdReset(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *ResetOptions) error { called = o.IO == ios; return nil })
	}
	if err := cmdtest.Execute(reset(), ios); err != nil || !called {
		t.Errorf("reset: %v, called %v", err, called)
	}
	called = false
	if err := cmdtest.Execute(reset(), ios, "now"); err == nil || called {
		t.Errorf("reset with an argument: %v, called %v", err, called)
	}
}

func TestClockShowsAndSetsAndRefusesBadTimes(t *testing.T) {
	srv := stubapi.New(t)
	srv.ReplyControl("GET", "clock", 200, `{"now":"2026-01-01T00:00:00Z"}`)
	srv.ReplyControl("POST", "clock", 200, `{"now":"2026-06-01T00:00:00Z"}`)
	ios, _, out, _ := iostreams.Test()
	co := srv.Deps(ios, "json", "")
	if err := clockRun(context.Background(), &ClockOptions{Deps: co}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"now": "2026-01-01T00:00:00Z"`) && !strings.Contains(out.String(), `"now":"2026-01-01T00:00:00Z"`) {
		t.Errorf("-o json = %q", out.String())
	}
	if err := clockRun(context.Background(), &ClockOptions{Deps: co, Action: "set", Value: "2026-06-01T00:00:00Z"}); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || len(reqs[0].Body) != 0 {
		t.Fatalf("requests = %v", reqs)
	}
	if body := reqs[1].JSON(t); len(body) != 1 || body["set"] != "2026-06-01T00:00:00Z" {
		t.Errorf("set body = %v", body)
	}
	for _, o := range []ClockOptions{{Action: "set", Value: "tomorrow"}, {Action: "set", Value: "2026-06-01"}, {Action: "advance", Value: "-5m"}} {
		if err := clockRun(context.Background(), &o); !isFlagError(err) {
			t.Errorf("%+v: %v, want a usage error before sending", o, err)
		}
	}
}

func TestClockServerErrorsKeepTheirExitCode(t *testing.T) {
	srv := stubapi.New(t)
	srv.ReplyControl("GET", "clock", 401, `{"detail":"You are not authorized.","error":401,"errorCode":"UNAUTHORIZED","reason":"Unauthorized"}`)
	ios, _, out, _ := iostreams.Test()
	err := clockRun(context.Background(), &ClockOptions{Deps: srv.Deps(ios, "table", "")})
	if cmdutil.ExitCode(err) != cmdutil.ExitAuth || out.Len() != 0 {
		t.Errorf("401: %v (exit %d), output %q", err, cmdutil.ExitCode(err), out.String())
	}
}

func TestControlReportsAClientThatCannotBeMade(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	want := errors.New("no profile")
	co := cmdutil.Deps{IO: ios, Client: func() (*client.Client, error) { return nil, want }, Printer: stubapi.Printer(ios, "table", "")}
	if err := clockRun(context.Background(), &ClockOptions{Deps: co}); !errors.Is(err, want) {
		t.Errorf("clock: %v", err)
	}
	if err := faultsClearRun(context.Background(), &FaultsClearOptions{Deps: co}); !errors.Is(err, want) {
		t.Errorf("faults clear: %v", err)
	}
	if err := faultsListRun(context.Background(), &FaultsListOptions{Deps: co, List: &cmdutil.ListFlags{Page: 1, Limit: 100}}); !errors.Is(err, want) {
		t.Errorf("faults list: %v", err)
	}
}

func TestNewCmdNotificationsAndRequests(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	var n *NotificationsOptions
	cmd := NewCmdNotifications(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *NotificationsOptions) error { n = o; return nil })
	if err := cmdtest.Execute(cmd, ios, "--alert", "a1", "--event", "alert.close", "--type", "WEBHOOK"); err != nil || n == nil ||
		n.AlertID != "a1" || n.Event != "alert.close" || n.Type != "WEBHOOK" || n.List == nil {
		t.Errorf("notifications: %v %+v", err, n)
	}
	n = nil
	cmd = NewCmdNotifications(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *NotificationsOptions) error { n = o; return nil })
	if err := cmdtest.Execute(cmd, ios, "a1"); err == nil || n != nil {
		t.Errorf("notifications with an argument: %v", err)
	}

	for _, tt := range []struct {
		args  []string
		check func(*RequestsOptions) bool
	}{
		{[]string{}, func(o *RequestsOptions) bool { return o.Status == nil && o.Caller == nil && !o.Clear && o.Method == "" }},
		{[]string{"--status", "0", "--caller", ""}, func(o *RequestsOptions) bool {
			return o.Status != nil && *o.Status == 0 && o.Caller != nil && *o.Caller == ""
		}},
		{[]string{"--method", "PATCH", "--path", "/groups/", "--status", "401", "--caller", "k1"}, func(o *RequestsOptions) bool {
			return o.Method == "PATCH" && o.Path == "/groups/" && *o.Status == 401 && *o.Caller == "k1"
		}},
		{[]string{"--clear"}, func(o *RequestsOptions) bool { return o.Clear && o.IO == ios }},
	} {
		var got *RequestsOptions
		cmd := NewCmdRequests(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *RequestsOptions) error { got = o; return nil })
		if err := cmdtest.Execute(cmd, ios, tt.args...); err != nil || got == nil || !tt.check(got) {
			t.Errorf("requests %v: %v %+v", tt.args, err, got)
		}
	}
}

func TestNewCmdFaults(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	for _, tt := range []struct {
		args    []string
		wantErr string
		check   func(*FaultsAddOptions) bool
	}{
		{[]string{"--path", "/x", "--status", "503", "--retry-after", "2", "--times", "3"}, "", func(o *FaultsAddOptions) bool {
			return o.Path == "/x" && o.Status == 503 && *o.RetryAfter == 2 && *o.Times == 3 && o.Probability == 1 &&
				o.Given("status") && o.Given("times") && !o.Given("delay") && !o.Given("probability")
		}},
		{[]string{"--path", "/**", "--method", "POST", "--reset", "--delay", "1s", "--probability", "0.5", "--error-code", "X"}, "", func(o *FaultsAddOptions) bool {
			return o.Method == "POST" && o.Reset && o.Delay == "1s" && o.Probability == 0.5 && o.ErrorCode == "X" && o.RetryAfter == nil && o.Times == nil
		}},
		{[]string{"--status", "503"}, `"path" not set`, nil},
		{[]string{"--path", "/x", "--status", "503", "--reset"}, "none of the others can be", nil},
		{[]string{"--path", "/x", "extra"}, "unknown command", nil},
	} {
		var got *FaultsAddOptions
		cmd := NewCmdFaultsAdd(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *FaultsAddOptions) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || got != nil {
				t.Errorf("add %v: %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got == nil || !tt.check(got) {
			t.Errorf("add %v: %v %+v", tt.args, err, got)
		}
	}

	var list *FaultsListOptions
	cmd := NewCmdFaultsList(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *FaultsListOptions) error { list = o; return nil })
	if err := cmdtest.Execute(cmd, ios, "--all"); err != nil || list == nil || !list.List.All {
		t.Errorf("list --all: %v %+v", err, list)
	}
	list = nil
	cmd = NewCmdFaultsList(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *FaultsListOptions) error { list = o; return nil })
	if err := cmdtest.Execute(cmd, ios, "f1"); err == nil || list != nil {
		t.Errorf("list with an argument: %v", err)
	}

	for _, args := range [][]string{{}, {"f1", "f2"}} {
		var clear *FaultsClearOptions
		cmd := NewCmdFaultsClear(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *FaultsClearOptions) error { clear = o; return nil })
		if err := cmdtest.Execute(cmd, ios, args...); err != nil || clear == nil || len(clear.IDs) != len(args) || clear.IO != ios {
			t.Errorf("clear %v: %v %+v", args, err, clear)
		}
	}
}

func TestFaultsListPrintsEachFault(t *testing.T) {
	srv := stubapi.New(t)
	srv.ReplyControl("GET", "faults", 200, `{"results":[`+
		`{"id":"f1","method":"GET","path":"/groups/*/alerts","status":503,"errorCode":"SERVICE_UNAVAILABLE","retryAfter":2,"times":2,"probability":1},`+
		`{"id":"f2","path":"/**","reset":true,"delay":"1s","probability":0.2}],"totalCount":2}`)
	ios, _, out, _ := iostreams.Test()
	err := faultsListRun(context.Background(), &FaultsListOptions{List: &cmdutil.ListFlags{Page: 1, Limit: 100},
		Deps: srv.Deps(ios, "table", "")})
	if err != nil {
		t.Fatal(err)
	}
	want := "f1\tGET\t/groups/*/alerts\t503 SERVICE_UNAVAILABLE (Retry-After 2)\t\t2\t1\n" +
		"f2\tany\t/**\treset\t1s\tno end\t0.2\n"
	if out.String() != want {
		t.Errorf("output = %q, want %q", out.String(), want)
	}
	if srv.Only().Method != "GET" {
		t.Error("not a GET")
	}
}

func TestFaultsListRefusesBadListFlags(t *testing.T) {
	err := faultsListRun(context.Background(), &FaultsListOptions{List: &cmdutil.ListFlags{Page: 0, Limit: 100}})
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("--page 0: %v", err)
	}
}

func TestFaultsClearAllPerFormat(t *testing.T) {
	for _, tt := range []struct {
		format string
		tty    bool
		want   string
	}{
		{"table", true, "✓ Every fault removed\n"},
		{"table", false, ""},
		{"json", false, "{}\n"},
	} {
		srv := stubapi.New(t)
		srv.ReplyControl("DELETE", "faults", 200, `{}`)
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(tt.tty)
		err := faultsClearRun(context.Background(), &FaultsClearOptions{Deps: srv.Deps(ios, tt.format, "")})
		if err != nil || out.String() != tt.want {
			t.Errorf("%s tty=%v: %v %q, want %q", tt.format, tt.tty, err, out.String(), tt.want)
		}
		srv.Only()
	}
}

func TestFaultsClearStopsAtAnUnknownID(t *testing.T) {
	srv := stubapi.New(t)
	srv.ReplyControl("DELETE", "faults/f1", 200, `{}`)
	srv.ReplyControl("DELETE", "faults/nope", 404, `{"detail":"No fault nope.","error":404,"errorCode":"RESOURCE_NOT_FOUND","reason":"Not Found"}`)
	ios, _, out, _ := iostreams.Test()
	ios.SetStdoutTTY(true)
	err := faultsClearRun(context.Background(), &FaultsClearOptions{IDs: []string{"f1", "nope", "f3"},
		Deps: srv.Deps(ios, "table", "")})
	if cmdutil.ExitCode(err) != cmdutil.ExitNotFound {
		t.Errorf("err = %v, want exit 3", err)
	}
	if out.String() != "✓ Fault f1 removed\n" {
		t.Errorf("output = %q", out.String())
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests, want the clear to stop at the unknown id", n)
	}
}

func TestFaultsAddServerErrorAndBadAnswer(t *testing.T) {
	srv := stubapi.New(t)
	srv.ReplyControl("POST", "faults", 403, `{"detail":"Needs GLOBAL_OWNER.","error":403,"errorCode":"USER_CANNOT_ACCESS","reason":"Forbidden"}`)
	srv.ReplyControl("POST", "faults", 200, `not json`)
	ios, _, out, _ := iostreams.Test()
	opts := &FaultsAddOptions{Path: "/x", Reset: true, Probability: 1, Given: func(n string) bool { return n == "path" || n == "reset" },
		Deps: srv.Deps(ios, "table", "")}
	if err := faultsAddRun(context.Background(), opts); err == nil || cmdutil.ExitCode(err) == cmdutil.ExitOK {
		t.Errorf("403: %v", err)
	}
	if err := faultsAddRun(context.Background(), opts); err == nil {
		t.Error("an answer that is not a fault was accepted")
	}
	if out.Len() != 0 {
		t.Errorf("output = %q", out.String())
	}
	if body := srv.Requests()[0].JSON(t); len(body) != 2 || body["reset"] != true {
		t.Errorf("body = %v", body)
	}
	opts.Path = "nope"
	if err := faultsAddRun(context.Background(), opts); !isFlagError(err) {
		t.Errorf("bad --path: %v", err)
	}
}

func TestRunRefusesBadFlagsAndFiles(t *testing.T) {
	dir := t.TempDir()
	badState := filepath.Join(dir, "state.json")
	os.WriteFile(badState, []byte("not json"), 0o600)
	ios, _, _, _ := iostreams.Test()
	for _, tt := range []struct {
		opts Options
		want string
	}{
		{Options{Clock: "2026-13-01T00:00:00Z"}, "invalid --clock"},
		{Options{WebhookAllow: []string{"not a host/99"}}, "webhook-allow"},
		{Options{StateFile: badState}, badState},
		{Options{TLSCert: filepath.Join(dir, "none.pem"), TLSKey: filepath.Join(dir, "none.key")}, "none.pem"},
		{Options{FixturesFile: filepath.Join(dir, "absent.json")}, "absent.json: no such file"},
	} {
		o := tt.opts
		o.IO, o.Listen = ios, "127.0.0.1:0"
		err := Run(context.Background(), &o)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want %q", tt.opts, err, tt.want)
		}
	}
	if data, _ := os.ReadFile(badState); string(data) != "not json" {
		t.Errorf("the bad state file was changed: %q", data)
	}
}

func TestEnvFileHasTheKeyAndIsPrivate(t *testing.T) {
	envFile := filepath.Join(t.TempDir(), "omctl.env")
	os.WriteFile(envFile, []byte("old content\n"), 0o644)
	base, _, errOut, stop := start(t, &Options{EnvFile: envFile, Quiet: true})
	defer stop()
	st, err := os.Stat(envFile)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("env file: %v %v", err, st)
	}
	env, _ := os.ReadFile(envFile)
	creds := strings.Fields(strings.SplitN(errOut.String(), "\n", 3)[1])
	for _, want := range []string{"export OMCTL_BASE_URL='" + base + "'", "export OMCTL_PUBLIC_KEY='" + creds[0] + "'", "export OMCTL_PRIVATE_KEY='" + creds[1] + "'"} {
		if !strings.Contains(string(env), want) {
			t.Errorf("env file lacks %q:\n%s", want, env)
		}
	}
	if strings.Contains(string(env), "old content") {
		t.Errorf("env file kept its old content:\n%s", env)
	}
}
