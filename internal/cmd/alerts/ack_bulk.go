package alerts

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmd/bulk"
	"github.com/omctl/omctl/internal/cmdutil"
)

// bulkAckRun acknowledges (or unacknowledges) every alert chosen by ids or
// by --status and --event, printing one line per alert.
func bulkAckRun(ctx context.Context, opts *AckOptions) error {
	filtered := opts.Status != "" || opts.Event != ""
	args := opts.AlertIDs
	if opts.AlertID != "" {
		args = append([]string{opts.AlertID}, args...)
	}
	switch {
	case filtered && len(args) > 0:
		return cmdutil.FlagErrorf("give alert ids or --status/--event, not both")
	case !filtered && len(args) == 0:
		return cmdutil.FlagErrorf("which alerts? give ALERT_ID..., - to read ids from standard input, or --status and --event")
	case opts.Status != "" && !api.OneOf(opts.Status, api.AlertStatusFilters):
		return cmdutil.FlagErrorf("invalid --status %q: valid values are %s", opts.Status, strings.Join(api.AlertStatusFilters, ", "))
	case opts.Event != "" && !api.IsEventTypeName(opts.Event):
		return cmdutil.FlagErrorf("invalid --event %q: want an event type name in capitals, such as HOST_DOWN or REPLICA_SET", opts.Event)
	}
	if err := opts.checkAckFlags(); err != nil {
		return err
	}
	ids, err := bulk.ReadIDs(opts.IO, args, "alert")
	if err != nil {
		return err
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedProject | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	printer, projectID, c := r.Printer, r.ProjectID, r.Client
	body, err := opts.ackBody() // after the client: times count from the server's clock
	if err != nil {
		return err
	}
	if filtered {
		if ids, err = matchingAlerts(ctx, c, projectID, opts.Status, opts.Event); err != nil {
			return err
		}
	}
	if len(ids) == 0 {
		fmt.Fprintln(opts.IO.ErrOut, "No alerts to change.")
		return nil
	}
	verb := "acknowledge"
	if opts.Unack {
		verb = "unacknowledge"
	}
	results := bulk.Run(ctx, ids, func(ctx context.Context, id string) bulk.Result {
		if opts.DryRun {
			detail := ""
			if body.AcknowledgedUntil != nil {
				detail = "until " + *body.AcknowledgedUntil
			}
			return bulk.Result{ID: id, Outcome: "would " + verb, Detail: detail}
		}
		res, err := c.Send(ctx, api.AckAlert.Method, api.AckAlert.Path(projectID, id), body)
		if err != nil {
			return bulk.Failure(id, err)
		}
		var got api.Alert
		content := c.Content(res)
		if err := cmdutil.DecodeAnswer(content, "an alert", &got); err != nil {
			return bulk.Failure(id, err)
		}
		r := bulk.Result{ID: id, Outcome: verb + "d", Body: json.RawMessage(content)}
		switch {
		case got.AcknowledgedUntil != "":
			r.Detail = "until " + got.AcknowledgedUntil
		case body.AcknowledgedUntil != nil:
			r.Outcome, r.Detail = "not acknowledged", "the server's answer has no acknowledgedUntil"
		}
		return r
	})
	return bulk.Report(opts.IO, printer.Format(), results, "alerts")
}

// matchingAlerts lists the ids of the project's alerts in status (all when
// "") of event (all when "").
func matchingAlerts(ctx context.Context, c *client.Client, projectID, status, event string) ([]string, error) {
	q := url.Values{}
	if status != "" {
		q.Set("status", status)
	}
	return bulk.Select(ctx, c, alertsPath(projectID), q, "an alert", func(a api.Alert) (string, bool) {
		return a.ID, event == "" || a.EventTypeName == event
	})
}
