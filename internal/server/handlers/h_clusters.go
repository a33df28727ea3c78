package handlers

import (
	"fmt"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/store/model"
)

func (c *Ctx) renderCluster(cl *model.Cluster) doc {
	return withLinks(cl.Members(), c.resourceHref("groups", cl.GroupID, "clusters", cl.ID))
}

func (s *Handlers) listClusters(c *Ctx) error {
	project, err := c.project(readBackup)
	if err != nil {
		return err
	}
	p, _, err := c.listQuery("backupJobsEnabledOnly")
	if err != nil {
		return err
	}
	clusters, total := c.St.Clusters(project).Page(p)
	items := make([]doc, len(clusters))
	for i, cl := range clusters {
		items[i] = c.renderCluster(cl)
	}
	c.list(items, total, p)
	return nil
}

func (s *Handlers) getCluster(c *Ctx) error {
	project, err := c.project(readBackup)
	if err != nil {
		return err
	}
	id := c.R.PathValue("cluster_id")
	cl := c.St.Cluster(project, id)
	if !api.IsObjectID(id) || cl == nil {
		return httpx.NotFound("CLUSTER_NOT_FOUND", fmt.Sprintf("No cluster with ID %s exists in group %s.", id, project), id, project)
	}
	c.ok(c.renderCluster(cl))
	return nil
}
