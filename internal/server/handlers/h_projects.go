package handlers

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

func (c *Ctx) renderProject(p *model.Project) doc {
	out := projectDefaults()
	maps.Copy(out, p.Members())
	return withLinks(out, c.resourceHref("groups", p.ID))
}

func (c *Ctx) renderOrg(o *model.Org) doc {
	return withLinks(o.Members(), c.resourceHref("orgs", o.ID))
}

// listProjectsOf lists the projects (of one organization, or all when
// org is "") the caller reads, keeping those named name when it is given.
func (c *Ctx) listProjectsOf(org string, byName bool) error {
	name := ""
	if byName {
		name = c.R.URL.Query().Get("name")
	}
	p, _, err := c.listQuery()
	if err != nil {
		return err
	}
	var items []doc
	for _, pr := range c.St.Projects() {
		if (org == "" || pr.OrgID == org) && readsProject(c.Caller, pr.ID) && nameIs(pr.Members()["name"], name) {
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

func (s *Handlers) listProjects(c *Ctx) error { return c.listProjectsOf("", false) }

func (s *Handlers) getProject(c *Ctx) error {
	id, err := c.project(readMonitoring)
	if err != nil {
		return err
	}
	c.ok(c.renderProject(c.St.Project(id)))
	return nil
}

func (s *Handlers) getProjectByName(c *Ctx) error {
	name := c.R.PathValue("name")
	p := c.St.ProjectByName(name)
	if p == nil {
		return httpx.NotFound("GROUP_NAME_NOT_FOUND", fmt.Sprintf("No group with name %q exists.", name), name)
	}
	if err := authorize(c.Caller, readMonitoring, p.ID, ""); err != nil {
		return err
	}
	c.ok(c.renderProject(p))
	return nil
}

// org checks the {org_id} of the path: its form and existence, then
// that the caller is in it.
func (c *Ctx) org() (string, error) {
	id := c.R.PathValue("org_id")
	if !api.IsObjectID(id) || c.St.Org(id) == nil {
		return "", httpx.NotFound("ORG_NOT_FOUND", fmt.Sprintf("No organization with ID %s exists.", id), id)
	}
	if !inOrg(c.Caller, id, c.St) {
		return "", Unauthorized()
	}
	return id, nil
}

func (s *Handlers) listOrgs(c *Ctx) error {
	name := c.R.URL.Query().Get("name")
	p, _, err := c.listQuery("includeDeletedOrgs")
	if err != nil {
		return err
	}
	var items []doc
	for _, o := range c.St.Orgs() {
		if inOrg(c.Caller, o.ID, c.St) && nameIs(o.Members()["name"], name) {
			items = append(items, c.renderOrg(o))
		}
	}
	page, total := pageOf(items, p)
	c.list(page, total, p)
	return nil
}

func (s *Handlers) getOrg(c *Ctx) error {
	id, err := c.org()
	if err != nil {
		return err
	}
	if _, err := c.strictBool("includeDeletedOrgs", true); err != nil {
		return err
	}
	c.ok(c.renderOrg(c.St.Org(id)))
	return nil
}

func (s *Handlers) listOrgProjects(c *Ctx) error {
	id, err := c.org()
	if err != nil {
		return err
	}
	return c.listProjectsOf(id, true)
}
