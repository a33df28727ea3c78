package root

import (
	"slices"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmd/alertconfigs"
	"github.com/omctl/omctl/internal/cmd/alerts"
	apicmd "github.com/omctl/omctl/internal/cmd/api"
	"github.com/omctl/omctl/internal/cmd/apikeys"
	"github.com/omctl/omctl/internal/cmd/apply"
	"github.com/omctl/omctl/internal/cmd/backupconfigs"
	"github.com/omctl/omctl/internal/cmd/backupjobs"
	"github.com/omctl/omctl/internal/cmd/clusters"
	configcmd "github.com/omctl/omctl/internal/cmd/config"
	fixturescmd "github.com/omctl/omctl/internal/cmd/fixtures"
	"github.com/omctl/omctl/internal/cmd/globalalertconfigs"
	"github.com/omctl/omctl/internal/cmd/globalalerts"
	"github.com/omctl/omctl/internal/cmd/oplogstores"
	"github.com/omctl/omctl/internal/cmd/orgs"
	"github.com/omctl/omctl/internal/cmd/projects"
	servercmd "github.com/omctl/omctl/internal/cmd/server"
	"github.com/omctl/omctl/internal/cmd/snapshots"
	"github.com/omctl/omctl/internal/cmd/snapshotstores"
	versioncmd "github.com/omctl/omctl/internal/cmd/version"
	"github.com/omctl/omctl/internal/cmdutil"
)

// A topCommand is one or more commands of the root, built together: the
// names and aliases they answer to (TestTopCommandsAnswerToTheirNames
// keeps these as the built commands say), the group they are listed in,
// and their constructor.
type topCommand struct {
	names []string
	group string
	build func(*cmdutil.Factory) []*cobra.Command
}

func one(build func(*cmdutil.Factory) *cobra.Command) func(*cmdutil.Factory) []*cobra.Command {
	return func(f *cmdutil.Factory) []*cobra.Command { return []*cobra.Command{build(f)} }
}

func topCommands() []topCommand {
	return []topCommand{
		{[]string{"alerts", "alert"}, "monitoring", one(alerts.NewCmdAlerts)},
		{[]string{"alertconfigs", "alertconfig"}, "monitoring", one(alertconfigs.NewCmdAlertConfigs)},
		{[]string{"globalalerts", "globalalert"}, "monitoring", one(globalalerts.NewCmdGlobalAlerts)},
		{[]string{"globalalertconfigs", "globalalertconfig"}, "monitoring", one(globalalertconfigs.NewCmdGlobalAlertConfigs)},
		{[]string{"clusters", "cluster"}, "backup", one(clusters.NewCmdClusters)},
		{[]string{"backupconfigs", "backupconfig"}, "backup", one(backupconfigs.NewCmdBackupConfigs)},
		{[]string{"snapshots", "snapshot"}, "backup", one(snapshots.NewCmdSnapshots)},
		{[]string{"projects", "project"}, "admin", one(projects.NewCmdProjects)},
		{[]string{"orgs", "org"}, "admin", one(orgs.NewCmdOrgs)},
		{[]string{"oplogstores", "oplogstore"}, "admin", one(oplogstores.NewCmdOplogStores)},
		{[]string{"snapshotstores", "snapshotstore"}, "admin", one(snapshotstores.NewCmdSnapshotStores)},
		{[]string{"backupjobs", "backupjob"}, "admin", one(backupjobs.NewCmdBackupJobs)},
		{[]string{"apikeys", "apikey"}, "admin", one(apikeys.NewCmdAPIKeys)},
		{[]string{"apply", "diff", "export"}, "admin", apply.NewCmds},
		{[]string{"api"}, "other", func(f *cmdutil.Factory) []*cobra.Command { return []*cobra.Command{apicmd.NewCmdAPI(f, nil)} }},
		{[]string{"config"}, "other", one(configcmd.NewCmdConfig)},
		{[]string{"server"}, "other", func(f *cmdutil.Factory) []*cobra.Command { return []*cobra.Command{servercmd.NewCmdServer(f, nil)} }},
		{[]string{"fixtures"}, "other", one(fixturescmd.NewCmdFixtures)},
		{[]string{"version"}, "other", func(f *cmdutil.Factory) []*cobra.Command { return []*cobra.Command{versioncmd.NewCmdVersion(f, nil)} }},
		{topicNames(), "help", func(*cmdutil.Factory) []*cobra.Command { return helpTopics() }},
	}
}

// reachable says which commands of topCommands a run with args can reach,
// so that a run builds only those (docs/performance.md, "Start-up"):
// none for `omctl --version`, the one named for `omctl alerts list ...`.
// Anything else builds them all: the root's help lists every command,
// `help` and completions walk the tree, and an unknown command is
// answered with the names it might have meant.
func reachable(args []string) func(names []string) bool {
	all := func([]string) bool { return true }
	switch {
	case len(args) == 1 && (args[0] == "--version" || args[0] == "-v"):
		return func([]string) bool { return false }
	case len(args) == 0:
		return all
	}
	for _, top := range topCommands() {
		if slices.Contains(top.names, args[0]) {
			return func(names []string) bool { return slices.Contains(names, args[0]) }
		}
	}
	return all
}
