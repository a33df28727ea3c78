package alerts

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmd/bulk"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
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
	var options []prompt.Option
	for _, status := range pickStatuses {
		more, err := bulk.Options(ctx, r.Client, alertsPath(r.ProjectID), url.Values{"status": {status}}, "an alert", func(a api.Alert) (prompt.Option, bool) {
			return prompt.Option{Label: pickLabel(a, opts.Now()), Value: a.ID}, true
		})
		if err != nil {
			return err
		}
		options = append(options, more...)
	}
	if len(options) == 0 {
		fmt.Fprintf(opts.IO.ErrOut, "No OPEN or TRACKING alerts in project %s.\n", r.ProjectID)
		return nil
	}
	verb := "acknowledge"
	if opts.Unack {
		verb = "unacknowledge"
	}
	ids, err := picker.MultiSelect(ctx, fmt.Sprintf("Alerts to %s", verb), options)
	if err != nil {
		return err
	}
	opts.AlertIDs, opts.Yes = ids, true
	return bulkAckRun(ctx, opts)
}

// pickLabel shows an alert as a picker's line: status, event, target,
// age, and its id last, so a filter can match any of them.
func pickLabel(a api.Alert, now time.Time) string {
	age := a.Created
	if t, err := time.Parse(time.RFC3339, a.Created); err == nil {
		age = output.RelativeTime(t, now)
	}
	return fmt.Sprintf("%-8s %-28s %-30s %-14s %s", a.Status, a.EventTypeName, Target(a), age, a.ID)
}
