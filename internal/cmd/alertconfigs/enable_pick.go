package alertconfigs

import (
	"context"
	"fmt"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmd/bulk"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/prompt"
)

// pickAndSetEnabled stands in for missing ids at a terminal: a picker of
// the project's configurations that the change would change (the
// disabled ones for enable), then the chosen ones changed as a bulk
// action, the choice being the confirmation.
func pickAndSetEnabled(ctx context.Context, opts *SetEnabledOptions, picker prompt.Prompter) error {
	r, err := opts.Resolve(cmdutil.NeedProject | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	rows, err := bulk.Choices(ctx, r.Client, api.ListAlertConfigs.Path(r.ProjectID), nil, "an alert configuration", func(c api.AlertConfig) ([]string, bool) {
		return []string{c.ID, c.EventTypeName, enabledWord(c.Enabled)}, c.Enabled != opts.Enabled
	})
	if err != nil {
		return err
	}
	verb := EnableVerb(opts.Enabled)
	if len(rows) == 0 {
		fmt.Fprintf(opts.IO.ErrOut, "No alert configuration of project %s to %s.\n", r.ProjectID, verb)
		return nil
	}
	options := prompt.Rows(opts.IO, true, []string{"ID", "EVENT", "ENABLED"}, rows, time.Time{})
	ids, err := picker.MultiSelect(ctx, "Alert configurations to "+verb, options)
	if err != nil {
		return err
	}
	opts.ConfigIDs, opts.Yes = ids, true
	return bulkSetEnabledRun(ctx, opts)
}
