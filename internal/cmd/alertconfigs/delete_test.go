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
