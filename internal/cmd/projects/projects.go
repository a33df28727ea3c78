// Package projects implements `omctl projects`: list the projects an API
// key reads and show one by id or name (the real service's project reads,
// docs/api.md).
package projects

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// NewCmdProjects is the `projects` command group.
func NewCmdProjects(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:     "projects <command>",
		Aliases: []string{"project"},
		Short:   "List projects and show one by ID or name",
	})
	cmd.AddCommand(NewCmdList(f, nil), NewCmdDescribe(f, nil))
	return cmd
}

// Table shows projects.
var Table = output.Columns([]string{"ID", "NAME", "ORG ID", "TAGS"},
	func(p api.Project) []string {
		return []string{p.ID, p.Name, p.OrgID, strings.Join(p.Tags, ",")}
	})

// Detail is the terminal view of `projects describe`.
var Detail = output.Details("a project", func(p api.Project) []output.Field {
	return []output.Field{
		{Name: "ID", Value: p.ID},
		{Name: "Name", Value: p.Name},
		{Name: "Organization", Value: p.OrgID},
		{Name: "Tags", Value: strings.Join(p.Tags, ", ")},
		{Name: "Last active agent", Value: p.LastActiveAgent},
	}
})
