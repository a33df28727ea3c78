package s3store

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
)

// WriteOptions are what the create and update commands of both kinds of
// store share.
type WriteOptions struct {
	cmdutil.Deps

	Store Flags
}

// Write checks the store of opts and sends it: a creation (POST to
// basePath), or with op Update a replacement of storeID (PUT), then tells
// what the server answered.
func Write(ctx context.Context, opts *WriteOptions, kind Kind, op Op, basePath, storeID string) error {
	body, err := opts.Store.Body(opts.IO, kind, op)
	if err != nil {
		return err
	}
	method, path := http.MethodPost, basePath
	if op == Update {
		if err := CheckStoreID(body, storeID); err != nil {
			return err
		}
		method, path = http.MethodPut, basePath+"/"+url.PathEscape(storeID)
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
