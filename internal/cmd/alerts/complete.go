package alerts

import (
	"context"
	"encoding/json"
	"net/url"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
)

// completeAlertIDs suggests alert ids, open and tracking ones first, each
// described by its event type; with activeOnly (ack, unack), only those,
// since a closed or cancelled alert has nothing to acknowledge.
func completeAlertIDs(f *cmdutil.Factory, activeOnly bool) cobra.CompletionFunc {
	return cmdutil.CompleteFromAPI(f, func(ctx context.Context, c *client.Client) ([]cobra.Completion, error) {
		projectID, err := f.ProjectID()
		if err != nil {
			return nil, err
		}
		var out []cobra.Completion
		seen := map[string]bool{}
		statuses := []string{api.StatusOpen, api.StatusTracking, ""}
		if activeOnly {
			statuses = statuses[:2]
		}
		for _, status := range statuses {
			q := url.Values{}
			if status != "" {
				q.Set("status", status)
			}
			for item, err := range c.Items(ctx, alertsPath(projectID), client.ListOptions{ItemsPerPage: client.MaxItemsPerPage, Query: q}) {
				if err != nil {
					return out, err
				}
				var a api.Alert
				if json.Unmarshal(item, &a) != nil || seen[a.ID] {
					continue
				}
				seen[a.ID] = true
				out = append(out, cobra.CompletionWithDesc(a.ID, a.EventTypeName+" ("+a.Status+")"))
			}
		}
		return out, nil
	})
}

var completeStatus = cmdutil.CompleteValues(api.AlertStatuses...)
