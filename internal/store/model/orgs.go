package model

import "github.com/omctl/omctl/internal/store/fixture"

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

// loadOrgs indexes the organizations and projects of the fixtures.
func (s *State) loadOrgs(f *fixture.Fixtures) {
	for _, d := range f.Orgs {
		o := newOrg(d)
		s.orgs[o.ID] = o
		s.orgOrder = append(s.orgOrder, o.ID)
	}
	for _, d := range f.Projects {
		p := newProject(d)
		s.projects[p.ID] = p
		s.projectOrder = append(s.projectOrder, p.ID)
	}
}

// Projects are every project, in the order they came into being.
func (s *State) Projects() []*Project {
	out := make([]*Project, len(s.projectOrder))
	for i, id := range s.projectOrder {
		out[i] = s.projects[id]
	}
	return out
}

// ProjectByName is the first project, in list order, whose name is name
// (case counts), nil for none.
func (s *State) ProjectByName(name string) *Project {
	for _, id := range s.projectOrder {
		if p := s.projects[id]; p.m["name"] == name {
			return p
		}
	}
	return nil
}

// Orgs are every organization, in the order they came into being:
// those the fixtures list, then those only a project named.
func (s *State) Orgs() []*Org {
	out := make([]*Org, len(s.orgOrder))
	for i, id := range s.orgOrder {
		out[i] = s.orgs[id]
	}
	return out
}
