package bulk

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
)

const (
	id1 = "5f1a0c2e8f9d4b0012345671"
	id2 = "5f1a0c2e8f9d4b0012345672"
	id3 = "5f1a0c2e8f9d4b0012345673"
)

func TestReadIDsFromArgsAndStandardInput(t *testing.T) {
	ios, stdin, _, _ := iostreams.Test()
	stdin.WriteString(id2 + "\tOPEN\tHOST_DOWN\n\n  " + id3 + " trailing words\n" + id1 + "\n")
	ids, err := ReadIDs(ios, []string{id1, "-"}, "alert")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(ids, ",") != id1+","+id2+","+id3 {
		t.Errorf("ids = %v", ids)
	}
}

func TestReadIDsRefusesBadIDsNamingTheLine(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"nope"}, "", `invalid alert ID "nope"`},
		{[]string{"-"}, id1 + "\nID\tSTATUS\n", `invalid alert ID "ID": want 24 hexadecimal digits (standard input, line 2)`},
		{[]string{"-", "-"}, "", "may be given once"},
	} {
		ios, stdin, _, _ := iostreams.Test()
		stdin.WriteString(tc.stdin)
		_, err := ReadIDs(ios, tc.args, "alert")
		if err == nil || !strings.Contains(err.Error(), tc.want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%v: err = %v, want %q", tc.args, err, tc.want)
		}
	}
}

func TestRunTriesEveryIDAndKeepsTheirOrder(t *testing.T) {
	var ids []string
	for i := 0; i < 30; i++ {
		ids = append(ids, strings.Repeat("0", 22)+string(rune('a'+i%26))+string(rune('a'+i/26)))
	}
	var calls atomic.Int32
	results := Run(context.Background(), ids, func(_ context.Context, id string) Result {
		calls.Add(1)
		if strings.HasSuffix(id, "ca") {
			return Failure(id, errors.New("boom"))
		}
		return Result{ID: id, Outcome: "done"}
	})
	if calls.Load() != 30 || len(results) != 30 {
		t.Fatalf("calls %d, results %d", calls.Load(), len(results))
	}
	for i, r := range results {
		if r.ID != ids[i] {
			t.Fatalf("result %d is %s, want %s", i, r.ID, ids[i])
		}
	}
	if err := Failed(results, "alerts"); err == nil || err.Error() != "1 of 30 alerts failed" {
		t.Errorf("Failed = %v", err)
	}
	if Failed(results[:2], "alerts") != nil {
		t.Errorf("no failure reported as one")
	}
}

func TestPrintTSVTableAndJSONLines(t *testing.T) {
	results := []Result{{ID: id1, Outcome: "acknowledged", Detail: "until 2026-01-01T04:00:00Z", Body: []byte(`{"id":"` + id1 + `"}`)},
		Failure(id2, errors.New("404 ALERT_NOT_FOUND: No alert\nwith that ID."))}
	ios, _, out, _ := iostreams.Test()
	if err := Print(ios, "table", results); err != nil {
		t.Fatal(err)
	}
	if want := id1 + "\tacknowledged\tuntil 2026-01-01T04:00:00Z\n" + id2 + "\tfailed\t404 ALERT_NOT_FOUND: No alert with that ID.\n"; out.String() != want {
		t.Errorf("TSV = %q, want %q", out.String(), want)
	}
	ios, _, out, _ = iostreams.Test()
	ios.SetStdoutTTY(true)
	Print(ios, "table", results)
	lines := strings.Split(out.String(), "\n")
	if !strings.HasPrefix(lines[0], "ID ") || !strings.Contains(lines[0], "RESULT") || !strings.Contains(lines[2], "failed") {
		t.Errorf("table = %q", out.String())
	}
	ios, _, out, _ = iostreams.Test()
	Print(ios, "jsonl", results)
	want := `{"id":"` + id1 + `","ok":true,"outcome":"acknowledged","detail":"until 2026-01-01T04:00:00Z","resource":{"id":"` + id1 + `"}}` + "\n" +
		`{"id":"` + id2 + `","ok":false,"outcome":"failed","detail":"404 ALERT_NOT_FOUND: No alert\nwith that ID."}` + "\n"
	if out.String() != want {
		t.Errorf("JSON lines = %q, want %q", out.String(), want)
	}
	ios, _, out, _ = iostreams.Test()
	Print(ios, "yaml", results)
	if !strings.Contains(out.String(), "id: "+id1+"\nok: true\noutcome: acknowledged\n") || !strings.Contains(out.String(), "---\nid: "+id2) {
		t.Errorf("YAML = %q", out.String())
	}
}

