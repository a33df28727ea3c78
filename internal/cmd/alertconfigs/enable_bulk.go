package alertconfigs

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmd/bulk"
	"github.com/omctl/omctl/internal/cmdutil"
)

// bulkSetEnabledRun enables or disables every configuration chosen by ids
// or by --event, printing one line per configuration.
func bulkSetEnabledRun(ctx context.Context, opts *SetEnabledOptions) error {
	args := opts.ConfigIDs
	if opts.ConfigID != "" {
		args = append([]string{opts.ConfigID}, args...)
	}
	switch {
	case opts.Event != "" && len(args) > 0:
		return cmdutil.FlagErrorf("give configuration ids or --event, not both")
	case opts.Event == "" && len(args) == 0:
		return cmdutil.FlagErrorf("which configurations? give ALERT_CONFIG_ID..., - to read ids from standard input, or --event")
	case opts.Event != "" && !api.IsEventTypeName(opts.Event):
		return cmdutil.FlagErrorf("invalid --event %q: want an event type name in capitals, such as HOST_DOWN or REPLICA_SET", opts.Event)
	}
	ids, err := bulk.ReadIDs(opts.IO, args, "alert config")
	if err != nil {
		return err
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedProject | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	printer, projectID, c := r.Printer, r.ProjectID, r.Client
	current := map[string][]byte{}
	if opts.Event != "" {
		if ids, current, err = configsOfEvent(ctx, c, projectID, opts.Event, opts.Enabled); err != nil {
			return err
		}
	}
	if len(ids) == 0 {
		fmt.Fprintln(opts.IO.ErrOut, "No alert configurations to change.")
		return nil
	}
	verb := EnableVerb(opts.Enabled)
	if !opts.DryRun {
		if err := bulk.Confirm(ctx, opts.Deps, opts.Yes, fmt.Sprintf("%s %d alert configuration(s) of project %s?", cmdutil.Title(verb), len(ids), projectID)); err != nil {
			return err
		}
	}
	previews := bulk.NewPreviews(ids)
	results := bulk.Run(ctx, ids, func(ctx context.Context, id string) bulk.Result {
		if opts.DryRun {
			cfg := current[id]
			if cfg == nil {
				res, err := c.Get(ctx, api.GetAlertConfig.Path(projectID, id), nil)
				if err != nil {
					return bulk.Failure(id, err)
				}
				cfg = c.Content(res)
			}
			w, err := ProjectScope.preview(projectID, id, opts.Enabled, cfg)
			if err != nil {
				return bulk.Failure(id, err)
			}
			previews.Set(id, w)
			return bulk.Result{ID: id, Outcome: "would " + verb}
		}
		res, got, err := ProjectScope.setEnabled(ctx, c, projectID, id, opts.Enabled)
		if err != nil {
			return bulk.Failure(id, err)
		}
		return bulk.Result{ID: id, Outcome: enabledWord(opts.Enabled), Detail: got.EventTypeName, Body: json.RawMessage(c.Content(res))}
	})
	if opts.DryRun {
		if !opts.Enabled {
			if err := sayWouldCancel(ctx, opts.IO.ErrOut, c, projectID, results); err != nil {
				return err
			}
		}
		return previews.Print(opts.IO, printer.Format(), results, "alert configuration", verb+"d")
	}
	return bulk.Report(opts.IO, printer.Format(), results, "alert configurations")
}

// configsOfEvent lists the project's configurations of event that the
// change means something for (those not enabled already, to enable), with
// each as read.
func configsOfEvent(ctx context.Context, c *client.Client, projectID, event string, enabled bool) ([]string, map[string][]byte, error) {
	return bulk.Select(ctx, c, api.ListAlertConfigs.Path(projectID), nil, "an alert configuration", func(cfg api.AlertConfig) (string, bool) {
		return cfg.ID, cfg.EventTypeName == event && cfg.Enabled != enabled
	})
}

// sayWouldCancel says, for a dry run of disable, which alerts each
// configuration the run would disable would cancel: its TRACKING and OPEN
// alerts, which the API cancels with it.
func sayWouldCancel(ctx context.Context, w io.Writer, c *client.Client, projectID string, results []bulk.Result) error {
	active := map[string][]api.Alert{}
	for _, status := range []string{api.StatusOpen, api.StatusTracking} {
		lo := client.ListOptions{All: true, ItemsPerPage: client.MaxItemsPerPage, Query: url.Values{"status": {status}}}
		for raw, err := range c.Items(ctx, api.ListAlerts.Path(projectID), lo) {
			if err != nil {
				return fmt.Errorf("the alerts that disabling would cancel could not be listed: %w", err)
			}
			var a api.Alert
			if json.Unmarshal(raw, &a) == nil && a.AlertConfigID != "" {
				active[a.AlertConfigID] = append(active[a.AlertConfigID], a)
			}
		}
	}
	for _, r := range results {
		if r.Err != nil {
			continue
		}
		alerts := active[r.ID]
		if len(alerts) == 0 {
			fmt.Fprintf(w, "Disabling %s would cancel no alert: it has none TRACKING or OPEN.\n", r.ID)
			continue
		}
		fmt.Fprintf(w, "Disabling %s would cancel its %d active alert(s):\n", r.ID, len(alerts))
		for _, a := range alerts {
			fmt.Fprintf(w, "  %s  %s  %s\n", a.ID, a.Status, a.EventTypeName)
		}
	}
	return nil
}
