package root

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
)

// completions registers what shells are offered for arguments and flag
// values. Only cobra's __complete command, which a shell runs on Tab, reads
// them, so they are registered when it runs rather than on every start
// (docs/performance.md, "Start-up").
func completions(root *cobra.Command, f *cmdutil.Factory) {
	completeIDs(root, f)
	noFileCompletions(root)
}

// completeIDs offers, wherever a command takes the id of a project,
// organization, cluster, store or key, the ids of the lists that name
// them (docs/api.md, Lists and reads), described by their names. The
// commands that predate those lists get theirs here, in one place.
func completeIDs(root *cobra.Command, f *cmdutil.Factory) {
	_ = root.RegisterFlagCompletionFunc("project", cmdutil.CompleteListed(f, -1, cmdutil.ProjectsListed))
	_ = root.RegisterFlagCompletionFunc("org", cmdutil.CompleteListed(f, -1, cmdutil.OrgsListed))
	args := map[string]cmdutil.Listed{
		"backupconfigs describe":       cmdutil.ClustersListed,
		"backupconfigs assign-regions": cmdutil.ClustersListed,
		"oplogstores describe":         cmdutil.OplogStoresListed,
		"oplogstores update":           cmdutil.OplogStoresListed,
		"snapshotstores describe":      cmdutil.SnapshotStoresListed,
		"snapshotstores update":        cmdutil.SnapshotStoresListed,
		"apikeys accesslist add":       cmdutil.APIKeysListed,
		"backupjobs describe":          cmdutil.ProjectsListed,
		"backupjobs update":            cmdutil.ProjectsListed,
	}
	flags := map[string]map[string]cmdutil.Listed{
		"snapshots list":     {"cluster": cmdutil.ClustersListed},
		"snapshots describe": {"cluster": cmdutil.ClustersListed},
		"snapshots expire":   {"cluster": cmdutil.ClustersListed},
		"backupjobs update":  {"oplog-store": cmdutil.OplogStoresListed, "snapshot-store": cmdutil.SnapshotStoresListed},
	}
	for _, group := range root.Commands() {
		for _, cmd := range group.Commands() {
			path := strings.TrimPrefix(cmd.CommandPath(), root.Name()+" ")
			for _, sub := range cmd.Commands() {
				if l, ok := args[path+" "+sub.Name()]; ok && sub.ValidArgsFunction == nil {
					sub.ValidArgsFunction = cmdutil.CompleteListed(f, 0, l)
				}
			}
			if l, ok := args[path]; ok && cmd.ValidArgsFunction == nil {
				cmd.ValidArgsFunction = cmdutil.CompleteListed(f, 0, l)
			}
			for flag, l := range flags[path] {
				if cmd.Flags().Lookup(flag) != nil {
					_ = cmd.RegisterFlagCompletionFunc(flag, cmdutil.CompleteListed(f, -1, l))
				}
			}
		}
	}
}
