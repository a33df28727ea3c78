package server

import (
	"fmt"
	"maps"
	"strings"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/store/model"
)

// projectDefaults are the members a project shows when its fixture lacks
// them (docs/api.md, Project).
func projectDefaults() doc {
	return doc{
		"name": "", "activeAgentCount": int64(0), "publicApiEnabled": true, "replicaSetCount": int64(0),
		"shardCount": int64(0), "tags": []any{},
		"hostCounts": doc{"arbiter": int64(0), "config": int64(0), "master": int64(0), "mongos": int64(0),
			"primary": int64(0), "secondary": int64(0), "slave": int64(0)},
	}
}

func (c *reqCtx) renderProject(p *model.Project) doc {
	out := projectDefaults()
	maps.Copy(out, p.Members())
	return withLinks(out, c.resourceHref("groups", p.ID))
}

func (c *reqCtx) renderOrg(o *model.Org) doc {
	return withLinks(o.Members(), c.resourceHref("orgs", o.ID))
}

// listProjectsOf lists the projects (of one organization, or all when
// org is "") the caller reads, keeping those named name when it is given.
func (c *reqCtx) listProjectsOf(org string, byName bool) error {
	name := ""
	if byName {
		name = c.r.URL.Query().Get("name")
	}
	p, _, err := c.listQuery()
	if err != nil {
		return err
	}
	var items []doc
	for _, pr := range c.st.Projects() {
		if (org == "" || pr.OrgID == org) && readsProject(c.caller, pr.ID) && nameIs(pr.Members()["name"], name) {
			items = append(items, c.renderProject(pr))
		}
	}
	page, total := pageOf(items, p)
	c.list(page, total, p)
	return nil
}

// nameIs reports whether a name equals want without regard to case, or
// want is "" (no filter).
func nameIs(name any, want string) bool {
	s, _ := name.(string)
	return want == "" || strings.EqualFold(s, want)
}

func (s *Server) listProjects(c *reqCtx) error { return c.listProjectsOf("", false) }

func (s *Server) getProject(c *reqCtx) error {
	id, err := c.project(readMonitoring)
	if err != nil {
		return err
	}
	c.ok(c.renderProject(c.st.Project(id)))
	return nil
}

func (s *Server) getProjectByName(c *reqCtx) error {
	name := c.r.PathValue("name")
	p := c.st.ProjectByName(name)
	if p == nil {
		return httpx.NotFound("GROUP_NAME_NOT_FOUND", fmt.Sprintf("No group with name %q exists.", name), name)
	}
	if err := authorize(c.caller, readMonitoring, p.ID, ""); err != nil {
		return err
	}
	c.ok(c.renderProject(p))
	return nil
}

// org checks the {org_id} of the path: its form and existence, then
// that the caller is in it.
func (c *reqCtx) org() (string, error) {
	id := c.r.PathValue("org_id")
	if !api.IsObjectID(id) || c.st.Org(id) == nil {
		return "", httpx.NotFound("ORG_NOT_FOUND", fmt.Sprintf("No organization with ID %s exists.", id), id)
	}
	if !inOrg(c.caller, id, c.st) {
		return "", unauthorized()
	}
	return id, nil
}

func (s *Server) listOrgs(c *reqCtx) error {
	name := c.r.URL.Query().Get("name")
	p, _, err := c.listQuery("includeDeletedOrgs")
	if err != nil {
		return err
	}
	var items []doc
	for _, o := range c.st.Orgs() {
		if inOrg(c.caller, o.ID, c.st) && nameIs(o.Members()["name"], name) {
			items = append(items, c.renderOrg(o))
		}
	}
	page, total := pageOf(items, p)
	c.list(page, total, p)
	return nil
}

func (s *Server) getOrg(c *reqCtx) error {
	id, err := c.org()
	if err != nil {
		return err
	}
	if _, err := c.strictBool("includeDeletedOrgs", true); err != nil {
		return err
	}
	c.ok(c.renderOrg(c.st.Org(id)))
	return nil
}

func (s *Server) listOrgProjects(c *reqCtx) error {
	id, err := c.org()
	if err != nil {
		return err
	}
	return c.listProjectsOf(id, true)
}
