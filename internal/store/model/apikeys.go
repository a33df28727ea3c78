package model

import (
	"fmt"
	"maps"
	"net/netip"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/fixture"
)

// Principal is who made a request: an API key or a user.
type Principal struct {
	Name    string // public key or user name: the digest user name
	Secret  string // private key or user API key
	Key     *APIKey
	Roles   []Role
	Fixture doc
}

type Role struct {
	Org, Group, Name string
}

// APIKey is an organization API key with its access list.
type APIKey struct {
	members    // id, desc, publicKey, privateKey, roles, and members kept from fixtures
	ID         string
	Principal  *Principal
	Orgs       map[string]bool
	AccessList []*AccessListEntry
	accessKeys map[string]bool // canonical keys of accessList
}

type AccessListEntry struct {
	key      string // canonical address or block
	prefix   netip.Prefix
	IsIP     bool // given as an ipAddress, not a cidrBlock
	Created  time.Time
	Count    int64
	LastUsed time.Time
	LastAddr string
}

// Key is the entry's canonical address or block (rules.AccessListKey).
func (e *AccessListEntry) Key() string { return e.key }

// Prefix is the addresses the entry admits.
func (e *AccessListEntry) Prefix() netip.Prefix { return e.prefix }

func parseRoles(v any) []Role {
	var out []Role
	list, _ := v.([]any)
	for _, r := range list {
		m, _ := r.(map[string]any)
		org, _ := m["orgId"].(string)
		group, _ := m["groupId"].(string)
		name, _ := m["roleName"].(string)
		out = append(out, Role{Org: org, Group: group, Name: name})
	}
	return out
}

func (s *State) addAPIKey(d doc, now time.Time) *APIKey {
	if d["roles"] == nil {
		d["roles"] = []any{}
	}
	k := &APIKey{members: members{d}, Orgs: map[string]bool{}, accessKeys: map[string]bool{}}
	k.ID, _ = d["id"].(string)
	k.Principal = &Principal{Name: d["publicKey"].(string), Secret: d["privateKey"].(string), Key: k, Roles: parseRoles(d["roles"]), Fixture: d}
	for _, r := range k.Principal.Roles {
		if r.Org != "" {
			k.Orgs[r.Org] = true
		}
		if org := s.projects[r.Group].orgID(); org != "" {
			k.Orgs[org] = true
		}
	}
	entries, _ := d["accessList"].([]any)
	for _, e := range entries {
		m := e.(map[string]any)
		canon, _ := rules.AccessListEntry(m)
		k.addAccessEntry(canon, m, now)
	}
	delete(d, "accessList")
	s.principals[k.Principal.Name] = k.Principal
	s.apiKeys[k.ID] = k
	s.keyOrder = append(s.keyOrder, k.ID)
	s.putKey(k)
	return k
}

// addAccessEntry adds an entry unless one with the same address exists.
func (k *APIKey) addAccessEntry(canon string, m doc, now time.Time) bool {
	if k.accessKeys[canon] {
		return false
	}
	k.accessKeys[canon] = true
	e := &AccessListEntry{key: canon, Created: now}
	e.prefix, _ = netip.ParsePrefix(canon)
	_, e.IsIP = m["ipAddress"].(string)
	if c, ok := m["created"].(string); ok {
		if t, err := rules.ParseTimestamp(c); err == nil {
			e.Created = t
		}
	}
	if n, ok := rules.NormalizeNumbers(m["count"]).(int64); ok {
		e.Count = n
	}
	if lu, ok := m["lastUsed"].(string); ok {
		e.LastUsed, _ = rules.ParseTimestamp(lu)
	}
	e.LastAddr, _ = m["lastUsedAddress"].(string)
	k.AccessList = append(k.AccessList, e)
	return true
}

// newAccessEntries counts the entries of canon the list does not hold yet.
func (k *APIKey) newAccessEntries(canon []string) int {
	fresh := map[string]bool{}
	for _, c := range canon {
		if !k.accessKeys[c] {
			fresh[c] = true
		}
	}
	return len(fresh)
}

// clone is a copy of the key whose access list's counts change apart
// from k's: the key readers are served (replica.go).
func (k *APIKey) clone() *APIKey {
	c := &APIKey{members: k.members, ID: k.ID, Orgs: maps.Clone(k.Orgs), accessKeys: maps.Clone(k.accessKeys)}
	c.AccessList = make([]*AccessListEntry, len(k.AccessList))
	for i, e := range k.AccessList {
		entry := *e
		c.AccessList[i] = &entry
	}
	p := *k.Principal
	p.Key = c
	c.Principal = &p
	return c
}

// Address is what names the entry: its IP address, or its CIDR block.
func (e *AccessListEntry) Address() string {
	if e.IsIP {
		return e.prefix.Addr().String()
	}
	return e.prefix.String()
}

// Members is the entry as the API shows it (docs/api.md, Access list entry).
func (e *AccessListEntry) Members() doc {
	d := doc{"cidrBlock": e.prefix.String(), "created": rules.FormatTime(e.Created), "count": e.Count}
	if e.IsIP {
		d["ipAddress"] = e.Address()
	}
	if !e.LastUsed.IsZero() {
		d["lastUsed"], d["lastUsedAddress"] = rules.FormatTime(e.LastUsed), e.LastAddr
	}
	return d
}

