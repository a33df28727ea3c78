package globalalerts

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
)

func TestNewCmdList(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		check   func(*ListOptions) bool
	}{
		{args: []string{}, check: func(o *ListOptions) bool {
			lo, err := o.List.ListOptions()
			return o.Status == "" && o.Since == "" && o.Until == "" && err == nil &&
				lo.PageNum == 1 && lo.ItemsPerPage == 100 && !lo.All && lo.BackupJobsEnabledOnly == nil
		}},
		{args: []string{"--status", "OPEN", "--since", "7d", "--until", "2026-11-20", "--page", "2", "--limit", "10"}, check: func(o *ListOptions) bool {
			lo, err := o.List.ListOptions()
			return o.Status == "OPEN" && o.Since == "7d" && o.Until == "2026-11-20" && err == nil && lo.PageNum == 2 && lo.ItemsPerPage == 10
		}},
		{args: []string{"--all", "--backup-jobs-enabled-only"}, check: func(o *ListOptions) bool {
			lo, err := o.List.ListOptions()
			return err == nil && lo.All && lo.ItemsPerPage == client.MaxItemsPerPage && lo.BackupJobsEnabledOnly != nil && *lo.BackupJobsEnabledOnly
		}},
		// Values are checked by the run function, not by flag parsing.
		{args: []string{"--status", "open"}, check: func(o *ListOptions) bool { return o.Status == "open" }},
		{args: []string{"OPEN"}, wantErr: `unknown command "OPEN" for "list"`},
		{args: []string{"--limit", "ten"}, wantErr: `invalid argument "ten" for "--limit"`},
		{args: []string{"--status"}, wantErr: "flag needs an argument: --status"},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *ListOptions
		f := &cmdutil.Factory{IOStreams: ios, Now: func() time.Time { return now }}
		cmd := NewCmdList(f, func(_ context.Context, o *ListOptions) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || got != nil {
				t.Errorf("%v: error %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got == nil || !tt.check(got) {
			t.Errorf("%v: %v %+v", tt.args, err, got)
			continue
		}
		if got.Now == nil || !got.Now().Equal(now) {
			t.Errorf("%v: Now is not the factory's", tt.args)
		}
	}
}

func TestStatusCompletion(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdList(&cmdutil.Factory{IOStreams: ios}, nil)
	complete, ok := cmd.GetFlagCompletionFunc("status")
	if !ok {
		t.Fatal("--status has no completion")
	}
	got, _ := complete(cmd, nil, "")
	if len(got) != 3 || got[0] != "TRACKING" || got[1] != "OPEN" || got[2] != "CLOSED" {
		t.Errorf("completions = %v", got)
	}
}

func TestGlobalAlertsGroup(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	cmd := NewCmdGlobalAlerts(&cmdutil.Factory{IOStreams: ios})
	if subs := cmd.Commands(); len(subs) != 1 || subs[0].Name() != "list" {
		t.Errorf("subcommands = %v", subs)
	}
	cmd.SetArgs([]string{"lsit"})
	cmd.SetOut(out)
	cmd.SetErr(out)
	err := cmd.Execute()
	var fe *cmdutil.FlagError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "did you mean list?") {
		t.Errorf("unknown subcommand: %v", err)
	}
}
