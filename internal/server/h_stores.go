package server

import (
	"fmt"

	"github.com/omctl/omctl/internal/rules"
)

// renderStore applies the output rules of docs/api.md (S3 stores): no key fields with IAM_ROLE;
// the snapshot store answer always states loadFactor and s3AuthMethod.
func (c *reqCtx) renderStore(d doc, snapshot bool, path ...string) doc {
	out := make(doc, len(d))
	for k, v := range d {
		out[k] = v
	}
	if out["s3AuthMethod"] == "IAM_ROLE" {
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
	return withLinks(out, c.resourceHref(path...))
}

func (s *Server) getOplogStore(c *reqCtx) *apiError {
	if err := c.global(readAdminBackup); err != nil {
		return err
	}
	id := c.r.PathValue("store_id")
	d := c.st.OplogStores().Get(id)
	if d == nil {
		return errNotFound("RESOURCE_NOT_FOUND", fmt.Sprintf("No oplog store with ID %s exists.", id), id)
	}
	c.ok(c.renderStore(d, false, "admin", "backup", "oplog", "s3Configs", id))
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
	if err := c.st.CreateOplogStore(body); err != nil {
		return fromRule(err)
	}
	id := body["id"].(string)
	c.ok(c.renderStore(body, false, "admin", "backup", "oplog", "s3Configs", id))
	return nil
}

func (s *Server) getSnapshotStore(c *reqCtx) *apiError {
	if err := c.global(readAdminBackup); err != nil {
		return err
	}
	id := c.r.PathValue("store_id")
	d := c.st.SnapshotStores().Get(id)
	if d == nil {
		return errNotFound("RESOURCE_NOT_FOUND", fmt.Sprintf("No snapshot store with ID %s exists.", id), id)
	}
	c.ok(c.renderStore(d, true, "admin", "backup", "snapshot", "s3Configs", id))
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
	body["id"] = id
	c.st.ReplaceSnapshotStore(body)
	c.ok(c.renderStore(body, true, "admin", "backup", "snapshot", "s3Configs", id))
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
	body["id"] = id
	c.st.ReplaceOplogStore(body)
	c.ok(c.renderStore(body, false, "admin", "backup", "oplog", "s3Configs", id))
	return nil
}

// createSnapshotStore adds a snapshot store; s3MaxConnections and
// loadFactor take their defaults when left out.
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
	if body["s3MaxConnections"] == nil {
		body["s3MaxConnections"] = int64(rules.DefaultS3MaxConnections)
	}
	if body["loadFactor"] == nil {
		body["loadFactor"] = int64(rules.DefaultLoadFactor)
	}
	if err := c.st.CreateSnapshotStore(body); err != nil {
		return fromRule(err)
	}
	id := body["id"].(string)
	c.ok(c.renderStore(body, true, "admin", "backup", "snapshot", "s3Configs", id))
	return nil
}
