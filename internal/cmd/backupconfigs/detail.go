package backupconfigs

import (
	"strconv"
	"strings"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/output"
)

// Detail is the terminal view of `backupconfigs describe`, with the
// members available for backup and the preferred one when --members
// asked for them.
var Detail = output.Details("a backup configuration", func(c api.BackupConfig) []output.Field {
	regions := make([]string, len(c.DeploymentConfigs))
	for i, d := range c.DeploymentConfigs {
		regions[i] = d.RSID + "=" + d.DeploymentID
	}
	return []output.Field{
		{Name: "Cluster", Value: c.ClusterID},
		{Name: "Project", Value: c.GroupID},
		{Name: "Status", Value: c.StatusName},
		{Name: "Storage engine", Value: c.StorageEngineName},
		{Name: "Encrypted", Value: strconv.FormatBool(c.EncryptionEnabled)},
		{Name: "TLS", Value: strconv.FormatBool(c.SSLEnabled)},
		{Name: "Auth mechanism", Value: c.AuthMechanismName},
		{Name: "Multi-region", Value: strconv.FormatBool(c.MultiRegionBackupEnabled)},
		{Name: "Misconfigured", Value: strconv.FormatBool(c.MultiRegionMisconfigured)},
		{Name: "Deployment regions", Value: strings.Join(regions, "\n")},
		{Name: "Included namespaces", Value: strings.Join(c.IncludedNamespaces, "\n")},
		{Name: "Excluded namespaces", Value: strings.Join(c.ExcludedNamespaces, "\n")},
		{Name: "Preferred member", Value: c.PreferredMember},
		{Name: "Available members", Value: strings.Join(c.AvailableMembers, "\n")},
	}
})
