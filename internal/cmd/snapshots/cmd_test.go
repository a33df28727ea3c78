package snapshots

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/output"
)

const host = "a1b2c3d4e5f60718293a4b5c6d7e8f90"

// execute runs cmd with args over ios, its runF recording the options.
// cobra's stdout is the data stream, so a warning written there is caught.
func execute(cmd *cobra.Command, ios *iostreams.IOStreams, args ...string) error {
	cmd.SetArgs(args)
	cmd.SetOut(ios.Out)
	cmd.SetErr(ios.ErrOut)
	return cmd.Execute()
}

// checkErr says whether err is the error wanted: a usage error (exit 2)
// when usage is set (cobra's own flag-group errors become usage errors
// only in root, which TestUsageErrorsExitTwo covers), containing want.
func checkErr(t *testing.T, args []string, err error, want string, usage bool) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%v: error %v, want %q", args, err, want)
		return
	}
	var fe *cmdutil.FlagError
	if usage && (!errors.As(err, &fe) || cmdutil.ExitCode(err) != cmdutil.ExitUsage) {
		t.Errorf("%v: %T %v is not a usage error", args, err, err)
	}
}

func TestNewCmdList(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		usage   bool
		warn    bool
		check   func(*ListOptions) bool
	}{
		{args: []string{"--cluster", cluster}, check: func(o *ListOptions) bool {
			lo, err := o.List.ListOptions()
			return o.Source == source{ClusterID: cluster} && err == nil && lo.PageNum == 1 && lo.ItemsPerPage == 100 &&
				!lo.All && lo.BackupJobsEnabledOnly == nil
		}},
		{args: []string{"--host", host, "--all", "--page", "3", "--parallel", "2"}, warn: true, check: func(o *ListOptions) bool {
			lo, err := o.List.ListOptions()
			// --all without --limit asks for the largest pages.
			return o.Source == source{HostID: host} && err == nil && lo.PageNum == 3 && lo.ItemsPerPage == client.MaxItemsPerPage &&
				lo.All && lo.Parallel == 2
		}},
		{args: []string{"--cluster", cluster, "--all", "--limit", "20", "--backup-jobs-enabled-only=false"}, check: func(o *ListOptions) bool {
			lo, err := o.List.ListOptions()
			return err == nil && lo.ItemsPerPage == 20 && lo.BackupJobsEnabledOnly != nil && !*lo.BackupJobsEnabledOnly
		}},
		{args: []string{}, wantErr: "at least one of the flags in the group [cluster host] is required"},
		{args: []string{"--cluster", cluster, "--host", host}, wantErr: "none of the others can be"},
		{args: []string{"--cluster", cluster, cluster}, wantErr: `unknown command "` + cluster + `"`},
		{args: []string{"--cluster", cluster, "--limit", "many"}, wantErr: `invalid argument "many" for "--limit"`},
	} {
		ios, _, stdout, stderr := iostreams.Test()
		var got *ListOptions
		cmd := NewCmdList(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *ListOptions) error { got = o; return nil })
		err := execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			checkErr(t, tt.args, err, tt.wantErr, tt.usage)
			if got != nil {
				t.Errorf("%v: run was called", tt.args)
			}
			continue
		}
		if err != nil || got == nil || !tt.check(got) {
			t.Errorf("%v: %v %+v", tt.args, err, got)
			continue
		}
		if warned := strings.Contains(stderr.String(), "Warning: --host is deprecated: "+hostDeprecation); warned != tt.warn || stdout.Len() != 0 {
			t.Errorf("%v: stderr = %q", tt.args, stderr.String())
		}
	}
}

