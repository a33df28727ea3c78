package s3store

import (
	"context"
	"fmt"

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
}

// Help is what a store command says of itself; the rest of the command
// comes from the kind of store and the operation.
type Help struct {
	Short, Long, Example string
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
	return cmd
}

// Write checks the store of opts and sends it to endpoint e: a creation
// (POST), or a replacement of opts.StoreID (PUT), then tells what the
// server answered.
func Write(ctx context.Context, opts *WriteOptions, e api.Endpoint, kind rules.StoreKind) error {
	storeID := opts.StoreID
	op := storeOp(e)
	body, err := opts.Store.Body(opts.IO, kind, op)
	if err != nil {
		return err
	}
	var path string
	if op == rules.Replace {
		if err := CheckStoreID(body, storeID); err != nil {
			return err
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
	res, err := c.Send(ctx, e.Method, path, body)
	if err != nil {
		return err
	}
	what, aWhat := "oplog store", "an oplog store"
	if kind == rules.SnapshotStore {
		what, aWhat = "snapshot store", "a snapshot store"
	}
	var got api.S3Store
	if err := cmdutil.DecodeAnswer(c.Content(res), aWhat, &got); err != nil {
		return err
	}
	done := "created"
	if op == rules.Replace {
		done, got.ID = "updated", storeID
	}
	return printer.Confirm(res, TableFor(kind), fmt.Sprintf("%s %s %s", cmdutil.Title(what), got.ID, done))
}

// storeOp is what endpoint e does to a store: a PUT replaces the store its
// path names, a POST creates the one its body names.
func storeOp(e api.Endpoint) rules.StoreOp {
	if e.Method == "PUT" {
		return rules.Replace
	}
	return rules.Create
}
