package cmdutil

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func TestAllAsks500APageUnlessLimitIsGiven(t *testing.T) {
	for _, tc := range []struct {
		args             []string
		perPage, workers int
		err              string
	}{
		{args: nil, perPage: 100, workers: 4},
		{args: []string{"--all"}, perPage: 500, workers: 4},
		{args: []string{"--all", "--limit", "100"}, perPage: 100, workers: 4},
		{args: []string{"--all", "--parallel", "8"}, perPage: 500, workers: 8},
		{args: []string{"--all", "--parallel", "0"}, err: "invalid --parallel 0: must be between 1 and 32"},
		{args: []string{"--all", "--parallel", "33"}, err: "invalid --parallel 33: must be between 1 and 32"},
	} {
		cmd := &cobra.Command{Use: "list", RunE: func(*cobra.Command, []string) error { return nil }}
		l := AddListFlags(cmd, false)
		cmd.SetArgs(tc.args)
		if err := cmd.Execute(); err != nil {
			t.Fatal(err)
		}
		lo, err := l.ListOptions()
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || ExitCode(err) != ExitUsage {
				t.Errorf("%v: err = %v, want %q", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil || lo.ItemsPerPage != tc.perPage || lo.Parallel != tc.workers {
			t.Errorf("%v: %d a page, %d at once, %v; want %d, %d", tc.args, lo.ItemsPerPage, lo.Parallel, err, tc.perPage, tc.workers)
		}
	}
}
