package handlers

import (
	"fmt"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/store/model"
)

func (s *Handlers) findBackupConfig(c *Ctx, need access) (*model.BackupConfig, error) {
	project, err := c.project(need)
	if err != nil {
		return nil, err
	}
	cluster := c.R.PathValue("cluster_id")
	cfg := c.St.BackupConfig(project, cluster)
	if cfg == nil {
		return nil, httpx.NotFound("BACKUP_CONFIG_NOT_FOUND",
			fmt.Sprintf("No backup configuration for cluster %s exists in group %s.", cluster, project), cluster, project)
	}
	return cfg, nil
}

// renderBackupConfig leaves the member fields to the member request.
func (c *Ctx) renderBackupConfig(cfg *model.BackupConfig, members bool) doc {
	out := cfg.Members()
	delete(out, "password") // a credential: never returned
	if !members {
		delete(out, "availableMembers")
		delete(out, "preferredMember")
	} else if out["availableMembers"] == nil {
		out["availableMembers"] = []any{}
	}
	return withLinks(out, c.resourceHref("groups", cfg.GroupID, "backupConfigs", cfg.ClusterID))
}

func (s *Handlers) getBackupConfig(c *Ctx) error {
	cfg, err := s.findBackupConfig(c, readBackup)
	if err != nil {
		return err
	}
	c.ok(c.renderBackupConfig(cfg, false))
	return nil
}

// listBackupConfigs lists a project's backup configurations, each as
// getBackupConfig shows it.
func (s *Handlers) listBackupConfigs(c *Ctx) error {
	project, err := c.project(readBackup)
	if err != nil {
		return err
	}
	p, _, err := c.listQuery("backupJobsEnabledOnly")
	if err != nil {
		return err
	}
	cfgs, total := pageOf(c.St.BackupConfigs(project), p)
	items := make([]doc, len(cfgs))
	for i, cfg := range cfgs {
		items[i] = c.renderBackupConfig(cfg, false)
	}
	c.list(items, total, p)
	return nil
}

func (s *Handlers) getBackupConfigMembers(c *Ctx) error {
	cfg, err := s.findBackupConfig(c, readBackup)
	if err != nil {
		return err
	}
	c.ok(c.renderBackupConfig(cfg, true))
	return nil
}

// patchBackupConfig assigns deployment regions to shards (endpoint 11),
// and changes the settings of a backup configuration under its rules: namespace lists are
// mutually exclusive, and a change that needs a resync needs syncSource.
func (s *Handlers) patchBackupConfig(c *Ctx) error {
	cfg, err := s.findBackupConfig(c, writeBackup)
	if err != nil {
		return err
	}
	body, err := c.ReadObject()
	if err != nil {
		return err
	}
	updated, err := c.St.PatchBackupConfig(cfg, body)
	if err != nil {
		return err
	}
	c.ok(c.renderBackupConfig(updated, false))
	return nil
}

func (s *Handlers) clusterSnapshots(c *Ctx, need access) (string, string, *model.Ordered[*model.Snapshot], error) {
	project, err := c.project(need)
	if err != nil {
		return "", "", nil, err
	}
	cluster := c.R.PathValue("cluster_id")
	if !api.IsObjectID(cluster) || !c.St.HasCluster(project, cluster) {
		return "", "", nil, httpx.NotFound("CLUSTER_NOT_FOUND", fmt.Sprintf("No cluster with ID %s exists in group %s.", cluster, project), cluster, project)
	}
	return project, cluster, c.St.Snapshots(project, cluster), nil
}

func (s *Handlers) listSnapshots(c *Ctx) error {
	project, cluster, o, err := s.clusterSnapshots(c, readBackup)
	if err != nil {
		return err
	}
	return c.listSnapshotDocs(o, "groups", project, "clusters", cluster, "snapshots")
}

func (c *Ctx) listSnapshotDocs(o *model.Ordered[*model.Snapshot], path ...string) error {
	if _, err := c.BoolQuery("backupJobsEnabledOnly", true); err != nil {
		return err
	}
	p, err := c.Page()
	if err != nil {
		return err
	}
	snaps, total := o.Page(p)
	items := make([]doc, len(snaps))
	for i, snap := range snaps {
		items[i] = withLinks(snap.Members(), c.resourceHref(append(path, snap.ID)...))
	}
	c.list(items, total, p)
	return nil
}

func findSnapshot(c *Ctx, o *model.Ordered[*model.Snapshot], parent string) (*model.Snapshot, error) {
	id := c.R.PathValue("snapshot_id")
	if !api.IsObjectID(id) {
		return nil, httpx.NotFound("INVALID_SNAPSHOT_ID", fmt.Sprintf("An invalid snapshot ID %s was specified.", id), id)
	}
	snap := o.Get(id)
	if snap == nil {
		return nil, httpx.NotFound("SNAPSHOT_NOT_FOUND", fmt.Sprintf("No snapshot with ID %s exists for %s.", id, parent), id, parent)
	}
	return snap, nil
}