// fixture writes the key back in fixture form, access list and counters
// included.
func (k *APIKey) fixture() doc {
	d := k.Members()
	var entries []any
	for _, e := range k.AccessList {
		m := e.Members()
		if e.IsIP {
			delete(m, "cidrBlock")
		}
		entries = append(entries, m)
	}
	if entries != nil {
		d["accessList"] = entries
	}
	return d
}

// UseAccessList reports whether addr may use the key, and counts the use
// in the access list entry that admits it (a key without a list admits
// every address, and counts nothing).
func (s *State) UseAccessList(k *APIKey, addr netip.Addr, now time.Time) bool {
	if !k.allows(addr, now) {
		return false
	}
	if len(k.AccessList) > 0 {
		s.countKeyUse(k)
	}
	return true
}

// allows reports whether addr may use the key, counting the use.
func (k *APIKey) allows(addr netip.Addr, now time.Time) bool {
	if len(k.AccessList) == 0 {
		return true
	}
	var match *AccessListEntry
	for _, e := range k.AccessList {
		if e.prefix.Contains(addr) && (match == nil || e.prefix.Bits() > match.prefix.Bits()) {
			match = e
		}
	}
	if match == nil {
		return false
	}
	match.Count++
	match.LastUsed = now
	match.LastAddr = addr.String()
	return true
}

// Principal is the API key or user signing in as name, nil for none.
func (s *State) Principal(name string) *Principal { return s.principals[name] }

// APIKey is an API key by its id, nil for none.
func (s *State) APIKey(id string) *APIKey { return s.apiKeys[id] }

// CreateAPIKey makes an API key of a project with a description and
// roles in it: a new id, an unused public key and a private key (from
// crypto/rand). An organization holds at most rules.MaxAPIKeysPerOrg keys.
func (s *State) CreateAPIKey(project, desc string, roles []string, now time.Time) (*APIKey, error) {
	if org := s.projects[project].orgID(); org != "" && s.keysOfOrg(org) >= rules.MaxAPIKeysPerOrg {
		return nil, rules.Conflictf("TOO_MANY_API_KEYS",
			fmt.Sprintf("Organization %s already has the maximum of %d API keys.", org, rules.MaxAPIKeysPerOrg), org, rules.MaxAPIKeysPerOrg)
	}
	grants := make([]any, len(roles), len(roles)+1)
	for i, r := range roles {
		grants[i] = map[string]any{"groupId": project, "roleName": r}
	}
	if org := s.projects[project].orgID(); org != "" {
		// The real service makes a project's key a member of the
		// project's organization (docs/api.md, API key).
		grants = append(grants, map[string]any{"orgId": org, "roleName": "ORG_MEMBER"})
	}
	d := doc{"id": api.NewObjectID(), "desc": desc, "publicKey": api.NewPublicKey(), "privateKey": api.NewUUID(), "roles": grants}
	for s.principals[d["publicKey"].(string)] != nil {
		d["publicKey"] = api.NewPublicKey()
	}
	return s.addAPIKey(d, now), nil
}

// AddAccessEntries adds entries (their canonical blocks in canon) to a
// key's access list; an entry it holds already is counted, not repeated.
// A list holds at most rules.MaxAccessListEntries.
func (s *State) AddAccessEntries(k *APIKey, canon []string, entries []any, now time.Time) error {
	if added := k.newAccessEntries(canon); len(k.AccessList)+added > rules.MaxAccessListEntries {
		return rules.Invalidf("TOO_MANY_ACCESS_LIST_ENTRIES",
			fmt.Sprintf("An API key's access list holds at most %d entries; it has %d and the request adds %d.", rules.MaxAccessListEntries, len(k.AccessList), added),
			rules.MaxAccessListEntries)
	}
	for i, e := range entries {
		k.addAccessEntry(canon[i], e.(map[string]any), now)
	}
	s.putKey(k)
	return nil
}

// keysOfOrg counts the API keys of an organization.
func (s *State) keysOfOrg(org string) int {
	n := 0
	for _, k := range s.apiKeys {
		if k.Orgs[org] {
			n++
		}
	}
	return n
}

// loadSignIns indexes the API keys and users of the fixtures.
func (s *State) loadSignIns(f *fixture.Fixtures, now time.Time) {
	for _, d := range f.APIKeys {
		s.addAPIKey(d, now)
	}
	for _, d := range f.Users {
		p := &Principal{Name: d["username"].(string), Secret: d["apiKey"].(string), Roles: parseRoles(d["roles"]), Fixture: d}
		s.principals[p.Name] = p
	}
}

// OrgAPIKeys are the keys of an organization (those with a role in it or
// in one of its projects), in the order they were made.
func (s *State) OrgAPIKeys(org string) []*APIKey {
	var out []*APIKey
	for _, id := range s.keyOrder {
		if k := s.apiKeys[id]; k.Orgs[org] {
			out = append(out, k)
		}
	}
	return out
}

// AccessEntry is the entry of a key's access list standing for the
// canonical block canon (rules.AccessListKey), nil for none.
func (k *APIKey) AccessEntry(canon string) *AccessListEntry {
	for _, e := range k.AccessList {
		if e.key == canon {
			return e
		}
	}
	return nil
}

// RemoveAccessEntry takes the entry standing for canon out of a key's
// access list, keeping the order of the others. An empty list admits
// every address again.
func (s *State) RemoveAccessEntry(k *APIKey, canon string) bool {
	for i, e := range k.AccessList {
		if e.key == canon {
			k.AccessList = append(k.AccessList[:i:i], k.AccessList[i+1:]...)
			delete(k.accessKeys, canon)
			s.putKey(k)
			return true
		}
	}
	return false
}
