package alerts

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
)

const (
	project = "5e2b0c2e8f9d4b0012345678"
	alertID = "5f1a0c2e8f9d4b0012345678"
)

const alertJSON = `{"id":"5f1a0c2e8f9d4b0012345678","groupId":"5e2b0c2e8f9d4b0012345678","eventTypeName":"HOST_DOWN","status":"OPEN","created":"2026-11-01T10:00:00Z","hostnameAndPort":"db1.example.com:27017","futureField":{"kept":true}}`

func page(items string, total int, next bool) string {
	links := `[{"href":"x","rel":"self"}`
	if next {
		links += `,{"href":"y","rel":"next"}`
	}
	return `{"results":[` + items + `],"links":` + links + `],"totalCount":` + strconv.Itoa(total) + `}`
}

func TestNewCmdAlertsGroupHasEveryVerb(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdAlerts(&cmdutil.Factory{IOStreams: ios})
	got := cmdtest.Subcommands(cmd)
	want := "ack describe list unack wait"
	if strings.Join(got, " ") != want {
		t.Errorf("subcommands = %v, want %s", got, want)
	}
}

func TestNewCmdListAndDescribe(t *testing.T) {
	for _, tt := range []struct {
		name     string
		args     []string
		wantErr  string
		flagErr  bool
		checkLst func(*ListOptions) bool
		checkDsc func(*DescribeOptions) bool
	}{
		{name: "list", args: []string{}, checkLst: func(o *ListOptions) bool {
			return o.Status == "" && o.List.Page == 1 && o.List.Limit == 100 && !o.List.All && !o.Watch &&
				o.Interval == 10*time.Second && !o.IntervalSet && o.List.BackupJobsEnabledOnly == nil
		}},
		{name: "list", args: []string{"--status", "OPEN", "--page", "3", "--limit", "20"}, checkLst: func(o *ListOptions) bool {
			return o.Status == "OPEN" && o.List.Page == 3 && o.List.Limit == 20
		}},
		{name: "list", args: []string{"--all", "--watch", "--interval", "2s"}, checkLst: func(o *ListOptions) bool {
			return o.List.All && o.Watch && o.Interval == 2*time.Second && o.IntervalSet
		}},
		{name: "list", args: []string{"--interval", "10s"}, checkLst: func(o *ListOptions) bool {
			// The default value given explicitly still counts as given.
			return o.IntervalSet && !o.Watch
		}},
		{name: "list", args: []string{"--all-projects", "--all", "--parallel", "8"}, checkLst: func(o *ListOptions) bool {
			return o.AllProjects && o.List.All && o.List.Parallel == 8
		}},
		{name: "list", args: []string{}, checkLst: func(o *ListOptions) bool { return !o.AllProjects }},
		{name: "list", args: []string{"extra"}, wantErr: "unknown command"},
		{name: "list", args: []string{"--interval", "soon"}, wantErr: "invalid argument"},
		{name: "describe", args: []string{alertID}, checkDsc: func(o *DescribeOptions) bool { return o.AlertID == alertID }},
		{name: "describe", args: []string{}, wantErr: "ALERT_ID", flagErr: true},
		{name: "describe", args: []string{alertID, alertID}, wantErr: "ALERT_ID", flagErr: true},
	} {
		ios, _, _, _ := iostreams.Test()
		f := &cmdutil.Factory{IOStreams: ios}
		var gotL *ListOptions
		var gotD *DescribeOptions
		var cmd *cobra.Command
		switch tt.name {
		case "list":
			cmd = NewCmdList(f, func(_ context.Context, o *ListOptions) error { gotL = o; return nil })
		case "describe":
			cmd = NewCmdDescribe(f, func(_ context.Context, o *DescribeOptions) error { gotD = o; return nil })
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
			if gotL != nil || gotD != nil {
				t.Errorf("%s %v: runF called on bad input", tt.name, tt.args)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %v: %v", tt.name, tt.args, err)
			continue
		}
		if tt.checkLst != nil && (gotL == nil || !tt.checkLst(gotL)) {
			t.Errorf("%s %v: options %+v (list %+v)", tt.name, tt.args, gotL, gotL.List)
		}
		if tt.checkDsc != nil && (gotD == nil || !tt.checkDsc(gotD)) {
			t.Errorf("%s %v: options %+v", tt.name, tt.args, gotD)
		}
	}
}

const threeAlerts = `{"results":[{"id":"a","status":"OPEN","eventTypeName":"HOST_DOWN"},{"id":"b","status":"OPEN","eventTypeName":"BACKUP"},{"id":"c","status":"OPEN","eventTypeName":"HOST_DOWN"}],"totalCount":3}`