// `-` on a terminal says that ids are awaited and how to end them; piped,
// nothing is said.
func TestReadIDsPromptsOnATerminal(t *testing.T) {
	for _, tty := range []bool{true, false} {
		ios, in, _, errOut := iostreams.Test()
		ios.SetStdinTTY(tty)
		in.WriteString("5f1a0c2e8f9d4b0012345678\n")
		ids, err := ReadIDs(ios, []string{"-"}, "alert")
		if err != nil || len(ids) != 1 {
			t.Fatalf("%v %v", ids, err)
		}
		if prompted := strings.Contains(errOut.String(), "Reading alert ids from standard input, one a line; end with Ctrl-D"); prompted != tty {
			t.Errorf("tty %v: stderr %q", tty, errOut.String())
		}
	}
}

// What stops a run is what Report returns: Ctrl-C is ErrInterrupted (exit
// 130, no message), the command's --timeout is an error of its own, and
// stderr says which it was.
func TestReportNamesWhatStoppedTheRun(t *testing.T) {
	for _, tc := range []struct {
		cause error
		says  string
	}{
		{cmdutil.ErrInterrupted, "Interrupted: of 3 alerts, 0 done, 0 failed, 0 interrupted in flight (may or may not have been applied), 3 not started.\n"},
		{cmdutil.ErrCommandTimeout, "Stopped by --timeout: of 3 alerts, 0 done, 0 failed, 0 interrupted in flight (may or may not have been applied), 3 not started.\n"},
	} {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(tc.cause) // stopped before the first action
		results := Run(ctx, []string{id1, id2, id3}, func(_ context.Context, id string) Result {
			t.Errorf("%s started after the run was stopped", id)
			return Result{ID: id, Outcome: "done"}
		})
		ios, _, _, errOut := iostreams.Test()
		err := Report(ios, "tsv", results, "alerts")
		if !errors.Is(err, tc.cause) || errOut.String() != tc.says {
			t.Errorf("%v: Report = %v, stderr %q", tc.cause, err, errOut.String())
		}
		if tc.cause == cmdutil.ErrCommandTimeout && cmdutil.ExitCode(err) == cmdutil.ExitInterrupted {
			t.Errorf("--timeout ends with exit 130, as if interrupted")
		}
	}
}

// At a terminal the results fit its width: ids and outcomes whole, a long
// detail wrapped under its column, or below the row when the terminal
// leaves it too little room; none of it lost.
func TestResultsFitTheTerminal(t *testing.T) {
	long := "404 ALERT_NOT_FOUND: No alert with ID " + id2 + " exists in group 5e2b0c2e8f9d4b0012340001."
	results := []Result{{ID: id1, Outcome: "acknowledged", Detail: "until 2026-01-01T04:00:00Z"}, Failure(id2, errors.New(long))}
	for _, width := range []int{40, 60, 80, 120} {
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(true)
		ios.SetTerminalWidth(width)
		if err := Print(ios, "table", results); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			if len([]rune(line)) > width {
				t.Errorf("at %d columns a line is %d wide:\n%s", width, len([]rune(line)), out.String())
			}
		}
		if got := strings.Join(strings.Fields(out.String()), " "); !strings.Contains(got, id2+" failed "+long) && !strings.Contains(got, id2+" failed") ||
			!strings.Contains(got, strings.Join(strings.Fields(long), " ")) || !strings.Contains(out.String(), id1+"  acknowledged") {
			t.Errorf("at %d columns something is lost:\n%s", width, out.String())
		}
	}
}

// A write whose answer was lost (the client's ErrOutcomeUnknown) is
// reported as unknown, not failed: it may have been applied. The run's
// error counts the two apart.
func TestAWriteWhoseAnswerWasLostIsUnknownNotFailed(t *testing.T) {
	lost := fmt.Errorf("PATCH https://ops.example.com/x: %w", client.ErrOutcomeUnknown)
	results := []Result{
		{ID: id1, Outcome: "acknowledged"},
		Failure(id2, lost),
		Failure(id3, errors.New("404 ALERT_NOT_FOUND: No alert with that ID.")),
	}
	if results[1].Outcome != OutcomeUnknown || !strings.Contains(results[1].Detail, "may or may not have been applied") {
		t.Errorf("lost answer: %+v", results[1])
	}
	ios, _, out, _ := iostreams.Test()
	err := Report(ios, "table", results, "alerts")
	if !strings.Contains(out.String(), id2+"\tunknown\t") || !strings.Contains(out.String(), id3+"\tfailed\t") {
		t.Errorf("results = %q", out.String())
	}
	want := "1 of 3 alerts failed, and 1 of 3 alerts may or may not have been applied"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error = %v, want it to say %q", err, want)
	}
	if err := Failed(results[1:2], "alerts"); err == nil || strings.Contains(err.Error(), "failed") {
		t.Errorf("a lost answer alone: %v, want it not called a failure", err)
	}
}