func TestNewCmdDescribe(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		usage   bool
		warn    bool
		want    DescribeOptions
	}{
		{args: []string{snapshot, "--cluster", cluster}, want: DescribeOptions{SnapshotID: snapshot, Source: source{ClusterID: cluster}}},
		{args: []string{"--host", host, snapshot}, warn: true, want: DescribeOptions{SnapshotID: snapshot, Source: source{HostID: host}}},
		{args: []string{"--cluster", cluster}, wantErr: "missing SNAPSHOT_ID: usage: describe SNAPSHOT_ID", usage: true},
		{args: []string{snapshot, snapshot, "--cluster", cluster}, wantErr: "too many arguments", usage: true},
		{args: []string{snapshot}, wantErr: "at least one of the flags in the group [cluster host] is required"},
		{args: []string{snapshot, "--cluster", cluster, "--host", host}, wantErr: "none of the others can be"},
		{args: []string{snapshot, "--cluster"}, wantErr: "flag needs an argument: --cluster"},
	} {
		ios, _, stdout, stderr := iostreams.Test()
		var got *DescribeOptions
		cmd := NewCmdDescribe(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *DescribeOptions) error { got = o; return nil })
		err := execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			checkErr(t, tt.args, err, tt.wantErr, tt.usage)
			if got != nil {
				t.Errorf("%v: run was called", tt.args)
			}
			continue
		}
		if err != nil || got == nil || got.SnapshotID != tt.want.SnapshotID || got.Source != tt.want.Source {
			t.Errorf("%v: %v %+v", tt.args, err, got)
			continue
		}
		if warned := strings.Contains(stderr.String(), "--host is deprecated"); warned != tt.warn || stdout.Len() != 0 {
			t.Errorf("%v: stderr = %q", tt.args, stderr.String())
		}
	}
}

func TestNewCmdExpire(t *testing.T) {
	now := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		args    []string
		wantErr string
		usage   bool
		want    ExpireOptions
	}{
		{args: []string{snapshot, "--cluster", cluster, "--expires", "30d"}, want: ExpireOptions{SnapshotID: snapshot, ClusterID: cluster, Expires: "30d"}},
		{args: []string{"--do-not-delete", "--cluster", cluster, snapshot}, want: ExpireOptions{SnapshotID: snapshot, ClusterID: cluster, DoNotDelete: true}},
		// Without SNAPSHOT_ID, run offers a picker or refuses (TestExpireWithoutIDPicksOrRefuses).
		{args: []string{"--cluster", cluster, "--expires", "30d"}, want: ExpireOptions{ClusterID: cluster, Expires: "30d"}},
		{args: []string{snapshot, "x", "--cluster", cluster, "--expires", "30d"}, wantErr: `too many arguments ["x"]`, usage: true},
		{args: []string{snapshot, "--expires", "30d"}, wantErr: `required flag(s) "cluster" not set`},
		{args: []string{snapshot, "--cluster", cluster}, wantErr: "at least one of the flags in the group [expires do-not-delete] is required"},
		{args: []string{snapshot, "--cluster", cluster, "--expires", "30d", "--do-not-delete"}, wantErr: "none of the others can be"},
		{args: []string{snapshot, "--cluster", cluster, "--do-not-delete=maybe"}, wantErr: `invalid argument "maybe"`},
		// expire changes cluster snapshots only.
		{args: []string{snapshot, "--host", host, "--do-not-delete"}, wantErr: "unknown flag: --host"},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *ExpireOptions
		f := &cmdutil.Factory{IOStreams: ios, Now: func() time.Time { return now }}
		cmd := NewCmdExpire(f, func(_ context.Context, o *ExpireOptions) error { got = o; return nil })
		err := execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			checkErr(t, tt.args, err, tt.wantErr, tt.usage)
			if got != nil {
				t.Errorf("%v: run was called", tt.args)
			}
			continue
		}
		if err != nil || got == nil || got.SnapshotID != tt.want.SnapshotID || got.ClusterID != tt.want.ClusterID ||
			got.Expires != tt.want.Expires || got.DoNotDelete != tt.want.DoNotDelete {
			t.Errorf("%v: %v %+v", tt.args, err, got)
			continue
		}
		// The clock is the factory's, so tests and the command agree on now.
		if got.Now == nil || !got.Now().Equal(now) {
			t.Errorf("%v: Now is not the factory's", tt.args)
		}
	}
}

func TestSnapshotsGroup(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	cmd := NewCmdSnapshots(&cmdutil.Factory{IOStreams: ios})
	var names []string
	for _, c := range cmd.Commands() {
		names = append(names, c.Name())
	}
	if strings.Join(names, ",") != "describe,expire,list" {
		t.Errorf("subcommands = %v", names)
	}
	cmd.SetArgs([]string{"lst"})
	cmd.SetOut(out)
	cmd.SetErr(out)
	err := cmd.Execute()
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), "did you mean list?") {
		t.Errorf("unknown subcommand: %v", err)
	}
}

// printer is a printer with a fixed clock, so relative times are stable.
func printer(ios *iostreams.IOStreams, format string, now time.Time) func() (*output.Printer, error) {
	return func() (*output.Printer, error) {
		return output.New(ios, output.Options{Format: format, Now: func() time.Time { return now }})
	}
}
