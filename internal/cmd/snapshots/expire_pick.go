package snapshots

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmd/bulk"
	"github.com/omctl/omctl/internal/output"
	"github.com/omctl/omctl/internal/prompt"
)

// pickSnapshot stands in for a missing SNAPSHOT_ID at a terminal: a
// picker of the cluster's snapshots, each shown by when it was taken and
// when it expires. It returns "" when there is none to pick.
func pickSnapshot(ctx context.Context, at place, c *client.Client, picker prompt.Prompter, now time.Time, errOut io.Writer) (string, error) {
	options, err := bulk.Options(ctx, c, at.list(), nil, "a snapshot", func(s api.Snapshot) (prompt.Option, bool) {
		return prompt.Option{Label: snapshotLabel(s, now), Value: s.ID}, true
	})
	if err != nil {
		return "", err
	}
	if len(options) == 0 {
		fmt.Fprintln(errOut, "No snapshots to choose from.")
		return "", nil
	}
	return picker.Select(ctx, "Snapshot whose expiry to change", options)
}

func snapshotLabel(s api.Snapshot, now time.Time) string {
	taken := ""
	if s.Created != nil {
		taken = s.Created.Date
		if t, err := time.Parse(time.RFC3339, s.Created.Date); err == nil {
			taken = "taken " + output.RelativeTime(t, now)
		}
	}
	expiry := "expires " + s.Expires
	switch {
	case s.DoNotDelete:
		expiry = "do not delete"
	case s.Expires == "":
		expiry = "no expiry"
	}
	return fmt.Sprintf("%-22s %-34s %s", taken, expiry, s.ID)
}
