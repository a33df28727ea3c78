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
		Short: "Create organization API keys and manage their access lists",
	})
	accessList := cmdutil.Group(&cobra.Command{
		Use:   "accesslist <command>",
		Short: "Manage the access list of an organization API key",
	})
	accessList.AddCommand(NewCmdAccessListAdd(f, nil))
	cmd.AddCommand(NewCmdCreate(f, nil), accessList)
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
