package server

import (
	"fmt"

	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store"
)

// renderStore applies the output rules of docs/api.md (S3 stores): no key fields with IAM_ROLE;
// the snapshot store answer always states loadFactor and s3AuthMethod.
func (c *reqCtx) renderStore(rec *store.S3Store, snapshot bool, path ...string) doc {
	out := rec.Members()
	if rec.AuthMethod == "IAM_ROLE" {
		for _, k := range rules.StoreKeyFields {
			delete(out, k)
		}
	}
	if snapshot {
		if out["s3AuthMethod"] == nil {
			out["s3AuthMethod"] = "KEYS"
		}
		if out["loadFactor"] == nil {
			out["loadFactor"] = int64(rules.DefaultLoadFactor)
		}
	}
	return withLinks(out, c.resourceHref(append(path, rec.ID)...))
}

// renderOplogStore and renderSnapshotStore show a store of their kind.
func (c *reqCtx) renderOplogStore(rec *store.S3Store) doc {
	return c.renderStore(rec, false, "admin", "backup", "oplog", "s3Configs")
}

func (c *reqCtx) renderSnapshotStore(rec *store.S3Store) doc {
	return c.renderStore(rec, true, "admin", "backup", "snapshot", "s3Configs")
}

func (s *Server) getOplogStore(c *reqCtx) *apiError {
	if err := c.global(readAdminBackup); err != nil {
		return err
	}
	id := c.r.PathValue("store_id")
	rec := c.st.OplogStores().Get(id)
	if rec == nil {
		return errNotFound("RESOURCE_NOT_FOUND", fmt.Sprintf("No oplog store with ID %s exists.", id), id)
	}
	c.ok(c.renderOplogStore(rec))
	return nil
}

func (s *Server) createOplogStore(c *reqCtx) *apiError {
	if err := c.global(writeAdminBackup); err != nil {
		return err
	}
	body, err := c.readObject()
	if err != nil {
		return err
	}
	if err := fromRule(rules.CheckStore(body, rules.OplogStore, rules.Create, "")); err != nil {
		return err
	}
	rec, rerr := c.st.CreateOplogStore(body)
	if rerr != nil {
		return fromRule(rerr)
	}
	c.ok(c.renderOplogStore(rec))
	return nil
}

func (s *Server) getSnapshotStore(c *reqCtx) *apiError {
	if err := c.global(readAdminBackup); err != nil {
		return err
	}
	id := c.r.PathValue("store_id")
	rec := c.st.SnapshotStores().Get(id)
	if rec == nil {
		return errNotFound("RESOURCE_NOT_FOUND", fmt.Sprintf("No snapshot store with ID %s exists.", id), id)
	}
	c.ok(c.renderSnapshotStore(rec))
	return nil
}

func (s *Server) putSnapshotStore(c *reqCtx) *apiError {
	if err := c.global(writeAdminBackup); err != nil {
		return err
	}
	id := c.r.PathValue("store_id")
	if c.st.SnapshotStores().Get(id) == nil {
		return errNotFound("RESOURCE_NOT_FOUND", fmt.Sprintf("No snapshot store with ID %s exists.", id), id)
	}
	body, err := c.readObject()
	if err != nil {
		return err
	}
	if err := fromRule(rules.CheckStore(body, rules.SnapshotStore, rules.Replace, id)); err != nil {
		return err
	}
	c.ok(c.renderSnapshotStore(c.st.ReplaceSnapshotStore(id, body)))
	return nil
}

// putOplogStore replaces an oplog store: the rules of a snapshot store's
// update, without loadFactor.
func (s *Server) putOplogStore(c *reqCtx) *apiError {
	if err := c.global(writeAdminBackup); err != nil {
		return err
	}
	id := c.r.PathValue("store_id")
	if c.st.OplogStores().Get(id) == nil {
		return errNotFound("RESOURCE_NOT_FOUND", fmt.Sprintf("No oplog store with ID %s exists.", id), id)
	}
	body, err := c.readObject()
	if err != nil {
		return err
	}
	if err := fromRule(rules.CheckStore(body, rules.OplogStore, rules.Replace, id)); err != nil {
		return err
	}
	c.ok(c.renderOplogStore(c.st.ReplaceOplogStore(id, body)))
	return nil
}

// createSnapshotStore adds a snapshot store.
func (s *Server) createSnapshotStore(c *reqCtx) *apiError {
	if err := c.global(writeAdminBackup); err != nil {
		return err
	}
	body, err := c.readObject()
	if err != nil {
		return err
	}
	if err := fromRule(rules.CheckStore(body, rules.SnapshotStore, rules.Create, "")); err != nil {
		return err
	}
	rec, rerr := c.st.CreateSnapshotStore(body)
	if rerr != nil {
		return fromRule(rerr)
	}
	c.ok(c.renderSnapshotStore(rec))
	return nil
}

// listStores lists the stores of one kind, leaving out with
// assignableOnly (the default) those whose assignmentEnabled is false.
func (c *reqCtx) listStores(o *store.Ordered[*store.S3Store], render func(*store.S3Store) doc) *apiError {
	if err := c.global(readAdminBackup); err != nil {
		return err
	}
	p, flags, err := c.listQuery("assignableOnly", "backupJobsEnabledOnly")
	if err != nil {
		return err
	}
	all, _ := o.Page(store.Page{Num: 1, Size: o.Len()})
	var items []doc
	for _, rec := range all {
		if !flags["assignableOnly"] || rec.Assignable() {
			items = append(items, render(rec))
		}
	}
	page, total := pageOf(items, p)
	c.list(page, total, p)
	return nil
}

func (s *Server) listOplogStores(c *reqCtx) *apiError {
	return c.listStores(c.st.OplogStores(), c.renderOplogStore)
}

func (s *Server) listSnapshotStores(c *reqCtx) *apiError {
	return c.listStores(c.st.SnapshotStores(), c.renderSnapshotStore)
}
