package store

// Org is an organization.
type Org struct {
	members
	ID string
}

func newOrg(d doc) *Org {
	o := &Org{members: members{d}}
	o.ID, _ = d["id"].(string)
	return o
}

func (o *Org) key() string { return o.ID }

// Project is a project (a group), within an organization.
type Project struct {
	members
	ID, OrgID string
}

func newProject(d doc) *Project {
	p := &Project{members: members{d}}
	p.ID, _ = d["id"].(string)
	p.OrgID, _ = d["orgId"].(string)
	return p
}

func (p *Project) key() string { return p.ID }

// orgID is the organization of a project, "" for none (or no project).
func (p *Project) orgID() string {
	if p == nil {
		return ""
	}
	return p.OrgID
}

// Project is a project's document, nil when there is none.
func (s *State) Project(id string) *Project { return s.projects[id] }

// Org is an organization's document, nil when there is none.
func (s *State) Org(id string) *Org { return s.orgs[id] }
