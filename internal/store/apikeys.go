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
	Doc        doc // id, desc, publicKey, roles, and fields kept from fixtures
	Principal  *Principal
	Orgs       map[string]bool
	AccessList []*AccessListEntry
	accessKeys map[string]bool // canonical keys of accessList
}

type AccessListEntry struct {
	key      string // canonical address or block
	Doc      doc
	prefix   netip.Prefix
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
	k := &APIKey{Doc: d, Orgs: map[string]bool{}, accessKeys: map[string]bool{}}
	k.Principal = &Principal{Name: d["publicKey"].(string), Secret: d["privateKey"].(string), Key: k, Roles: parseRoles(d["roles"]), Fixture: d}
	for _, r := range k.Principal.Roles {
		if r.Org != "" {
			k.Orgs[r.Org] = true
		}
		if p := s.projects[r.Group]; p != nil {
			if org, _ := p["orgId"].(string); org != "" {
				k.Orgs[org] = true
			}
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
	s.apiKeys[d["id"].(string)] = k
	s.keyOrder = append(s.keyOrder, d["id"].(string))
	return k
}

// addAccessEntry adds an entry unless one with the same address exists.
func (k *APIKey) addAccessEntry(canon string, m doc, now time.Time) bool {
	if k.accessKeys[canon] {
		return false
	}
	k.accessKeys[canon] = true
	e := &AccessListEntry{key: canon, Doc: doc{}}
	e.prefix, _ = netip.ParsePrefix(canon)
	if _, ok := m["ipAddress"].(string); ok {
		e.Doc["ipAddress"] = e.prefix.Addr().String()
	}
	e.Doc["cidrBlock"] = e.prefix.String()
	e.Doc["created"] = rules.FormatTime(now)
	if c, ok := m["created"].(string); ok {
		if t, err := rules.ParseTimestamp(c); err == nil {
			e.Doc["created"] = rules.FormatTime(t)
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

// fixture writes the key back in fixture form, access list and counters
// included.
func (k *APIKey) fixture() doc {
	d := deepCopy(k.Doc).(doc)
	var entries []any
	for _, e := range k.AccessList {
		m := deepCopy(e.Doc).(doc)
		if _, isIP := m["ipAddress"]; isIP {
			delete(m, "cidrBlock")
		}
		m["count"] = e.Count
		if !e.LastUsed.IsZero() {
			m["lastUsed"], m["lastUsedAddress"] = rules.FormatTime(e.LastUsed), e.LastAddr
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
