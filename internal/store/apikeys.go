package store

import (
	"net/netip"
	"time"

	"github.com/omctl/omctl/internal/rules"
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

// Allows reports whether addr may use the key, recording the use.
func (k *APIKey) Allows(addr netip.Addr, now time.Time) bool {
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
