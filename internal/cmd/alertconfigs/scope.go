package alertconfigs

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmd/bulk"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// Scope is what a project's alert configurations and the global ones
// (docs/api.md, endpoints 4 to 6 and 8 to 9) differ in for the commands
// both groups have, list, enable and disable: their endpoints, the words
// for one of them, and their table. `alertconfigs` and `globalalertconfigs`
// keep their own flags and help and run the same code through a Scope.
type Scope struct {
	// List, Get and Enable are the endpoints; a project's take the
	// project as their first value.
	List, Get, Enable api.Endpoint
	// InProject says the endpoints take the project first.
	InProject bool
	// Noun and ANoun name one configuration in messages ("alert
	// configuration", "an alert configuration"); IDName names its id in
	// a usage error ("alert config").
	Noun, ANoun, IDName string
	Table               output.TableDef
}

// ProjectScope is the alert configurations of the project of --project.
var ProjectScope = Scope{
	List: api.ListAlertConfigs, Get: api.GetAlertConfig, Enable: api.EnableAlertConfig, InProject: true,
	Noun: "alert configuration", ANoun: "an alert configuration", IDName: "alert config",
	Table: Table,
}

// need is what a command of the scope resolves.
func (s Scope) need() cmdutil.Need {
	if s.InProject {
		return cmdutil.NeedPrinter | cmdutil.NeedProject | cmdutil.NeedClient
	}
	return cmdutil.NeedPrinter | cmdutil.NeedClient
}

// path fills e's placeholders: the project first where the scope has one.
func (s Scope) path(e api.Endpoint, projectID string, values ...string) string {
	if s.InProject {
		values = append([]string{projectID}, values...)
	}
	return e.Path(values...)
}

// ListRun prints the configurations of the scope, a page or every page.
func (s Scope) ListRun(ctx context.Context, deps cmdutil.Deps, list *cmdutil.ListFlags) error {
	lo, err := list.ListOptions()
	if err != nil {
		return err
	}
	r, err := deps.Resolve(s.need())
	if err != nil {
		return err
	}
	return r.Printer.List(r.Client.Pages(ctx, s.path(s.List, r.ProjectID), lo), list.Part(), s.Table)
}

// SetEnabledRun enables or disables one configuration and confirms what
// the server answered; with dryRun it shows the change instead.
func (s Scope) SetEnabledRun(ctx context.Context, deps cmdutil.Deps, id string, enabled, dryRun bool) error {
	if err := cmdutil.CheckID(s.IDName, id); err != nil {
		return err
	}
	r, err := deps.Resolve(s.need())
	if err != nil {
		return err
	}
	if dryRun {
		current, err := cmdutil.Current(ctx, r.Client, s.path(s.Get, r.ProjectID, id), false)
		if err != nil {
			return err
		}
		w, err := s.preview(r.ProjectID, id, enabled, current)
		if err != nil {
			return err
		}
		return w.Preview(deps.IO.Out, r.Printer.Format())
	}
	res, _, err := s.setEnabled(ctx, r.Client, r.ProjectID, id, enabled)
	if err != nil {
		return err
	}
	return r.Printer.Confirm(res, s.Table, fmt.Sprintf("%s %s %s", cmdutil.Title(s.Noun), id, enabledWord(enabled)))
}

// BulkSetEnabledRun enables or disables the configurations of args (ids,
// or - for standard input), Workers at a time, one line per configuration;
// with dryRun it shows each change instead. At a terminal it asks first,
// unless yes.
func (s Scope) BulkSetEnabledRun(ctx context.Context, deps cmdutil.Deps, args []string, enabled, dryRun, yes bool) error {
	ids, err := bulk.ReadIDs(deps.IO, args, s.IDName)
	if err != nil {
		return err
	}
	r, err := deps.Resolve(s.need())
	if err != nil {
		return err
	}
	verb := EnableVerb(enabled)
	if !dryRun {
		if err := bulk.Confirm(ctx, deps, yes, fmt.Sprintf("%s %d %s(s)?", cmdutil.Title(verb), len(ids), s.Noun)); err != nil {
			return err
		}
	}
	previews := bulk.NewPreviews(ids)
	results := bulk.Run(ctx, ids, func(ctx context.Context, id string) bulk.Result {
		if dryRun {
			current, err := cmdutil.Current(ctx, r.Client, s.path(s.Get, r.ProjectID, id), false)
			if err != nil {
				return bulk.Failure(id, err)
			}
			w, err := s.preview(r.ProjectID, id, enabled, current)
			if err != nil {
				return bulk.Failure(id, err)
			}
			previews.Set(id, w)
			return bulk.Result{ID: id, Outcome: "would " + verb}
		}
		res, got, err := s.setEnabled(ctx, r.Client, r.ProjectID, id, enabled)
		if err != nil {
			return bulk.Failure(id, err)
		}
		return bulk.Result{ID: id, Outcome: enabledWord(enabled), Detail: got.EventTypeName, Body: json.RawMessage(r.Client.Content(res))}
	})
	if dryRun {
		return previews.Print(deps.IO, r.Printer.Format(), results, s.Noun, verb+"d")
	}
	return bulk.Report(deps.IO, r.Printer.Format(), results, s.Noun+"s")
}

// setEnabled sends one change, changing nothing but enabled, and reads
// the configuration the server answers with, which must not show the
// other state (an answer without enabled is the server's word).
func (s Scope) setEnabled(ctx context.Context, c *client.Client, projectID, id string, enabled bool) ([]byte, api.AlertConfig, error) {
	var got api.AlertConfig
	res, err := c.Send(ctx, s.Enable.Method, s.path(s.Enable, projectID, id), api.EnabledRequest{Enabled: enabled})
	if err != nil {
		return nil, got, err
	}
	var shown struct {
		Enabled *bool `json:"enabled"`
	}
	if err := cmdutil.DecodeAnswer(c.Content(res), s.ANoun, &got); err != nil {
		return nil, got, err
	}
	_ = json.Unmarshal(c.Content(res), &shown)
	if shown.Enabled != nil && *shown.Enabled != enabled {
		return nil, got, fmt.Errorf("the server answered with success, but its answer shows %s %s still %s", s.Noun, id, enabledWord(*shown.Enabled))
	}
	return res, got, nil
}

// preview is the change of enabled that --dry-run shows, current being
// the configuration as read.
func (s Scope) preview(projectID, id string, enabled bool, current []byte) (cmdutil.Write, error) {
	after, err := cmdutil.Object(current, s.ANoun)
	if err != nil {
		return cmdutil.Write{}, err
	}
	after["enabled"] = enabled
	return cmdutil.Write{Method: s.Enable.Method, Path: s.path(s.Enable, projectID, id), Body: api.EnabledRequest{Enabled: enabled}, Before: current, After: after}, nil
}

// EnableVerb is the command, and the action, that sets enabled.
func EnableVerb(enabled bool) string {
	if enabled {
		return "enable"
	}
	return "disable"
}

func enabledWord(enabled bool) string { return EnableVerb(enabled) + "d" }
