package backupjobs

import (
	"strings"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/output"
	"github.com/omctl/omctl/internal/rules"
)

// Detail is the terminal view of `backupjobs describe`.
var Detail = output.Details("a backup job configuration", func(c api.BackupJobConfig) []output.Field {
	daemons := make([]string, len(c.DaemonFilter))
	for i, d := range c.DaemonFilter {
		daemons[i] = d.Machine
		if d.HeadRootDirectory != "" {
			daemons[i] += " " + d.HeadRootDirectory
		}
	}
	return []output.Field{
		{Name: "Project", Value: c.ID},
		{Name: "Labels", Value: strings.Join(c.LabelFilter, "\n")},
		{Name: "Oplog stores", Value: storeIDs(c.OplogStoreFilter)},
		{Name: "Snapshot stores", Value: storeIDs(c.SnapshotStoreFilter)},
		{Name: "Sync stores", Value: strings.Join(c.SyncStoreFilter, "\n")},
		{Name: "Daemons", Value: strings.Join(daemons, "\n")},
		{Name: "KMIP client cert", Value: c.KMIPClientCertPath},
		// Said to be set, never shown: -o json shows it as the server sent it.
		{Name: "KMIP password", Value: rules.Mask("kmipClientCertPassword", c.KMIPClientCertPassword)},
	}
})
