package alertconfigs

import (
	"context"
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
)

// CompleteIDs suggests the ids of the configurations listed at path (the
// project's, or the global ones), described by event type and state.
func CompleteIDs(f *cmdutil.Factory, path func() (string, error)) cobra.CompletionFunc {
	return cmdutil.CompleteFromAPI(f, func(ctx context.Context, c *client.Client) ([]cobra.Completion, error) {
		p, err := path()
		if err != nil {
			return nil, err
		}
		var out []cobra.Completion
		for item, err := range c.Items(ctx, p, client.ListOptions{ItemsPerPage: client.MaxItemsPerPage, All: true}) {
			if err != nil {
				return out, err
			}
			var cfg api.AlertConfig
			if json.Unmarshal(item, &cfg) == nil {
				state := "disabled"
				if cfg.Enabled {
					state = "enabled"
				}
				out = append(out, cobra.CompletionWithDesc(cfg.ID, cfg.EventTypeName+" ("+state+")"))
			}
		}
		return out, nil
	})
}

func completeConfigIDs(f *cmdutil.Factory) cobra.CompletionFunc {
	return CompleteIDs(f, func() (string, error) {
		projectID, err := f.ProjectID()
		return api.ListAlertConfigs.Path(projectID), err
	})
}
