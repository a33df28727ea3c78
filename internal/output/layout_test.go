package output

import (
	"regexp"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/omctl/omctl/internal/api"
)

const alertID = "5f1a0c2e8f9d4b0012345678"

// fits fails t unless every line is at most width columns.
func fits(t *testing.T, lines []string, width int) {
	t.Helper()
	for _, l := range lines {
		if twwidth.Width(l) > width {
			t.Errorf("%q is %d wide, over %d:\n%s", l, twwidth.Width(l), width, strings.Join(lines, "\n"))
		}
	}
}

func TestTableFitsWidthWithoutCuttingIDs(t *testing.T) {
	rows := [][]string{{alertID, strings.Repeat("a", 60), "short"}}
	lines := Lines([]string{"ID", "NAME", "COUNT"}, rows, 60, now, true)
	fits(t, lines, 60)
	if !strings.HasPrefix(lines[1], alertID+"  aaa") || !strings.Contains(lines[1], "…") {
		t.Errorf("the id is cut or the name is not: %q", lines)
	}
}

// Free text gives way before an event type; ids, statuses and times are
// never cut, and a time is shortened as a whole ("30d ago").
func TestTableColumnsGiveWayByImportance(t *testing.T) {
	headers := []string{"ID", "STATUS", "EVENT", "CREATED", "TARGET"}
	rows := [][]string{{alertID, "OPEN", "REPLICATION_OPLOG_WINDOW_RUNNING_OUT", "2026-10-22T12:00:00Z", "db-a1.example.com:27017, db-a2.example.com:27017"}}
	lines := Lines(headers, rows, 90, now, true)
	fits(t, lines, 90)
	want := regexp.MustCompile(`^` + alertID + `  OPEN    REPLICATION_OPLOG_WINDOW_RUNNING_OUT  30d ago  db-a1\.\S*…$`)
	if !want.MatchString(lines[1]) || lines[0] != "ID                        STATUS  EVENT                                 CREATED  TARGET" {
		t.Errorf("what matters was cut, or free text was not:\n%s", strings.Join(lines, "\n"))
	}
}

// The id of a table with a PROJECT column first (--all-projects) is
// never cut: issue 32's `5f1a…`.
func TestAnIDAfterTheProjectIsWhole(t *testing.T) {
	headers := []string{"PROJECT", "ID", "STATUS", "EVENT", "CREATED", "TARGET", "ACK UNTIL"}
	row := []string{"5e2b0c2e8f9d4b0012340001", alertID, "OPEN", "OUTSIDE_METRIC_THRESHOLD", "2026-10-22T12:00:00Z", "db-a1.example.com:27017", "2026-11-23T12:00:00Z"}
	for _, width := range []int{60, 80, 120} {
		lines := Lines(headers, [][]string{row}, width, now, true)
		fits(t, lines, width)
		if !strings.HasPrefix(lines[1], "5e2b0c2e8f9d4b0012340001  "+alertID+"  OPEN") {
			t.Errorf("at %d columns the ids are not whole:\n%s", width, strings.Join(lines, "\n"))
		}
	}
}

// Headers are whole words or their short forms, never stubs ending in
// "…"; codes shorten their words, never to a stub; a masked key takes no
// column while text is cut.
func TestHeadersAndCodesAreNeverStubs(t *testing.T) {
	for _, tc := range []struct {
		headers []string
		row     []string
	}{
		{[]string{"CLUSTER", "STATUS", "STORAGE ENGINE", "ENCRYPTED", "MULTI-REGION", "MISCONFIGURED", "MEMBERS"},
			[]string{"5e3c0c2e8f9d4b0012340001", "STARTED", "WIRED_TIGER", "true", "true", "false", "db-a1.example.com:27017"}},
		{[]string{"ID", "EVENT", "ENABLED", "ALL PROJECTS", "NOTIFICATIONS", "UPDATED"},
			[]string{alertID, "BACKUP_IN_UNEXPECTED_STATE", "false", "true", "ADMIN,EMAIL", "2026-11-13T12:00:00Z"}},
		{[]string{"ID", "STATUS", "EVENT", "CREATED", "TARGET", "ACK UNTIL"},
			[]string{alertID, "CANCELLED", "MONITORING_AGENT_DOWN", "2026-11-13T12:00:00Z", "rs0", "2026-11-23T12:00:00Z"}},
		{[]string{"ID", "BUCKET", "ENDPOINT", "AUTH", "MAX CONNECTIONS", "ASSIGNMENT", "LABELS", "LOAD FACTOR"},
			[]string{"blockstore-us-1", "acme-blockstore", "https://s3.us-east-1.amazonaws.com", "IAM_ROLE", "40", "true", "us", "2"}},
	} {
		for width := 40; width <= 120; width += 2 {
			lines := Lines(tc.headers, [][]string{tc.row}, width, now, true)
			fits(t, lines, width)
			for _, h := range strings.Fields(lines[0]) {
				if strings.HasSuffix(h, "…") {
					t.Errorf("at %d a header is a stub:\n%s", width, strings.Join(lines, "\n"))
				}
			}
			for i, h := range tc.headers {
				if columnOf(h, i).kind != kindCode {
					continue
				}
				for n := 1; n < len(tc.row[i]); n++ {
					if strings.Contains(lines[1], tc.row[i][:n]+"…") {
						t.Errorf("at %d the code %s is a stub:\n%s", width, tc.row[i], strings.Join(lines, "\n"))
					}
				}
			}
			if !strings.HasPrefix(lines[1], tc.row[0]) {
				t.Errorf("at %d the first column is not whole:\n%s", width, strings.Join(lines, "\n"))
			}
		}
	}
}

