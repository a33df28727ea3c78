package backupconfigs

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
)

func TestNewCmdDescribe(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		want    DescribeOptions
	}{
		{args: []string{cluster}, want: DescribeOptions{ClusterID: cluster}},
		{args: []string{"--members", cluster}, want: DescribeOptions{ClusterID: cluster, Members: true}},
		{args: []string{cluster, "--members=false"}, want: DescribeOptions{ClusterID: cluster}},
		{args: []string{}, wantErr: "missing CLUSTER_ID: usage: describe CLUSTER_ID [--members]"},
		{args: []string{cluster, cluster}, wantErr: "too many arguments"},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *DescribeOptions
		cmd := NewCmdDescribe(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *DescribeOptions) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			var fe *cmdutil.FlagError
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.As(err, &fe) || cmdutil.ExitCode(err) != cmdutil.ExitUsage || got != nil {
				t.Errorf("%v: error %v, want usage error %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got == nil || got.ClusterID != tt.want.ClusterID || got.Members != tt.want.Members {
			t.Errorf("%v: %v %+v", tt.args, err, got)
		}
	}
}

func TestNewCmdAssignRegions(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		usage   bool
		want    AssignRegionsOptions
	}{
		// --multi-region is on unless turned off.
		{args: []string{cluster, "--region", "shard0=us-east", "--region", "shard1=eu-west"},
			want: AssignRegionsOptions{ClusterID: cluster, Regions: []string{"shard0=us-east", "shard1=eu-west"}, MultiRegion: true}},
		// A comma is part of the value: --region is not split.
		{args: []string{"--region", "shard0=us-east,eu", "--multi-region=false", cluster},
			want: AssignRegionsOptions{ClusterID: cluster, Regions: []string{"shard0=us-east,eu"}}},
		{args: []string{cluster}, wantErr: `required flag(s) "region" not set`},
		{args: []string{"--region", "s=a"}, wantErr: "missing CLUSTER_ID", usage: true},
		{args: []string{cluster, cluster, "--region", "s=a"}, wantErr: "too many arguments", usage: true},
		{args: []string{cluster, "--region", "s=a", "--multi-region=yes"}, wantErr: `invalid argument "yes"`},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *AssignRegionsOptions
		cmd := NewCmdAssignRegions(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *AssignRegionsOptions) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			var fe *cmdutil.FlagError
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || got != nil || (tt.usage && !errors.As(err, &fe)) {
				t.Errorf("%v: error %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got == nil || got.ClusterID != tt.want.ClusterID || got.MultiRegion != tt.want.MultiRegion ||
			strings.Join(got.Regions, "|") != strings.Join(tt.want.Regions, "|") {
			t.Errorf("%v: %v %+v", tt.args, err, got)
		}
	}
}

func TestBackupConfigsGroup(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	cmd := NewCmdBackupConfigs(&cmdutil.Factory{IOStreams: ios})
	var names []string
	for _, c := range cmd.Commands() {
		names = append(names, c.Name())
	}
	if strings.Join(names, ",") != "assign-regions,describe,list" {
		t.Errorf("subcommands = %v", names)
	}
	cmd.SetArgs([]string{"show"})
	cmd.SetOut(out)
	cmd.SetErr(out)
	if err := cmd.Execute(); cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), `unknown command "show"`) {
		t.Errorf("unknown subcommand: %v", err)
	}
}
