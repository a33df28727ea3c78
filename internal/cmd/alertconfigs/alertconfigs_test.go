package alertconfigs

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
)

const (
	project  = "5e2b0c2e8f9d4b0012345678"
	configID = "5f2a0c2e8f9d4b0012345678"
	cfgJSON  = `{"id":"5f2a0c2e8f9d4b0012345678","groupId":"5e2b0c2e8f9d4b0012345678","eventTypeName":"HOST_DOWN","enabled":true,"notifications":[{"typeName":"EMAIL","emailAddress":"a@example.com","delayMin":0,"intervalMin":5},{"typeName":"SMS","mobileNumber":"+15555550100"}],"updated":"2026-11-01T00:00:00Z"}`
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
		var cmd *cobra.Command
		switch tt.name {
		case "create":
			cmd = NewCmdCreate(f, func(_ context.Context, o *CreateOptions) error { got = o; return nil })
		case "describe":
			cmd = NewCmdDescribe(f, func(_ context.Context, o *DescribeOptions) error { got = o; return nil })
		case "delete":
			cmd = NewCmdDelete(f, func(_ context.Context, o *DeleteOptions) error { got = o; return nil })
		}
		err := cmdtest.Execute(cmd, ios, tt.args...)
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

func TestNewCmdAlertConfigsGroupHasEveryVerb(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdAlertConfigs(&cmdutil.Factory{IOStreams: ios})
	got := cmdtest.Subcommands(cmd)
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
		err := cmdtest.Execute(cmd, ios, tt.args...)
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
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s %v: err = %v, want %q", cmd.Name(), tt.args, err, tt.wantErr)
		}
	}
}
