package globalalerts

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func run(t *testing.T, srv *stubapi.Server, opts ListOptions) (string, error) {
	ios, _, out, _ := iostreams.Test()
	opts.Client, opts.Printer, opts.Now = srv.Client(), stubapi.Printer(ios, "jsonl", ""), func() time.Time { return now }
	if opts.List == nil {
		opts.List = &cmdutil.ListFlags{Page: 1, Limit: 100}
	}
	err := listRun(context.Background(), &opts)
	return out.String(), err
}

func TestListSendsStatusAndDateFilters(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/globalAlerts", 200, `{"results":[{"id":"a","status":"OPEN"},{"id":"b","status":"OPEN"}],"totalCount":2}`)
	out, err := run(t, srv, ListOptions{Status: "OPEN", Since: "7d", Until: "2026-11-20"})
	if err != nil {
		t.Fatal(err)
	}
	q := srv.Only().Query
	if q.Get("status") != "OPEN" || q.Get("createdOnOrAfter") != "2026-11-14T12:00:00Z" || q.Get("createdOnOrBefore") != "2026-11-20T00:00:00Z" {
		t.Errorf("query = %v", q)
	}
	if out != `{"id":"a","status":"OPEN"}`+"\n"+`{"id":"b","status":"OPEN"}`+"\n" {
		t.Errorf("jsonl = %q", out)
	}
}

func TestListRejectsBadFilters(t *testing.T) {
	for _, tc := range []struct {
		opts ListOptions
		want string
	}{
		{ListOptions{Status: "open"}, "valid values are TRACKING, OPEN, CLOSED"},
		{ListOptions{Since: "last tuesday"}, `invalid --since "last tuesday": want RFC 3339 (2026-12-01T10:00:00Z), a date (2026-12-01) or a duration back from now`},
		{ListOptions{Since: "2026-11-20", Until: "2026-11-01"}, "is before --since"},
	} {
		srv := stubapi.New(t)
		_, err := run(t, srv, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) || len(srv.Requests()) != 0 {
			t.Errorf("%+v: err = %v", tc.opts, err)
		}
	}
}
