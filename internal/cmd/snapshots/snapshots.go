// Package snapshots implements `omctl snapshots`: list, read and change the
// expiry of cluster snapshots, and read legacy config-server snapshots
// (endpoints 12 to 16).
package snapshots

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// NewCmdSnapshots is the `snapshots` command group.
func NewCmdSnapshots(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "snapshots <command>",
		Short: "List and read snapshots, and change when they expire",
	})
	cmd.AddCommand(NewCmdList(f, nil), NewCmdDescribe(f, nil), NewCmdExpire(f, nil))
	return cmd
}

// source says whose snapshots: a cluster's or a legacy config server's.
type source struct {
	ClusterID string
	HostID    string
}

const hostDeprecation = "legacy config servers are gone from database 3.4 on; use --cluster"

func addSourceFlags(cmd *cobra.Command, s *source) {
	cmd.Flags().StringVar(&s.ClusterID, "cluster", "", "cluster ID (24 hex digits)")
	cmd.Flags().StringVar(&s.HostID, "host", "", "legacy config server host ID (DEPRECATED: "+hostDeprecation+")")
	// Not pflag's MarkDeprecated: cobra prints its notice on the data stream.
	cmd.PreRun = func(c *cobra.Command, _ []string) {
		if c.Flags().Changed("host") {
			fmt.Fprintln(c.ErrOrStderr(), "Warning: --host is deprecated: "+hostDeprecation)
		}
	}
	cmd.MarkFlagsMutuallyExclusive("cluster", "host")
	cmd.MarkFlagsOneRequired("cluster", "host")
}

// resolve resolves what the snapshot commands need: the printer and the
// project, then whose snapshots (so a wrong --cluster or --host is
// reported, as it always was, after the project's errors and before the
// client is built), then the client.
func (s source) resolve(deps cmdutil.Deps) (cmdutil.Resolved, place, error) {
	r, err := deps.Resolve(cmdutil.NeedPrinter | cmdutil.NeedProject)
	if err != nil {
		return r, place{}, err
	}
	if err := s.check(); err != nil {
		return r, place{}, err
	}
	r.Client, err = deps.Client()
	return r, place{project: r.ProjectID, source: s}, err
}

func (s source) check() error {
	switch {
	case s.ClusterID != "" && s.HostID != "":
		return cmdutil.FlagErrorf("--cluster and --host cannot be used together")
	case s.ClusterID != "":
		return cmdutil.CheckID("cluster", s.ClusterID)
	case s.HostID != "":
		return nil
	}
	return cmdutil.FlagErrorf("say whose snapshots: --cluster CLUSTER_ID, or --host HOST_ID for a legacy config server")
}

// place is a checked source in its project: where its snapshots are.
type place struct {
	project string
	source
}

// list is the path of the snapshots.
func (p place) list() string {
	if p.ClusterID != "" {
		return api.ListSnapshots.Path(p.project, p.ClusterID)
	}
	return api.ListConfigServerSnapshots.Path(p.project, p.HostID)
}

// snapshot is the path of one snapshot.
func (p place) snapshot(id string) string {
	if p.ClusterID != "" {
		return api.GetSnapshot.Path(p.project, p.ClusterID, id)
	}
	return api.GetConfigServerSnapshot.Path(p.project, p.HostID, id)
}

// Table shows snapshots.
var Table = output.Columns([]string{"ID", "COMPLETE", "CREATED", "EXPIRES", "DO NOT DELETE", "SOURCE"},
	func(s api.Snapshot) []string {
		created := ""
		if s.Created != nil {
			created = s.Created.Date
		}
		src := s.ClusterName
		if src == "" && len(s.Parts) > 0 {
			src = s.Parts[0].HostID
			if src == "" {
				src = s.Parts[0].ReplicaSetName
			}
		}
		return []string{s.ID, strconv.FormatBool(s.Complete), created, s.Expires, strconv.FormatBool(s.DoNotDelete), src}
	})