func TestAMaskedKeyGivesWayBeforeTheDescription(t *testing.T) {
	headers := []string{"ID", "DESCRIPTION", "PUBLIC KEY", "PRIVATE KEY", "ROLES"}
	row := []string{"5f4d0c2e8f9d4b0012340002", "production monitoring", "demomonitor", "********-****-****-****-********0002", "GROUP_MONITORING_ADMIN"}
	lines := Lines(headers, [][]string{row}, 80, now, true)
	fits(t, lines, 80)
	if strings.Contains(lines[0], "PRIVATE") || !strings.Contains(lines[1], "production monitoring") || !strings.Contains(lines[1], "demomonitor") {
		t.Errorf("the masked key took room the description needed:\n%s", strings.Join(lines, "\n"))
	}
	if lines := Lines(headers, [][]string{row}, 160, now, true); !strings.Contains(lines[0], "PRIVATE KEY") {
		t.Errorf("with room the masked key is shown:\n%s", strings.Join(lines, "\n"))
	}
}

func TestAbbreviateKeepsEveryWord(t *testing.T) {
	for _, tc := range []struct {
		code string
		n    int
		want string
	}{
		{"HOST_DOWN", 20, "HOST_DOWN"},
		{"OUTSIDE_METRIC_THRESHOLD", 14, "OUTS_METR_THRE"},
		{"OUTSIDE_METRIC_THRESHOLD", 20, "OUTSID_METRIC_THRESH"},
		{"MONITORING_AGENT_DOWN", 16, "MONIT_AGENT_DOWN"},
		{"RESYNC_REQUIRED", 14, "RESYNC_REQUIRE"},
	} {
		if got := abbreviate(tc.code, tc.n); got != tc.want {
			t.Errorf("abbreviate(%s, %d) = %s, want %s", tc.code, tc.n, got, tc.want)
		}
	}
}

// At any width, the event types the API names stay told apart once
// shortened.
func TestAbbreviatedEventTypesAreDistinct(t *testing.T) {
	for n := 8; n <= 40; n++ {
		seen := map[string]string{}
		for _, e := range api.NamedEventTypes {
			if abbreviatedWidth(e) > n {
				continue
			}
			a := abbreviate(e, n)
			if other, ok := seen[a]; ok {
				t.Errorf("at %d columns %s and %s are both %s", n, other, e, a)
			}
			seen[a] = e
		}
	}
}

func TestElidePathKeepsIDsWhole(t *testing.T) {
	p := "/groups/5e2b0c2e8f9d4b0012340001/alerts/5f1a0c2e8f9d4b0012345678?pretty=true"
	for _, tc := range []struct {
		n    int
		want string
	}{
		{100, p},
		{70, "/groups/5e2b0c2e8f9d4b0012340001/alerts/5f1a0c2e8f9d4b0012345678?pret…"},
		{40, "…/alerts/5f1a0c2e8f9d4b0012345678?prett…"},
		{35, "…/alerts/5f1a0c2e8f9d4b0012345678"},
		{30, "…/5f1a0c2e8f9d4b0012345678?pr…"},
		{26, "…/5f1a0c2e8f9d4b0012345678"},
	} {
		got := elidePath(p, tc.n)
		if got != tc.want || twwidth.Width(got) > tc.n {
			t.Errorf("elidePath(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	if w := elidedWidth(p); w != 26 {
		t.Errorf("elidedWidth = %d, want 26", w)
	}
}
