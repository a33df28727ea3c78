package server

import (
	"fmt"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store"
)

func (s *Server) findBackupConfig(c *reqCtx, need access) (string, string, doc, *apiError) {
	project, err := c.project(need)
	if err != nil {
		return "", "", nil, err
	}
	cluster := c.r.PathValue("cluster_id")
	d := c.st.BackupConfig(project, cluster)
	if d == nil {
		return "", "", nil, errNotFound("BACKUP_CONFIG_NOT_FOUND",
			fmt.Sprintf("No backup configuration for cluster %s exists in group %s.", cluster, project), cluster, project)
	}
	return project, cluster, d, nil
}

// renderBackupConfig leaves the member fields to the member request.
func (c *reqCtx) renderBackupConfig(project, cluster string, d doc, members bool) doc {
	out := make(doc, len(d))
	for k, v := range d {
		out[k] = v
	}
	if !members {
		delete(out, "availableMembers")
		delete(out, "preferredMember")
	} else if out["availableMembers"] == nil {
		out["availableMembers"] = []any{}
	}
	return withLinks(out, c.resourceHref("groups", project, "backupConfigs", cluster))
}

func (s *Server) getBackupConfig(c *reqCtx) *apiError {
	project, cluster, d, err := s.findBackupConfig(c, readBackup)
	if err != nil {
		return err
	}
	c.ok(c.renderBackupConfig(project, cluster, d, false))
	return nil
}

func (s *Server) getBackupConfigMembers(c *reqCtx) *apiError {
	project, cluster, d, err := s.findBackupConfig(c, readBackup)
	if err != nil {
		return err
	}
	c.ok(c.renderBackupConfig(project, cluster, d, true))
	return nil
}

// patchBackupConfig assigns deployment regions to shards (endpoint 11),
// and changes the settings of a backup configuration under its rules: namespace lists are
// mutually exclusive, and a change that needs a resync needs syncSource.
func (s *Server) patchBackupConfig(c *reqCtx) *apiError {
	project, cluster, d, err := s.findBackupConfig(c, writeBackup)
	if err != nil {
		return err
	}
	body, err := c.readObject()
	if err != nil {
		return err
	}
	if err := checkPathIDs(body, map[string]string{"groupId": project, "clusterId": cluster}); err != nil {
		return err
	}
	if err := rules.CheckBackupConfigChange(body, d); err != nil {
		return fromRule(err)
	}
	_, configs := body["deploymentConfigs"]
	delete(body, "syncSource")
	if configs {
		delete(body, "deploymentConfigs")
	}
	c.st.UpdateBackupConfig(d, body, configs)
	c.ok(c.renderBackupConfig(project, cluster, d, false))
	return nil
}

func (s *Server) clusterSnapshots(c *reqCtx, need access) (string, string, *store.Ordered, *apiError) {
	project, err := c.project(need)
	if err != nil {
		return "", "", nil, err
	}
	cluster := c.r.PathValue("cluster_id")
	if !api.IsObjectID(cluster) || !c.st.HasCluster(project, cluster) {
		return "", "", nil, errNotFound("CLUSTER_NOT_FOUND", fmt.Sprintf("No cluster with ID %s exists in group %s.", cluster, project), cluster, project)
	}
	return project, cluster, c.st.Snapshots(project, cluster), nil
}

func (s *Server) listSnapshots(c *reqCtx) *apiError {
	project, cluster, o, err := s.clusterSnapshots(c, readBackup)
	if err != nil {
		return err
	}
	return c.listSnapshotDocs(o, "groups", project, "clusters", cluster, "snapshots")
}

func (c *reqCtx) listSnapshotDocs(o *store.Ordered, path ...string) *apiError {
	if _, err := c.boolQuery("backupJobsEnabledOnly", true); err != nil {
		return err
	}
	p, err := c.page()
	if err != nil {
		return err
	}
	docs, total := o.Page(p)
	items := make([]doc, len(docs))
	for i, d := range docs {
		items[i] = withLinks(d, c.resourceHref(append(path, d["id"].(string))...))
	}
	c.list(items, total, p)
	return nil
}

func findSnapshot(c *reqCtx, o *store.Ordered, parent string) (doc, *apiError) {
	id := c.r.PathValue("snapshot_id")
	if !api.IsObjectID(id) {
		return nil, errNotFound("INVALID_SNAPSHOT_ID", fmt.Sprintf("An invalid snapshot ID %s was specified.", id), id)
	}
	d := o.Get(id)
	if d == nil {
		return nil, errNotFound("SNAPSHOT_NOT_FOUND", fmt.Sprintf("No snapshot with ID %s exists for %s.", id, parent), id, parent)
	}
	return d, nil
}

func (s *Server) getSnapshot(c *reqCtx) *apiError {
	project, cluster, o, err := s.clusterSnapshots(c, readBackup)
	if err != nil {
		return err
	}
	d, err := findSnapshot(c, o, "cluster "+cluster)
	if err != nil {
		return err
	}
	c.ok(withLinks(d, c.resourceHref("groups", project, "clusters", cluster, "snapshots", d["id"].(string))))
	return nil
}

