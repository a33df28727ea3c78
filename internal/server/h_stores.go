package server

import (
	"fmt"
	"net/http"
)

// renderStore applies the output rules of docs/api.md (S3 stores): no key fields with IAM_ROLE;
// the snapshot store answer always states loadFactor and s3AuthMethod.
func (c *reqCtx) renderStore(d doc, snapshot bool, path ...string) doc {
	out := make(doc, len(d))
	for k, v := range d {
		out[k] = v
	}
	if out["s3AuthMethod"] == "IAM_ROLE" {
		for _, k := range []string{"cloudAccessKey", "cloudSecretKey", "awsAccessKey", "awsSecretKey"} {
			delete(out, k)
		}
	}
	if snapshot {
		if out["s3AuthMethod"] == nil {
			out["s3AuthMethod"] = "KEYS"
		}
		if out["loadFactor"] == nil {
			out["loadFactor"] = int64(1)
		}
	}
	return withLinks(out, c.resourceHref(path...))
}

// checkStore validates a store body: the schema, then acceptedTos. pathID
// is the store named by the path of an update, "" for a creation (whose
// body must name the store). A snapshot store may be created without
// s3MaxConnections (docs/api.md, S3 stores).
func checkStore(body doc, snapshot bool, pathID string) *apiError {
	sch := s3StoreSchema(snapshot)
	var current doc
	if pathID != "" {
		sch["id"] = readOnly()
		current = doc{"id": pathID}
	} else {
		sch["id"] = str().req()
		if snapshot {
			sch["s3MaxConnections"].required = false
		}
	}
	// Types, values and unknown attributes first, then acceptedTos: an
	// explicit false is final whatever else is missing (docs/api.md, S3 stores).
	var required []string
	for _, k := range sortedKeys(sch) {
		if sch[k].required {
			required = append(required, k)
			sch[k].required = false
		}
	}
	if err := sch.check(body, "", current); err != nil {
		return err
	}
	if body["acceptedTos"] == false {
		return errBadRequest("CANNOT_CREATE_STORE_WITHOUT_ACCEPTED_TOS",
			"The store cannot be created or updated without accepting the terms of service: acceptedTos must be true.", "acceptedTos")
	}
	for _, k := range required {
		if body[k] == nil {
			return errMissing(k)
		}
	}
	if pathID == "" && body["id"] == "" {
		return errMissing("id")
	}
	if body["s3AuthMethod"] == "IAM_ROLE" {
		// A role is used and the key fields are ignored (docs/api.md, S3 stores).
		for _, k := range []string{"cloudAccessKey", "cloudSecretKey", "awsAccessKey", "awsSecretKey"} {
			delete(body, k)
		}
	}
	return nil
}

// Defaults of a snapshot store created without them (docs/api.md, S3 stores).
const (
	defaultS3MaxConnections = 50
	defaultLoadFactor       = 1
)

func (s *Server) getOplogStore(c *reqCtx) *apiError {
	if err := c.global(readAdminBackup); err != nil {
		return err
	}
	id := c.r.PathValue("store_id")
	d := s.st.oplogStores.get(id)
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
	if err := checkStore(body, false, ""); err != nil {
		return err
	}
	id := body["id"].(string)
	if s.st.oplogStores.get(id) != nil {
		return newError(http.StatusConflict, "DUPLICATE_STORE_ID", fmt.Sprintf("An oplog store with ID %s already exists.", id), id)
	}
	s.st.createOplogStore(body)
	c.ok(c.renderStore(body, false, "admin", "backup", "oplog", "s3Configs", id))
	return nil
}

func (s *Server) getSnapshotStore(c *reqCtx) *apiError {
	if err := c.global(readAdminBackup); err != nil {
		return err
	}
	id := c.r.PathValue("store_id")
	d := s.st.snapshotStores.get(id)
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
	if s.st.snapshotStores.get(id) == nil {
		return errNotFound("RESOURCE_NOT_FOUND", fmt.Sprintf("No snapshot store with ID %s exists.", id), id)
	}
	body, err := c.readObject()
	if err != nil {
		return err
	}
	if err := checkStore(body, true, id); err != nil {
		return err
	}
	body["id"] = id
	s.st.replaceSnapshotStore(body)
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
	if s.st.oplogStores.get(id) == nil {
		return errNotFound("RESOURCE_NOT_FOUND", fmt.Sprintf("No oplog store with ID %s exists.", id), id)
	}
	body, err := c.readObject()
	if err != nil {
		return err
	}
	if err := checkStore(body, false, id); err != nil {
		return err
	}
	body["id"] = id
	s.st.replaceOplogStore(body)
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
	if err := checkStore(body, true, ""); err != nil {
		return err
	}
	id := body["id"].(string)
	if s.st.snapshotStores.get(id) != nil {
		return newError(http.StatusConflict, "DUPLICATE_STORE_ID", fmt.Sprintf("A snapshot store with ID %s already exists.", id), id)
	}
	if body["s3MaxConnections"] == nil {
		body["s3MaxConnections"] = int64(defaultS3MaxConnections)
	}
	if body["loadFactor"] == nil {
		body["loadFactor"] = int64(defaultLoadFactor)
	}
	s.st.createSnapshotStore(body)
	c.ok(c.renderStore(body, true, "admin", "backup", "snapshot", "s3Configs", id))
	return nil
}
