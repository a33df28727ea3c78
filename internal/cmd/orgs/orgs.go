// Package orgs implements `omctl orgs`: list the organizations an API key
// is in, show one, and list its projects (docs/api.md, Organization).
package orgs

import (
	"net/url"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// NewCmdOrgs is the `orgs` command group.
func NewCmdOrgs(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:     "orgs <command>",
		Aliases: []string{"org"},
		Short:   "List organizations, show one, and list its projects",
	})
	cmd.AddCommand(NewCmdList(f, nil), NewCmdDescribe(f, nil), NewCmdProjects(f, nil))
	return cmd
}

// Table shows organizations.
var Table = output.Columns([]string{"ID", "NAME"},
	func(o api.Org) []string { return []string{o.ID, o.Name} })

// Detail is the terminal view of `orgs describe`.
var Detail = output.Details("an organization", func(o api.Org) []output.Field {
	return []output.Field{{Name: "ID", Value: o.ID}, {Name: "Name", Value: o.Name}}
})

// nameQuery is the query of a list filtered by --name, nil for none.
func nameQuery(name string) url.Values {
	if name == "" {
		return nil
	}
	return url.Values{"name": {name}}
}
