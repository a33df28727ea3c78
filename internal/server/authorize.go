package server

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"slices"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/store/engine"
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
		return unauthorized()
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
	return unauthorized()
}

func unauthorized() error {
	return httpx.New(http.StatusUnauthorized, "USER_UNAUTHORIZED", "Current user is not authorized to perform this action.")
}

// checkAccessList refuses a key used from outside its access list and
// counts the use of the entry that let it in (a change, saved as any other).
func (s *Server) checkAccessList(c *reqCtx) error {
	if c.caller.Key == nil {
		return nil
	}
	host, _, err := net.SplitHostPort(c.r.RemoteAddr)
	if err != nil {
		host = c.r.RemoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return httpx.New(http.StatusForbidden, "IP_ADDRESS_NOT_ON_ACCESS_LIST", "The caller's address cannot be read.")
	}
	addr = addr.Unmap()
	if in, _ := s.store.SignIn(c.caller.Name); in.Unlisted {
		c.caller = in.Principal // no list to check, nothing to count
		return nil
	}
	return s.withData(func(st *engine.Tx) error {
		// The data may have been reset since the caller was authenticated.
		p := st.Principal(c.caller.Name)
		if p == nil || p.Key == nil {
			return unauthorized()
		}
		c.caller = p
		k := p.Key
		if !st.UseAccessList(k, addr, s.clock.Now()) {
			return httpx.New(http.StatusForbidden, "IP_ADDRESS_NOT_ON_ACCESS_LIST",
				fmt.Sprintf("IP address %s is not allowed to access this resource.", addr), addr.String())
		}
		return nil
	})
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
