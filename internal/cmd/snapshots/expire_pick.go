package snapshots

import (
	"context"
	"fmt"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmd/bulk"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/prompt"
)

// pickSnapshot stands in for a missing SNAPSHOT_ID at a terminal: a
// picker of the cluster's snapshots the change can apply to, each shown
// by its id, when it was taken and when it expires. A new expiry applies
// only to a snapshot whose expiry has not passed (the server refuses it
// otherwise); do-not-delete to any snapshot not marked so already. It
// returns "" when there is none to pick.
func pickSnapshot(ctx context.Context, at place, c *client.Client, picker prompt.Prompter, ios *iostreams.IOStreams, now time.Time, doNotDelete bool) (string, error) {
	rows, err := bulk.Choices(ctx, c, at.list(), nil, "a snapshot", func(s api.Snapshot) ([]string, bool) {
		return snapshotRow(s), canChange(s, now, doNotDelete)
	})
	if err != nil {
		return "", err
	}
	if len(rows) == 0 {
		fmt.Fprintln(ios.ErrOut, "No snapshots of the cluster whose expiry can be changed so.")
		return "", nil
	}
	return picker.Select(ctx, "Snapshot whose expiry to change", prompt.Rows(ios, false, snapshotHeaders, rows, now))
}

var snapshotHeaders = []string{"ID", "CREATED", "EXPIRES"}

// canChange says whether a snapshot can take the change: do-not-delete,
// or else a new expiry, at now.
func canChange(s api.Snapshot, now time.Time, doNotDelete bool) bool {
	if doNotDelete {
		return !s.DoNotDelete
	}
	expires, err := time.Parse(time.RFC3339, s.Expires)
	return s.DoNotDelete || s.Expires == "" || err == nil && expires.After(now)
}

// snapshotRow shows a snapshot in a picker: its id, when it was taken,
// and when it expires (or that it is kept).
func snapshotRow(s api.Snapshot) []string {
	taken := ""
	if s.Created != nil {
		taken = s.Created.Date
	}
	expiry := s.Expires
	switch {
	case s.DoNotDelete:
		expiry = "do not delete"
	case s.Expires == "":
		expiry = "no expiry"
	}
	return []string{s.ID, taken, expiry}
}
