package server

import (
	"net/netip"
	"time"

	"github.com/omctl/omctl/internal/rules"
)

// principal is who made a request: an API key or a user.
type principal struct {
	name    string // public key or user name: the digest user name
	secret  string // private key or user API key
	key     *apiKey
	roles   []role
	fixture doc
}

type role struct {
	org, group, name string
}

// apiKey is an organization API key with its access list.
type apiKey struct {
	doc        doc // id, desc, publicKey, roles, and fields kept from fixtures
	principal  *principal
	orgs       map[string]bool
	accessList []*accessListEntry
	accessKeys map[string]bool // canonical keys of accessList
}

type accessListEntry struct {
	key      string // canonical address or block
	doc      doc
	prefix   netip.Prefix
	count    int64
	lastUsed time.Time
	lastAddr string
}

func parseRoles(v any) []role {
	var out []role
	list, _ := v.([]any)
	for _, r := range list {
		m, _ := r.(map[string]any)
		org, _ := m["orgId"].(string)
		group, _ := m["groupId"].(string)
		name, _ := m["roleName"].(string)
		out = append(out, role{org: org, group: group, name: name})
	}
	return out
}

func (s *state) addAPIKey(d doc, now time.Time) *apiKey {
	if d["roles"] == nil {
		d["roles"] = []any{}
	}
	k := &apiKey{doc: d, orgs: map[string]bool{}, accessKeys: map[string]bool{}}
	k.principal = &principal{name: d["publicKey"].(string), secret: d["privateKey"].(string), key: k, roles: parseRoles(d["roles"]), fixture: d}
	for _, r := range k.principal.roles {
		if r.org != "" {
			k.orgs[r.org] = true
		}
		if p := s.projects[r.group]; p != nil {
			if org, _ := p["orgId"].(string); org != "" {
				k.orgs[org] = true
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
	s.principals[k.principal.name] = k.principal
	s.apiKeys[d["id"].(string)] = k
	s.keyOrder = append(s.keyOrder, d["id"].(string))
	return k
}

// addAccessEntry adds an entry unless one with the same address exists.
func (k *apiKey) addAccessEntry(canon string, m doc, now time.Time) bool {
	if k.accessKeys[canon] {
		return false
	}
	k.accessKeys[canon] = true
	e := &accessListEntry{key: canon, doc: doc{}}
	e.prefix, _ = netip.ParsePrefix(canon)
	if _, ok := m["ipAddress"].(string); ok {
		e.doc["ipAddress"] = e.prefix.Addr().String()
	}
	e.doc["cidrBlock"] = e.prefix.String()
	e.doc["created"] = rules.FormatTime(now)
	if c, ok := m["created"].(string); ok {
		if t, err := rules.ParseTimestamp(c); err == nil {
			e.doc["created"] = rules.FormatTime(t)
		}
	}
	if n, ok := rules.NormalizeNumbers(m["count"]).(int64); ok {
		e.count = n
	}
	if lu, ok := m["lastUsed"].(string); ok {
		e.lastUsed, _ = rules.ParseTimestamp(lu)
	}
	e.lastAddr, _ = m["lastUsedAddress"].(string)
	k.accessList = append(k.accessList, e)
	return true
}

// newAccessEntries counts the entries of canon the list does not hold yet.
func (k *apiKey) newAccessEntries(canon []string) int {
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
func (k *apiKey) fixture() doc {
	d := deepCopy(k.doc).(doc)
	var entries []any
	for _, e := range k.accessList {
		m := deepCopy(e.doc).(doc)
		if _, isIP := m["ipAddress"]; isIP {
			delete(m, "cidrBlock")
		}
		m["count"] = e.count
		if !e.lastUsed.IsZero() {
			m["lastUsed"], m["lastUsedAddress"] = rules.FormatTime(e.lastUsed), e.lastAddr
		}
		entries = append(entries, m)
	}
	if entries != nil {
		d["accessList"] = entries
	}
	return d
}

// allows reports whether addr may use the key, recording the use.
func (k *apiKey) allows(addr netip.Addr, now time.Time) bool {
	if len(k.accessList) == 0 {
		return true
	}
	var match *accessListEntry
	for _, e := range k.accessList {
		if e.prefix.Contains(addr) && (match == nil || e.prefix.Bits() > match.prefix.Bits()) {
			match = e
		}
	}
	if match == nil {
		return false
	}
	match.count++
	match.lastUsed = now
	match.lastAddr = addr.String()
	return true
}
