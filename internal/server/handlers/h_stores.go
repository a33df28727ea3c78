package handlers

import (
	"fmt"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/store/model"
)

// storeMembers is a store's members as the API shows them (docs/api.md,
// S3 stores): no key fields with IAM_ROLE, and a snapshot store's answer
// always states loadFactor and s3AuthMethod. They are encoded once a
// record (a record never changes): a list of stores is then copies of
// bytes, not an encoding of each store's members on every request, which
// with large stores was most of the server's time under load
// (docs/performance.md).
func storeMembers(rec *model.S3Store, snapshot bool) []byte {
	return rec.Rendered(func(members doc) []byte {
		delete(members, "links") // a fixture's, pasted from a GET: ours replace it
		if rec.AuthMethod == "IAM_ROLE" {
			for _, k := range rules.StoreKeyFields {
				delete(members, k)
			}
		}
		if snapshot {
			if members["s3AuthMethod"] == nil {
				members["s3AuthMethod"] = "KEYS"
			}
			if members["loadFactor"] == nil {
				members["loadFactor"] = int64(rules.DefaultLoadFactor)
			}
		}
		return rules.EncodeJSON(members)
	})
}

// appendStore appends a store of its kind as the API shows it, with its
// self link.
func (c *Ctx) appendStore(dst []byte, rec *model.S3Store, snapshot bool) []byte {
	kind := "oplog"
	if snapshot {
		kind = "snapshot"
	}
	return appendWithSelfLink(dst, storeMembers(rec, snapshot), c.resourceHref("admin", "backup", kind, "s3Configs", rec.ID))
}

// oplogStoreJSON and snapshotStoreJSON show a store of their kind.
func (c *Ctx) oplogStoreJSON(rec *model.S3Store) []byte { return c.appendStore(nil, rec, false) }

func (c *Ctx) snapshotStoreJSON(rec *model.S3Store) []byte { return c.appendStore(nil, rec, true) }

func (s *Handlers) getOplogStore(c *Ctx) error {
	if err := c.global(readAdminBackup); err != nil {
		return err
	}
	id := c.R.PathValue("store_id")
	rec := c.St.OplogStores().Get(id)
	if rec == nil {
		return httpx.NotFound("RESOURCE_NOT_FOUND", fmt.Sprintf("No oplog store with ID %s exists.", id), id)
	}
	c.okRaw(c.oplogStoreJSON(rec))
	return nil
}

// storeCreation is the body of a store's creation, checked without the
// data: the caller's right, then the body's rules, the id's bounds among
// them. It runs before the data lock (BeforeLock): a body the
// state file could not hold is refused the same with or without one, and
// never reaches a commit; the handler then gets what it found.
func (c *Ctx) storeCreation(kind rules.StoreKind) (doc, error) {
	if c.checked == nil {
		c.checked = &checkedBody{}
		if err := c.global(writeAdminBackup); err != nil {
			c.checked.err = err
		} else if body, err := c.ReadObject(); err != nil {
			c.checked.err = err
		} else {
			c.checked.body = body
			if rerr := rules.CheckStore(body, kind, rules.Create, ""); rerr != nil {
				c.checked.err = rerr
			}
		}
	}
	return c.checked.body, c.checked.err
}

// checkedBody is what a check before the data lock found of a body.
type checkedBody struct {
	body doc
	err  error
}

func (s *Handlers) createOplogStore(c *Ctx) error {
	body, err := c.storeCreation(rules.OplogStore)
	if err != nil {
		return err
	}
	rec, rerr := c.St.CreateOplogStore(body)
	if rerr != nil {
		return rerr
	}
	c.okRaw(c.oplogStoreJSON(rec))
	return nil
}

func (s *Handlers) getSnapshotStore(c *Ctx) error {
	if err := c.global(readAdminBackup); err != nil {
		return err
	}
	id := c.R.PathValue("store_id")
	rec := c.St.SnapshotStores().Get(id)
	if rec == nil {
		return httpx.NotFound("RESOURCE_NOT_FOUND", fmt.Sprintf("No snapshot store with ID %s exists.", id), id)
	}
	c.okRaw(c.snapshotStoreJSON(rec))
	return nil
}

