package alertconfigs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

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

// disable's help tells what the API does besides the flag: it cancels the
// configuration's active alerts.
func TestDisableHelpSaysItCancelsActiveAlerts(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := cmdutil.New(ios)
	disable := NewCmdSetEnabled(f, false, nil).Long
	enable := NewCmdSetEnabled(f, true, nil).Long
	if !strings.Contains(disable, "becomes\nCANCELLED") && !strings.Contains(disable, "becomes CANCELLED") || strings.Contains(disable, "changing nothing else") {
		t.Errorf("disable's help:\n%s", disable)
	}
	if strings.Contains(enable, "CANCELLED") {
		t.Errorf("enable's help:\n%s", enable)
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