// expireSnapshot changes a snapshot's expiry: doNotDelete true removes
// expires, and an expiry already in the past cannot be edited (docs/api.md, Snapshot).
func (s *Server) expireSnapshot(c *reqCtx) *apiError {
	project, cluster, o, err := s.clusterSnapshots(c, writeBackup)
	if err != nil {
		return err
	}
	d, err := findSnapshot(c, o, "cluster "+cluster)
	if err != nil {
		return err
	}
	body, err := c.readObject()
	if err != nil {
		return err
	}
	if err := checkPathIDs(body, map[string]string{"id": d["id"].(string), "groupId": project, "clusterId": cluster}); err != nil {
		return err
	}
	if err := rules.CheckSnapshotExpiry(body, d, s.clock.Now()); err != nil {
		return fromRule(err)
	}
	dnd, hasDND := body["doNotDelete"].(bool)
	expires, _ := body["expires"].(string)
	c.st.SetSnapshotExpiry(d, hasDND && dnd, expires)
	c.ok(withLinks(d, c.resourceHref("groups", project, "clusters", cluster, "snapshots", d["id"].(string))))
	return nil
}

func (s *Server) hostSnapshots(c *reqCtx) (string, string, *store.Ordered, *apiError) {
	project, err := c.project(readBackup)
	if err != nil {
		return "", "", nil, err
	}
	host := c.r.PathValue("host_id")
	o := c.st.ConfigServerSnapshots(project, host)
	if o == nil {
		return "", "", nil, errNotFound("HOST_NOT_FOUND", fmt.Sprintf("No host with ID %s exists in group %s.", host, project), host, project)
	}
	return project, host, o, nil
}

func (s *Server) listConfigServerSnapshots(c *reqCtx) *apiError {
	project, host, o, err := s.hostSnapshots(c)
	if err != nil {
		return err
	}
	return c.listSnapshotDocs(o, "groups", project, "hosts", host, "snapshots")
}

func (s *Server) getConfigServerSnapshot(c *reqCtx) *apiError {
	project, host, o, err := s.hostSnapshots(c)
	if err != nil {
		return err
	}
	d, err := findSnapshot(c, o, "host "+host)
	if err != nil {
		return err
	}
	c.ok(withLinks(d, c.resourceHref("groups", project, "hosts", host, "snapshots", d["id"].(string))))
	return nil
}

func (s *Server) getBackupJobConfig(c *reqCtx) *apiError {
	if err := c.global(readAdminBackup); err != nil {
		return err
	}
	id := c.r.PathValue("project_id")
	if !api.IsObjectID(id) {
		return errNotFound("INVALID_GROUP_ID", fmt.Sprintf("An invalid group ID %s was specified.", id), id)
	}
	d := c.st.BackupJobConfig(id)
	if d == nil {
		return errNotFound("RESOURCE_NOT_FOUND", fmt.Sprintf("No backup jobs configuration exists for group %s.", id), id)
	}
	c.ok(withLinks(d, c.resourceHref("admin", "backup", "groups", id), link(c.resourceHref("groups", id), groupLinkRel)))
	return nil
}

// putBackupJobConfig creates or replaces a project's backup jobs
// configuration; every store its filters name must exist, as a store of
// the filter's kind (docs/api.md, Backup jobs configuration).
func (s *Server) putBackupJobConfig(c *reqCtx) *apiError {
	if err := c.global(writeAdminBackup); err != nil {
		return err
	}
	id := c.r.PathValue("project_id")
	if !api.IsObjectID(id) {
		return errNotFound("INVALID_GROUP_ID", fmt.Sprintf("An invalid group ID %s was specified.", id), id)
	}
	if c.st.Project(id) == nil {
		return errNotFound("GROUP_NOT_FOUND", fmt.Sprintf("No group with ID %s exists.", id), id)
	}
	body, err := c.readObject()
	if err != nil {
		return err
	}
	if err := rules.BackupJobConfigBody().Check(body, "", doc{"id": id}); err != nil {
		return fromRule(err)
	}
	for _, f := range []struct {
		attr, kind string
		stores     *store.Ordered
	}{{"oplogStoreFilter", "oplog store", c.st.OplogStores()}, {"snapshotStoreFilter", "snapshot store", c.st.SnapshotStores()}} {
		items, _ := body[f.attr].([]any)
		for i, item := range items {
			m, _ := item.(map[string]any)
			store, _ := m["id"].(string)
			if f.stores.Get(store) == nil {
				name := fmt.Sprintf("%s[%d].id", f.attr, i)
				return errBadRequest("INVALID_ATTRIBUTE",
					fmt.Sprintf("Invalid attribute %s specified: no %s with ID %s exists.", name, f.kind, store), name, store)
			}
		}
	}
	body["id"] = id
	c.st.ReplaceBackupJobConfig(body)
	c.ok(withLinks(body, c.resourceHref("admin", "backup", "groups", id), link(c.resourceHref("groups", id), groupLinkRel)))
	return nil
}
