package cmdutil

import (
	"context"
	"encoding/json"

	"iter"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/listpage"
)

// AddAllProjectsFlag registers --all-projects on a project's list.
func AddAllProjectsFlag(cmd *cobra.Command, p *bool) {
	cmd.Flags().BoolVar(p, "all-projects", false,
		"list the items of every project the key reads (GET /groups), fetched --parallel projects at a time, with a PROJECT column")
}

// EveryProjectsPages lists the projects the key reads, then yields the
// pages of each one's list (the endpoint e, whose one placeholder is the
// project), project after project, as client.PagesOfEach fetches them.
func EveryProjectsPages(ctx context.Context, c *client.Client, e api.Endpoint, lo client.ListOptions) iter.Seq2[*listpage.Page, error] {
	return func(yield func(*listpage.Page, error) bool) {
		var paths []string
		for raw, err := range c.Items(ctx, api.ListProjects.Path(), client.ListOptions{All: true, ItemsPerPage: client.MaxItemsPerPage, Parallel: lo.Parallel}) {
			if err != nil {
				yield(nil, err)
				return
			}
			var p struct{ ID string }
			if json.Unmarshal(raw, &p) == nil && api.IsObjectID(p.ID) {
				paths = append(paths, e.Path(p.ID))
			}
		}
		for page, err := range c.PagesOfEach(ctx, paths, lo) {
			if !yield(page, err) {
				return
			}
		}
	}
}
