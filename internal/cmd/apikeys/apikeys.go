// Package apikeys implements `omctl apikeys`: create an organization API
// key in a project and add access-list entries (endpoints 21, 22).
package apikeys

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// NewCmdAPIKeys is the `apikeys` command group.
func NewCmdAPIKeys(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "apikeys <command>",
		Short: "List, show and create organization API keys and manage their access lists",
	})
	accessList := cmdutil.Group(&cobra.Command{
		Use:   "accesslist <command>",
		Short: "List, add and remove the access-list entries of an organization API key",
	})
	accessList.AddCommand(NewCmdAccessListList(f, nil), NewCmdAccessListDescribe(f, nil), NewCmdAccessListAdd(f, nil), NewCmdAccessListRemove(f, nil))
	cmd.AddCommand(NewCmdList(f, nil), NewCmdDescribe(f, nil), NewCmdCreate(f, nil), accessList)
	return cmd
}

// Table shows API keys.
var Table = output.Columns([]string{"ID", "DESCRIPTION", "PUBLIC KEY", "PRIVATE KEY", "ROLES"},
	func(k api.APIKey) []string {
		roles := make([]string, len(k.Roles))
		for i, r := range k.Roles {
			roles[i] = r.RoleName
		}
		return []string{k.ID, k.Desc, k.PublicKey, k.PrivateKey, strings.Join(roles, ",")}
	})

// AccessListTable shows access-list entries.
var AccessListTable = output.Columns([]string{"ADDRESS", "COUNT", "CREATED", "LAST USED", "LAST USED ADDRESS"},
	func(e api.AccessListEntry) []string {
		addr := e.IPAddress
		if addr == "" {
			addr = e.CIDRBlock
		}
		count := "0"
		if e.Count != nil {
			count = itoa(*e.Count)
		}
		return []string{addr, count, e.Created, e.LastUsed, e.LastUsedAddress}
	})

// Detail is the terminal view of `apikeys describe`.
var Detail = output.Details("an API key", func(k api.APIKey) []output.Field {
	roles := make([]string, len(k.Roles))
	for i, r := range k.Roles {
		roles[i] = r.RoleName + " " + r.GroupID + r.OrgID
	}
	return []output.Field{
		{Name: "ID", Value: k.ID},
		{Name: "Description", Value: k.Desc},
		{Name: "Public key", Value: k.PublicKey},
		{Name: "Private key", Value: k.PrivateKey},
		{Name: "Roles", Value: strings.Join(roles, "\n")},
	}
})

// AccessListDetail is the terminal view of `apikeys accesslist describe`.
var AccessListDetail = output.Details("an access-list entry", func(e api.AccessListEntry) []output.Field {
	count := "0"
	if e.Count != nil {
		count = itoa(*e.Count)
	}
	return []output.Field{
		{Name: "IP address", Value: e.IPAddress},
		{Name: "CIDR block", Value: e.CIDRBlock},
		{Name: "Count", Value: count},
		{Name: "Created", Value: e.Created},
		{Name: "Last used", Value: e.LastUsed},
		{Name: "Last used address", Value: e.LastUsedAddress},
	}
})

// completeKeyThenEntry completes an API key id, then an entry of its
// access list.
func completeKeyThenEntry(f *cmdutil.Factory) cobra.CompletionFunc {
	keys := cmdutil.CompleteListed(f, 0, cmdutil.APIKeysListed)
	entries := cmdutil.CompleteListed(f, 1, cmdutil.AccessListListed)
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) == 0 {
			return keys(cmd, args, toComplete)
		}
		return entries(cmd, args, toComplete)
	}
}
