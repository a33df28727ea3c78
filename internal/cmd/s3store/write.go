package s3store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/rules"
)

// WriteOptions are the inputs of the create and update commands of both
// kinds of store.
type WriteOptions struct {
	cmdutil.Deps

	// StoreID is the store an update replaces; a creation takes the id
	// from the flags or the file.
	StoreID string
	Store   Flags
	// Replace sends an update's flags alone as the whole store; without
	// it (and without a file) the flags change the store as read.
	Replace bool
	DryRun  bool
}

// Help is what a store command says of itself; the rest of the command
// comes from the kind of store and the operation.
type Help struct {
	Short, Long, Example string
}

// UpdateLong is the help of a store update that calls endpoint e: how it
// changes a store, then extra, what the kind adds.
func UpdateLong(e api.Endpoint, kind rules.StoreKind, extra string) string {
	what, path := "oplog", e.Pattern
	if kind == rules.SnapshotStore {
		what = "snapshot"
	}
	return "Change the settings of an S3-compatible " + what + " store\n(PUT " + strings.Replace(path, "{store_id}", "{id}", 1) + `).

With flags alone, omctl reads the store and changes only the fields the
flags name; the rest is sent back as it was, and omctl prints which fields
the server's answer changed. The endpoint replaces the whole store, so
--replace sends the flags' fields alone, and --file sends the file (flags
overriding its fields) as the whole store; both then need every required
field: --accepted-tos, --path-style-access, --bucket-endpoint,
--bucket-name, --max-connections (positive), --sse, --uri. A secret key the
server shows only redacted is never sent back: give --secret-key. With
--auth-method IAM_ROLE the key fields are ignored and not returned.
--dry-run prints the PUT and its diff against the store, and sends nothing.` + extra
}

// NewCmdWrite builds the command of one kind of store that calls endpoint
// e: a creation (POST) or an update (PUT of STORE_ID). oplogstores and
// snapshotstores differ only in endpoint, kind and help. run sends the
// store (tests replace it).
func NewCmdWrite(f *cmdutil.Factory, e api.Endpoint, kind rules.StoreKind, help Help, run func(context.Context, *WriteOptions) error) *cobra.Command {
	opts := &WriteOptions{Deps: cmdutil.NewDeps(f)}
	op := storeOp(e)
	cmd := &cobra.Command{
		Use:     "create (--file FILE | flags)",
		Short:   help.Short,
		Long:    help.Long,
		Example: help.Example,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if op == rules.Replace {
				opts.StoreID = args[0]
			}
			return run(cmd.Context(), opts)
		},
	}
	if op == rules.Replace {
		cmd.Use = "update STORE_ID (--file FILE | flags)"
		cmd.Args = cmdutil.ExactArgs(1, "STORE_ID")
	}
	AddFlags(cmd, kind, op, &opts.Store)
	if op == rules.Replace {
		cmdutil.AddReplaceFlag(cmd, &opts.Replace)
	}
	cmdutil.AddDryRunFlag(cmd, &opts.DryRun)
	return cmd
}

// Write checks the store of opts and sends it to endpoint e: a creation
// (POST), or a change of opts.StoreID (PUT): with flags alone, the store as
// read (ReadEndpoint) with the flags' fields changed; with a file or
// --replace, the whole store given. Then it tells what the server answered.
func Write(ctx context.Context, opts *WriteOptions, e api.Endpoint, kind rules.StoreKind) error {
	storeID := opts.StoreID
	op := storeOp(e)
	readModify := op == rules.Replace && opts.Store.File == "" && !opts.Replace
	if err := opts.Store.readSecretKey(ctx, opts.Deps); err != nil {
		return err
	}
	var body, changes map[string]any
	var err error
	if readModify {
		if storeID == "" {
			return cmdutil.FlagErrorf("STORE_ID must not be empty")
		}
		if changes, err = opts.Store.Changes(); err != nil {
			return err
		}
		if len(changes) == 0 {
			return cmdutil.FlagErrorf("nothing to change: give the flags of the fields to change, or --file")
		}
		if err := CheckChanges(changes, kind); err != nil {
			return err
		}
	} else if body, err = opts.Store.Body(opts.IO, kind, op); err != nil {
		return err
	}
	method := e.Method
	var path string
	if op == rules.Replace {
		if body != nil {
			if err := CheckStoreID(body, storeID); err != nil {
				return err
			}
		}
		path = e.Path(storeID)
	} else {
		path = e.Path()
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	printer, c := r.Printer, r.Client
	what, aWhat := "oplog store", "an oplog store"
	if kind == rules.SnapshotStore {
		what, aWhat = "snapshot store", "a snapshot store"
	}
	var before json.RawMessage
	var current map[string]any
	if op == rules.Replace && (readModify || opts.DryRun) {
		if before, err = cmdutil.Current(ctx, c, ReadEndpoint(kind).Path(storeID), false); err != nil {
			return err
		}
		if current, err = cmdutil.Object(before, aWhat); err != nil {
			return err
		}
	}
	if readModify {
		if body, err = Merge(current, changes, kind); err != nil {
			return err
		}
	}
	w := cmdutil.Write{Method: method, Path: path, Body: body, Before: before, After: body}
	if opts.DryRun {
		return w.Preview(opts.IO.Out, printer.Format())
	}
	res, err := c.Send(ctx, method, path, body)
	if err != nil {
		return err
	}
	var got api.S3Store
	if err := cmdutil.DecodeAnswer(c.Content(res), aWhat, &got); err != nil {
		return err
	}
	msg := fmt.Sprintf("%s %s created", cmdutil.Title(what), got.ID)
	if got.ID == "" {
		msg = fmt.Sprintf("%s %v created; the answer does not show its id, so that is the server's word", cmdutil.Title(what), body["id"])
	}
	if op == rules.Replace {
		answer, _ := cmdutil.Object(c.Content(res), aWhat)
		var unshown []string
		if readModify {
			var differ []string
			if differ, unshown = cmdutil.Unapplied(changes, answer); len(differ) > 0 {
				return cmdutil.ErrNotApplied(what+" "+storeID, differ)
			}
		}
		msg = fmt.Sprintf("%s %s updated: %s%s", cmdutil.Title(what), storeID, cmdutil.ChangeSummary(cmdutil.ChangedFields(current, answer)), cmdutil.NotShown(unshown))
		if current == nil {
			msg = fmt.Sprintf("%s %s updated", cmdutil.Title(what), storeID)
		}
	}
	return printer.Confirm(res, TableFor(kind), msg)
}

// storeOp is what endpoint e does to a store: a PUT replaces the store its
// path names, a POST creates the one its body names.
func storeOp(e api.Endpoint) rules.StoreOp {
	if e.Method == "PUT" {
		return rules.Replace
	}
	return rules.Create
}

// ReadEndpoint is the GET of a store of the kind: an update from flags
// reads the store through it before changing the fields the flags name.
func ReadEndpoint(kind rules.StoreKind) api.Endpoint {
	if kind == rules.SnapshotStore {
		return api.GetSnapshotStore
	}
	return api.GetOplogStore
}
