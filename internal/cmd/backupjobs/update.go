package backupjobs

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// UpdateOptions are the inputs of `backupjobs update`.
type UpdateOptions struct {
	cmdutil.Deps

	// Project is the PROJECT_ID argument; empty means --project or the profile's.
	Project string
	File    string
	// Replace sends the flags' fields alone, as a full replacement;
	// without it (and without File) the flags change the current
	// settings.
	Replace bool
	DryRun  bool

	// Flags that replace a field of the file; nil when not given.
	Labels         []string
	OplogStores    []string
	SnapshotStores []string
	SyncStores     []string
	KMIPCertPath   *string
}

// NewCmdUpdate builds `backupjobs update`.
func NewCmdUpdate(f *cmdutil.Factory, runF func(context.Context, *UpdateOptions) error) *cobra.Command {
	opts := &UpdateOptions{Deps: cmdutil.NewDeps(f)}
	var kmipPath string
	cmd := &cobra.Command{
		Use:   "update [PROJECT_ID] (--file FILE | flags)",
		Short: "Change, create or replace the backup job settings of a project",
		Long: `Change which daemons, stores and labels a project's backup jobs may use
(PUT /admin/backup/groups/{project_id}). PROJECT_ID defaults to --project.

With flags alone, omctl reads the current settings and changes only the
fields the flags name: everything else (labels, daemon filter, KMIP
settings, ...) is sent back as it was, and omctl prints which fields the
server's answer changed. A project without settings gets the flags' fields.
The endpoint replaces the whole settings, so --replace sends the flags'
fields alone and drops the rest; --file sends the file (with flags replacing
its fields) as the whole settings. A secret the server shows only redacted
is never sent back: omctl refuses and asks for its value.

Every store that --oplog-store or --snapshot-store (or the file's
oplogStoreFilter and snapshotStoreFilter) names must exist, or the server
refuses the settings. A flag replaces its whole list: --label us sets the
labels to [us]. --snapshot-store takes ID or ID:TYPE, TYPE being s3blockstore
(the default), blockstore or fileSystemStore. A file may repeat the
project's id, but not name another project. --dry-run prints the PUT and its
diff against the current settings, and sends nothing.`,
		Example: `  omctl backupjobs update --oplog-store oplog-us-east-1 --snapshot-store blockstore-us-1
  omctl backupjobs update --label us --dry-run
  omctl backupjobs update --replace --oplog-store oplog-us-east-1 --label us
  omctl backupjobs describe -o json > jobs.json   # edit, then:
  omctl backupjobs update --file jobs.json`,
		Args: cmdutil.RangeArgs(0, 1, "PROJECT_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Project = args[0]
			}
			if cmd.Flags().Changed("kmip-cert-path") {
				opts.KMIPCertPath = &kmipPath
			}
			for name, list := range map[string]*[]string{"label": &opts.Labels, "oplog-store": &opts.OplogStores,
				"snapshot-store": &opts.SnapshotStores, "sync-store": &opts.SyncStores} {
				if cmd.Flags().Changed(name) && *list == nil {
					*list = []string{}
				}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return updateRun(cmd.Context(), opts)
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&opts.File, "file", "f", "", "JSON file of the settings (- for standard input); flags replace its fields")
	fs.StringArrayVar(&opts.Labels, "label", nil, "label limiting the daemons and stores the jobs may use (repeatable)")
	fs.StringArrayVar(&opts.OplogStores, "oplog-store", nil, "ID of an oplog store the jobs may use (repeatable)")
	fs.StringArrayVar(&opts.SnapshotStores, "snapshot-store", nil, "ID or ID:TYPE of a snapshot store the jobs may use (repeatable)")
	fs.StringArrayVar(&opts.SyncStores, "sync-store", nil, "ID of a sync store the jobs may use (repeatable)")
	fs.StringVar(&kmipPath, "kmip-cert-path", "", "directory of the KMIP client certificate on the daemon host")
	cmdutil.AddReplaceFlag(cmd, &opts.Replace)
	cmdutil.AddDryRunFlag(cmd, &opts.DryRun)
	return cmd
}

func updateRun(ctx context.Context, opts *UpdateOptions) error {
	projectID := opts.Project
	if projectID != "" {
		if err := cmdutil.CheckID("project", projectID); err != nil {
			return err
		}
	}
	body, err := opts.body()
	if err != nil {
		return err
	}
	printer, err := opts.Printer()
	if err != nil {
		return err
	}
	if projectID == "" {
		if projectID, err = opts.ProjectID(); err != nil {
			return err
		}
	}
	if id, ok := body["id"]; ok && id != projectID {
		b, _ := json.Marshal(id)
		return cmdutil.FlagErrorf("the file's id %s is not the project %s: the settings of one project cannot be moved to another", b, projectID)
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	// The flags' fields, to merge into the current settings and to find
	// in the server's answer.
	changes := body
	readModify := opts.File == "" && !opts.Replace
	var before json.RawMessage
	var current map[string]any
	if readModify || opts.DryRun {
		if before, err = cmdutil.Current(ctx, c, api.GetBackupJobConfig.Path(projectID), true); err != nil {
			return err
		}
		if before != nil {
			if current, err = cmdutil.Object(before, "backup job settings"); err != nil {
				return err
			}
		}
	}
	if readModify && current != nil {
		if body, err = cmdutil.MergeUpdate(current, changes, nil); err != nil {
			return err
		}
	}
	w := cmdutil.Write{Method: api.PutBackupJobConfig.Method, Path: api.PutBackupJobConfig.Path(projectID), Body: body, Before: before, After: body}
	if opts.DryRun {
		return w.Preview(opts.IO.Out, printer.Format())
	}
	res, err := c.Send(ctx, w.Method, w.Path, body)
	if err != nil {
		return err
	}
	answer, err := cmdutil.Object(c.Content(res), "backup job settings")
	if err != nil {
		return err
	}
	var unshown []string
	if opts.File == "" {
		var differ []string
		if differ, unshown = cmdutil.Unapplied(changes, answer); len(differ) > 0 {
			return cmdutil.ErrNotApplied("backup job settings of project "+projectID, differ)
		}
	}
	var msg string
	switch {
	case current != nil:
		msg = fmt.Sprintf("Backup job settings of project %s saved: %s%s", projectID, cmdutil.ChangeSummary(cmdutil.ChangedFields(current, answer)), cmdutil.NotShown(unshown))
	case readModify:
		msg = fmt.Sprintf("Backup job settings of project %s created", projectID)
	default:
		msg = fmt.Sprintf("Backup job settings of project %s replaced", projectID)
	}
	return printer.Confirm(res, Table, msg)
}

// body merges the file with the flags and checks the store filters.
func (opts *UpdateOptions) body() (map[string]any, error) {
	if opts.File == "" && opts.Labels == nil && opts.SyncStores == nil && opts.KMIPCertPath == nil && opts.OplogStores == nil && opts.SnapshotStores == nil {
		return nil, cmdutil.FlagErrorf("nothing to set: give --file, or one of --label, --oplog-store, --snapshot-store, --sync-store, --kmip-cert-path")
	}
	body := map[string]any{}
	if opts.File != "" {
		raw, err := cmdutil.ReadBodyInput(opts.IO, "--file", opts.File)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(raw, &body); err != nil {
			return nil, cmdutil.FlagErrorf("--file %s: the settings must be a JSON object: %s", opts.File, cmdutil.DescribeJSONError(err))
		}
	}
	if opts.Labels != nil {
		body["labelFilter"] = opts.Labels
	}
	if opts.SyncStores != nil {
		body["syncStoreFilter"] = opts.SyncStores
	}
	if opts.KMIPCertPath != nil {
		body["kmipClientCertPath"] = *opts.KMIPCertPath
	}
	if opts.OplogStores != nil {
		filters := []api.StoreFilter{}
		for _, id := range opts.OplogStores {
			if id == "" {
				return nil, cmdutil.FlagErrorf("--oplog-store must name a store")
			}
			filters = append(filters, api.StoreFilter{ID: id, Type: "oplogStore"})
		}
		body["oplogStoreFilter"] = filters
	}
	if opts.SnapshotStores != nil {
		filters := []api.StoreFilter{}
		for _, s := range opts.SnapshotStores {
			f := api.StoreFilter{ID: s, Type: "s3blockstore"}
			if i := strings.LastIndexByte(s, ':'); i >= 0 {
				f.ID, f.Type = s[:i], s[i+1:]
				if !api.OneOf(f.Type, api.SnapshotStoreFilterTypes) {
					return nil, cmdutil.FlagErrorf("--snapshot-store %s: invalid type %q: valid types are %s", s, f.Type, strings.Join(api.SnapshotStoreFilterTypes, ", "))
				}
			}
			if f.ID == "" {
				return nil, cmdutil.FlagErrorf("--snapshot-store %s must name a store: ID or ID:TYPE", s)
			}
			filters = append(filters, f)
		}
		body["snapshotStoreFilter"] = filters
	}
	raw, _ := json.Marshal(body)
	var cfg api.BackupJobConfig
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return nil, cmdutil.FlagErrorf("invalid backup job settings: %s", cmdutil.DescribeJSONError(err))
	}
	for i, f := range cfg.OplogStoreFilter {
		if f.ID == "" {
			return nil, cmdutil.FlagErrorf("oplogStoreFilter[%d] has no id: each entry names an oplog store", i)
		}
		if f.Type != "" && f.Type != "oplogStore" {
			return nil, cmdutil.FlagErrorf("oplogStoreFilter[%d]: invalid type %q: the only valid type is oplogStore", i, f.Type)
		}
	}
	for i, f := range cfg.SnapshotStoreFilter {
		if f.ID == "" {
			return nil, cmdutil.FlagErrorf("snapshotStoreFilter[%d] has no id: each entry names a snapshot store", i)
		}
		if f.Type != "" && !api.OneOf(f.Type, api.SnapshotStoreFilterTypes) {
			return nil, cmdutil.FlagErrorf("snapshotStoreFilter[%d]: invalid type %q: valid types are %s", i, f.Type, strings.Join(api.SnapshotStoreFilterTypes, ", "))
		}
	}
	return body, nil
}