func (s *Handlers) putSnapshotStore(c *Ctx) error {
	if err := c.global(writeAdminBackup); err != nil {
		return err
	}
	id := c.R.PathValue("store_id")
	if c.St.SnapshotStores().Get(id) == nil {
		return httpx.NotFound("RESOURCE_NOT_FOUND", fmt.Sprintf("No snapshot store with ID %s exists.", id), id)
	}
	body, err := c.ReadObject()
	if err != nil {
		return err
	}
	rec, err := c.St.PutSnapshotStore(id, body)
	if err != nil {
		return err
	}
	c.okRaw(c.snapshotStoreJSON(rec))
	return nil
}

// putOplogStore replaces an oplog store: the rules of a snapshot store's
// update, without loadFactor.
func (s *Handlers) putOplogStore(c *Ctx) error {
	if err := c.global(writeAdminBackup); err != nil {
		return err
	}
	id := c.R.PathValue("store_id")
	if c.St.OplogStores().Get(id) == nil {
		return httpx.NotFound("RESOURCE_NOT_FOUND", fmt.Sprintf("No oplog store with ID %s exists.", id), id)
	}
	body, err := c.ReadObject()
	if err != nil {
		return err
	}
	rec, err := c.St.PutOplogStore(id, body)
	if err != nil {
		return err
	}
	c.okRaw(c.oplogStoreJSON(rec))
	return nil
}

// createSnapshotStore adds a snapshot store.
func (s *Handlers) createSnapshotStore(c *Ctx) error {
	body, err := c.storeCreation(rules.SnapshotStore)
	if err != nil {
		return err
	}
	rec, rerr := c.St.CreateSnapshotStore(body)
	if rerr != nil {
		return rerr
	}
	c.okRaw(c.snapshotStoreJSON(rec))
	return nil
}

// listStores lists the stores of one kind, leaving out with
// assignableOnly (the default) those whose assignmentEnabled is false.
func (c *Ctx) listStores(o *model.Ordered[*model.S3Store], snapshot bool) error {
	if err := c.global(readAdminBackup); err != nil {
		return err
	}
	p, flags, err := c.listQuery("assignableOnly", "backupJobsEnabledOnly")
	if err != nil {
		return err
	}
	all, _ := o.Page(model.Page{Num: 1, Size: o.Len()})
	var shown []*model.S3Store
	for _, rec := range all {
		if !flags["assignableOnly"] || rec.Assignable() {
			shown = append(shown, rec)
		}
	}
	page, total := pageOf(shown, p)
	size, base := 0, len(c.BaseURL())
	for _, rec := range page {
		size += len(storeMembers(rec, snapshot)) + base + len(rec.ID) + 80
	}
	c.listAppend(len(page), size, total, p, func(b []byte, i int) []byte { return c.appendStore(b, page[i], snapshot) })
	return nil
}

func (s *Handlers) listOplogStores(c *Ctx) error {
	return c.listStores(c.St.OplogStores(), false)
}

func (s *Handlers) listSnapshotStores(c *Ctx) error {
	return c.listStores(c.St.SnapshotStores(), true)
}

// BeforeLock pairs the endpoints whose requests can be refused without the
// data with the check that does it before the data lock is taken: what
// reaches the state file is bounded there, so that no commit fails for
// the request's sake (a failed commit rebuilds the writers' data from the
// file, which every write waits for).
func (s *Handlers) BeforeLock() map[api.Endpoint]Func {
	return map[api.Endpoint]Func{
		api.CreateOplogStore: func(c *Ctx) error {
			_, err := c.storeCreation(rules.OplogStore)
			return err
		},
		api.CreateSnapshotStore: func(c *Ctx) error {
			_, err := c.storeCreation(rules.SnapshotStore)
			return err
		},
	}
}
