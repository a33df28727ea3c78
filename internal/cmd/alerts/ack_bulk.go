package alerts

import (
	"context"
	"encoding/json"
	"fmt"

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
	}
	filter, err := ParseFilter(opts.Status, opts.Event)
	if err != nil {
		return err
	}
	opts.Status = filter.Status
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
	// current holds the alerts as read: a filter's list gives them, ids
	// are read one by one where needed (a kept comment, --dry-run).
	current := map[string][]byte{}
	body, err := opts.ackBody() // after the client: times count from the server's clock
	if err != nil {
		return err
	}
	if filtered {
		if ids, current, err = matchingAlerts(ctx, c, projectID, opts); err != nil {
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
	if !opts.DryRun {
		if err := bulk.Confirm(ctx, opts.Deps, opts.Yes, fmt.Sprintf("%s %d alert(s) of project %s?", cmdutil.Title(verb), len(ids), projectID)); err != nil {
			return err
		}
	}
	previews := bulk.NewPreviews(ids)
	results := bulk.Run(ctx, ids, func(ctx context.Context, id string) bulk.Result {
		path := api.AckAlert.Path(projectID, id)
		body := body
		if opts.needsCurrent() {
			alert := current[id]
			if alert == nil {
				res, err := c.Get(ctx, api.GetAlert.Path(projectID, id), nil)
				if err != nil {
					return bulk.Failure(id, err)
				}
				alert = c.Content(res)
			}
			var err error
			if body, err = opts.bodyFor(body, alert); err != nil {
				return bulk.Failure(id, err)
			}
			if opts.DryRun {
				w, err := ackPreview(path, body, alert)
				if err != nil {
					return bulk.Failure(id, err)
				}
				previews.Set(id, w)
				return bulk.Result{ID: id, Outcome: "would " + verb}
			}
		}
		res, err := c.Send(ctx, api.AckAlert.Method, path, body)
		if err != nil {
			return bulk.Failure(id, err)
		}
		var got api.Alert
		content := c.Content(res)
		if err := cmdutil.DecodeAnswer(content, "an alert", &got); err != nil {
			return bulk.Failure(id, err)
		}
		if err := ackApplied(id, body, got); err != nil {
			return bulk.Result{ID: id, Outcome: "not " + verb + "d", Detail: err.Error(), Body: json.RawMessage(content), Err: err}
		}
		r := bulk.Result{ID: id, Outcome: verb + "d", Body: json.RawMessage(content)}
		if got.AcknowledgedUntil != "" {
			r.Detail = "until " + got.AcknowledgedUntil
		}
		return r
	})
	if opts.DryRun {
		return previews.Print(opts.IO, printer.Format(), results, "alert", verb+"d")
	}
	return bulk.Report(opts.IO, printer.Format(), results, "alerts")
}

// matchingAlerts lists the project's alerts that a filter selects, with
// each as read: of --event (any when ""), in --status, or without it those
// the action means something for: OPEN and TRACKING alerts to
// acknowledge, and those of them that are acknowledged to unacknowledge.
func matchingAlerts(ctx context.Context, c *client.Client, projectID string, opts *AckOptions) ([]string, map[string][]byte, error) {
	filter := Filter{Status: opts.Status, Event: opts.Event}
	return bulk.Select(ctx, c, alertsPath(projectID), filter.Query(), "an alert", func(a api.Alert) (string, bool) {
		switch {
		case opts.Event != "" && a.EventTypeName != opts.Event:
			return "", false
		case opts.Status != "" && a.Status != opts.Status:
			return "", false
		case opts.Status == "" && a.Status != api.StatusOpen && a.Status != api.StatusTracking:
			return "", false
		case opts.Status == "" && opts.Unack && a.AcknowledgedUntil == "":
			return "", false
		}
		return a.ID, true
	})
}
