package cmdutil

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/client"
)

func TestParseTime(t *testing.T) {
	now := time.Date(2026, 11, 21, 8, 30, 0, 0, time.UTC)
	for in, want := range map[string]string{
		"2026-12-01T10:00:00Z":      "2026-12-01T10:00:00Z",
		"2026-12-01T10:00:00+05:30": "2026-12-01T04:30:00Z",
		"2026-12-01":                "2026-12-01T00:00:00Z",
		"4h":                        "2026-11-21T12:30:00Z",
		"90m":                       "2026-11-21T10:00:00Z",
		"7d":                        "2026-11-28T08:30:00Z",
		"2w":                        "2026-12-05T08:30:00Z",
	} {
		got, err := ParseTime(in, now)
		if err != nil || FormatTime(got) != want {
			t.Errorf("ParseTime(%q) = %v, %v; want %s", in, FormatTime(got), err, want)
		}
	}
	for _, bad := range []string{"", "tomorrow", "-4h", "4x", "12/01/2026"} {
		if _, err := ParseTime(bad, now); err == nil {
			t.Errorf("ParseTime(%q) accepted", bad)
		}
	}
	if got, _ := ParsePastTime("1d", now); FormatTime(got) != "2026-11-20T08:30:00Z" {
		t.Errorf("ParsePastTime(1d) = %v", got)
	}
}

func TestBackupJobsFlagIsSentOnlyWhenGiven(t *testing.T) {
	for args, want := range map[string]string{"": "<nil>", "--backup-jobs-enabled-only": "true", "--backup-jobs-enabled-only=false": "false"} {
		cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
		lf := AddListFlags(cmd, true)
		if args != "" {
			cmd.SetArgs([]string{args})
		} else {
			cmd.SetArgs([]string{})
		}
		if err := cmd.Execute(); err != nil {
			t.Fatal(err)
		}
		lo, err := lf.ListOptions()
		if err != nil {
			t.Fatal(err)
		}
		got := "<nil>"
		if lo.BackupJobsEnabledOnly != nil {
			got = fmt.Sprint(*lo.BackupJobsEnabledOnly)
		}
		if got != want {
			t.Errorf("%q: got %s, want %s", args, got, want)
		}
	}
}

func TestExitCodeMapping(t *testing.T) {
	for err, want := range map[error]int{
		nil:               ExitOK,
		errors.New("x"):   ExitError,
		FlagErrorf("bad"): ExitUsage,
		fmt.Errorf("wrapped: %w", FlagErrorf("bad")): ExitUsage,
		&client.APIError{StatusCode: 404}:            ExitNotFound,
		&client.APIError{StatusCode: 401}:            ExitAuth,
		&client.APIError{StatusCode: 403}:            ExitAuth,
		&client.APIError{StatusCode: 409}:            ExitError,
	} {
		if got := ExitCode(err); got != want {
			t.Errorf("ExitCode(%v) = %d, want %d", err, got, want)
		}
	}
}

func TestDescribeJSONErrorSpeaksJSON(t *testing.T) {
	var store struct {
		MaxConnections *int64 `json:"s3MaxConnections"`
		SSE            bool   `json:"sseEnabled"`
	}
	var object map[string]json.RawMessage
	for _, tc := range []struct {
		doc  string
		into any
		want string
	}{
		{`{"s3MaxConnections":"ten"}`, &store, "s3MaxConnections: got a string, want an integer"},
		{`{"s3MaxConnections":1.5}`, &store, "s3MaxConnections: got a number, want an integer"},
		{`{"sseEnabled":"yes"}`, &store, "sseEnabled: got a string, want true or false"},
		{`[1]`, &object, "got an array, want an object"},
	} {
		err := json.Unmarshal([]byte(tc.doc), tc.into)
		if got := DescribeJSONError(err); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.doc, got, tc.want)
		}
	}
}