func (s *Handlers) getSnapshot(c *Ctx) error {
	project, cluster, o, err := s.clusterSnapshots(c, readBackup)
	if err != nil {
		return err
	}
	snap, err := findSnapshot(c, o, "cluster "+cluster)
	if err != nil {
		return err
	}
	c.ok(withLinks(snap.Members(), c.resourceHref("groups", project, "clusters", cluster, "snapshots", snap.ID)))
	return nil
}

// expireSnapshot changes a snapshot's expiry: doNotDelete true removes
// expires, and an expiry already in the past cannot be edited (docs/api.md, Snapshot).
func (s *Handlers) expireSnapshot(c *Ctx) error {
	project, cluster, o, err := s.clusterSnapshots(c, writeBackup)
	if err != nil {
		return err
	}
	snap, err := findSnapshot(c, o, "cluster "+cluster)
	if err != nil {
		return err
	}
	body, err := c.ReadObject()
	if err != nil {
		return err
	}
	if snap, err = c.St.PatchSnapshot(snap, project, cluster, body, s.now()); err != nil {
		return err
	}
	c.ok(withLinks(snap.Members(), c.resourceHref("groups", project, "clusters", cluster, "snapshots", snap.ID)))
	return nil
}

func (s *Handlers) hostSnapshots(c *Ctx) (string, string, *model.Ordered[*model.Snapshot], error) {
	project, err := c.project(readBackup)
	if err != nil {
		return "", "", nil, err
	}
	host := c.R.PathValue("host_id")
	o := c.St.ConfigServerSnapshots(project, host)
	if o == nil {
		return "", "", nil, httpx.NotFound("HOST_NOT_FOUND", fmt.Sprintf("No host with ID %s exists in group %s.", host, project), host, project)
	}
	return project, host, o, nil
}

func (s *Handlers) listConfigServerSnapshots(c *Ctx) error {
	project, host, o, err := s.hostSnapshots(c)
	if err != nil {
		return err
	}
	return c.listSnapshotDocs(o, "groups", project, "hosts", host, "snapshots")
}

func (s *Handlers) getConfigServerSnapshot(c *Ctx) error {
	project, host, o, err := s.hostSnapshots(c)
	if err != nil {
		return err
	}
	snap, err := findSnapshot(c, o, "host "+host)
	if err != nil {
		return err
	}
	c.ok(withLinks(snap.Members(), c.resourceHref("groups", project, "hosts", host, "snapshots", snap.ID)))
	return nil
}

func (s *Handlers) getBackupJobConfig(c *Ctx) error {
	if err := c.global(readAdminBackup); err != nil {
		return err
	}
	id := c.R.PathValue("project_id")
	if !api.IsObjectID(id) {
		return httpx.NotFound("INVALID_GROUP_ID", fmt.Sprintf("An invalid group ID %s was specified.", id), id)
	}
	cfg := c.St.BackupJobConfig(id)
	if cfg == nil {
		return httpx.NotFound("RESOURCE_NOT_FOUND", fmt.Sprintf("No backup jobs configuration exists for group %s.", id), id)
	}
	c.ok(c.renderBackupJobConfig(cfg))
	return nil
}

// renderBackupJobConfig shows a backup jobs configuration, with a link to its project.
func (c *Ctx) renderBackupJobConfig(cfg *model.BackupJobConfig) doc {
	return withLinks(cfg.Members(), c.resourceHref("admin", "backup", "groups", cfg.ID), link(c.resourceHref("groups", cfg.ID), groupLinkRel))
}

// putBackupJobConfig creates or replaces a project's backup jobs
// configuration.
func (s *Handlers) putBackupJobConfig(c *Ctx) error {
	if err := c.global(writeAdminBackup); err != nil {
		return err
	}
	id := c.R.PathValue("project_id")
	if !api.IsObjectID(id) {
		return httpx.NotFound("INVALID_GROUP_ID", fmt.Sprintf("An invalid group ID %s was specified.", id), id)
	}
	if c.St.Project(id) == nil {
		return httpx.NotFound("GROUP_NOT_FOUND", fmt.Sprintf("No group with ID %s exists.", id), id)
	}
	body, err := c.ReadObject()
	if err != nil {
		return err
	}
	cfg, err := c.St.PutBackupJobConfig(id, body)
	if err != nil {
		return err
	}
	c.ok(c.renderBackupJobConfig(cfg))
	return nil
}
