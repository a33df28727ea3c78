package s3store

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
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

// NewCmdWrite builds the create or update command of one kind of store:
// oplogstores and snapshotstores differ only in kind and help. run sends
// the store (tests replace it).
func NewCmdWrite(f *cmdutil.Factory, kind Kind, op Op, help Help, run func(context.Context, *WriteOptions) error) *cobra.Command {
	opts := &WriteOptions{Deps: cmdutil.NewDeps(f)}
	cmd := &cobra.Command{
		Use:     "create (--file FILE | flags)",
		Short:   help.Short,
		Long:    help.Long,
		Example: help.Example,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if op == Update {
				opts.StoreID = args[0]
			}
			return run(cmd.Context(), opts)
		},
	}
	if op == Update {
		cmd.Use = "update STORE_ID (--file FILE | flags)"
		cmd.Args = cmdutil.ExactArgs(1, "STORE_ID")
	}
	AddFlags(cmd, kind, op, &opts.Store)
	return cmd
}

// Write checks the store of opts and sends it: a creation (POST to
// the kind's create endpoint), or with op Update a replacement of
// opts.StoreID (its put endpoint), then
// tells what the server answered.
func Write(ctx context.Context, opts *WriteOptions, kind Kind, op Op) error {
	storeID := opts.StoreID
	body, err := opts.Store.Body(opts.IO, kind, op)
	if err != nil {
		return err
	}
	e := endpointsOf[kind]
	method, path := e.create.Method, e.create.Path()
	if op == Update {
		if err := CheckStoreID(body, storeID); err != nil {
			return err
		}
		method, path = e.put.Method, e.put.Path(storeID)
	}
	r, err := opts.Resolve(cmdutil.NeedPrinter | cmdutil.NeedClient)
	if err != nil {
		return err
	}
	printer, c := r.Printer, r.Client
	res, err := c.Send(ctx, method, path, body)
	if err != nil {
		return err
	}
	what, aWhat := "oplog store", "an oplog store"
	if kind == Snapshot {
		what, aWhat = "snapshot store", "a snapshot store"
	}
	var got api.S3Store
	if err := cmdutil.DecodeAnswer(c.Content(res), aWhat, &got); err != nil {
		return err
	}
	done := "created"
	if op == Update {
		done, got.ID = "updated", storeID
	}
	return printer.Confirm(res, TableFor(kind), fmt.Sprintf("%s %s %s", cmdutil.Title(what), got.ID, done))
}
