package handlers

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/store/model"
)

// access is what an endpoint needs of its caller (docs/api.md, Roles).
type access int

const (
	readMonitoring access = iota
	writeMonitoring
	readBackup
	writeBackup
	readAdminBackup
	writeAdminBackup
	readGlobalAlerts
	writeGlobalAlerts
	createAPIKey
	manageAccessList
)

var globalWriters = map[access][]string{
	writeMonitoring:   {"GLOBAL_OWNER", "GLOBAL_MONITORING_ADMIN"},
	writeGlobalAlerts: {"GLOBAL_OWNER", "GLOBAL_MONITORING_ADMIN"},
	writeBackup:       {"GLOBAL_OWNER", "GLOBAL_BACKUP_ADMIN"},
	writeAdminBackup:  {"GLOBAL_OWNER", "GLOBAL_BACKUP_ADMIN"},
	createAPIKey:      {"GLOBAL_OWNER"},
	manageAccessList:  {"GLOBAL_OWNER"},
}

var projectWriters = map[access][]string{
	writeMonitoring: {"GROUP_OWNER", "GROUP_MONITORING_ADMIN"},
	writeBackup:     {"GROUP_OWNER", "GROUP_BACKUP_ADMIN"},
	createAPIKey:    {"GROUP_OWNER"},
}

// authorize checks the caller may do need in project (or org), giving
// 401 NOT_IN_GROUP to a caller with no role there and 401
// USER_UNAUTHORIZED to one whose roles are not enough.
func authorize(p *model.Principal, need access, project, org string) error {
	hasGlobal := false
	for _, r := range p.Roles {
		if r.Org == "" && r.Group == "" && api.OneOf(r.Name, api.GlobalRoles) {
			hasGlobal = true
			writers, isWrite := globalWriters[need]
			if !isWrite || slices.Contains(writers, r.Name) {
				return nil
			}
		}
	}
	if need == manageAccessList {
		for _, r := range p.Roles {
			if r.Org == org && r.Name == "ORG_OWNER" {
				return nil
			}
		}
		return Unauthorized()
	}
	member := false
	for _, r := range p.Roles {
		if project == "" || r.Group != project {
			continue
		}
		member = true
		writers, isWrite := projectWriters[need]
		if !isWrite || slices.Contains(writers, r.Name) {
			return nil
		}
	}
	if project != "" && !member && !hasGlobal {
		return httpx.New(http.StatusUnauthorized, "NOT_IN_GROUP",
			fmt.Sprintf("Current user is not a member of the group %s.", project), project)
	}
	return Unauthorized()
}

func Unauthorized() error {
	return httpx.New(http.StatusUnauthorized, "USER_UNAUTHORIZED", "Current user is not authorized to perform this action.")
}

// hasGlobalRole reports whether the caller has any global role.
func hasGlobalRole(p *model.Principal) bool {
	for _, r := range p.Roles {
		if r.Org == "" && r.Group == "" && api.OneOf(r.Name, api.GlobalRoles) {
			return true
		}
	}
	return false
}

// readsProject reports whether the caller reads a project: a project role
// in it, or any global role. Organization roles do not reach projects
// (docs/api.md, Lists and reads: who may call them).
func readsProject(p *model.Principal, project string) bool {
	for _, r := range p.Roles {
		if r.Group == project {
			return true
		}
	}
	return hasGlobalRole(p)
}

// inOrg reports whether the caller is in an organization: a role in it or
// in one of its projects, or any global role.
func inOrg(p *model.Principal, org string, st *model.State) bool {
	for _, r := range p.Roles {
		if r.Org == org || r.Group != "" && st.Project(r.Group) != nil && st.Project(r.Group).OrgID == org {
			return true
		}
	}
	return hasGlobalRole(p)
}

// project checks the {project_id} of the path and the caller's right to
// do need there, in the order the API checks them: form, existence, access.
func (c *Ctx) project(need access) (string, error) {
	id := c.R.PathValue("project_id")
	if !api.IsObjectID(id) {
		return "", httpx.NotFound("INVALID_GROUP_ID", fmt.Sprintf("An invalid group ID %s was specified.", id), id)
	}
	if c.St.Project(id) == nil {
		return "", httpx.NotFound("GROUP_NOT_FOUND", fmt.Sprintf("No group with ID %s exists.", id), id)
	}
	if err := authorize(c.Caller, need, id, ""); err != nil {
		return "", err
	}
	return id, nil
}

// global checks the caller's right to do need on a non-project endpoint.
func (c *Ctx) global(need access) error {
	return authorize(c.Caller, need, "", "")
}
