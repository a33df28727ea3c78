package alerts

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmd/bulk"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/prompt"
)

// pickStatuses are the alerts a picker offers: those an acknowledgement
// still means something for.
var pickStatuses = []string{"OPEN", "TRACKING"}

// pickAndAck stands in for missing ids at a terminal, as gh does: a
// multi-select of the project's OPEN and TRACKING alerts, each shown by
// event, target and age, then the chosen ones acknowledged as a bulk
// action, the choice being the confirmation.
func pickAndAck(ctx context.Context, opts *AckOptions, picker prompt.Prompter) error {
	if err := opts.checkAckFlags(); err != nil {
		return err
	}
	r, err := opts.Resolve(cmdutil.NeedProject | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	// The picker offers what the change can change: any OPEN or
	// TRACKING alert to acknowledge (again, for a new time), only those
	// still acknowledged to unacknowledge.
	now := opts.Now()
	var rows [][]string
	for _, status := range pickStatuses {
		more, err := bulk.Choices(ctx, r.Client, alertsPath(r.ProjectID), url.Values{"status": {status}}, "an alert", func(a api.Alert) ([]string, bool) {
			return []string{a.ID, a.Status, a.EventTypeName, Target(a), a.Created}, !opts.Unack || acknowledged(a, now)
		})
		if err != nil {
			return err
		}
		rows = append(rows, more...)
	}
	if len(rows) == 0 {
		if opts.Unack {
			fmt.Fprintf(opts.IO.ErrOut, "No acknowledged OPEN or TRACKING alerts in project %s.\n", r.ProjectID)
		} else {
			fmt.Fprintf(opts.IO.ErrOut, "No OPEN or TRACKING alerts in project %s.\n", r.ProjectID)
		}
		return nil
	}
	options := prompt.Rows(opts.IO, true, pickHeaders, rows, now)
	verb := "acknowledge"
	if opts.Unack {
		verb = "unacknowledge"
	}
	chosen, err := picker.MultiSelect(ctx, fmt.Sprintf("Alerts to %s", verb), options)
	if err != nil {
		return err
	}
	opts.AlertIDs, opts.Yes = chosen, true
	return bulkAckRun(ctx, opts)
}

// pickHeaders are the columns of an alert in a picker, its id first so
// that it is never cut and a filter can match it.
var pickHeaders = []string{"ID", "STATUS", "EVENT", "TARGET", "CREATED"}

// acknowledged says whether an alert is acknowledged at now.
func acknowledged(a api.Alert, now time.Time) bool {
	until, err := time.Parse(time.RFC3339, a.AcknowledgedUntil)
	return err == nil && until.After(now)
}
