package server

import (
	"net/netip"
	"time"
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

// ordered is a list of documents kept in insertion order with an index.
type ordered struct {
	items []doc
	byID  map[string]int
}

func newOrdered() *ordered { return &ordered{byID: map[string]int{}} }

func (o *ordered) add(id string, d doc) {
	if i, ok := o.byID[id]; ok {
		o.items[i] = d
		return
	}
	o.byID[id] = len(o.items)
	o.items = append(o.items, d)
}

// remove takes the document with id out of the list, keeping the order
// of the others.
func (o *ordered) remove(id string) bool {
	i, ok := o.byID[id]
	if !ok {
		return false
	}
	o.items = append(o.items[:i], o.items[i+1:]...)
	delete(o.byID, id)
	for j := i; j < len(o.items); j++ {
		o.byID[o.items[j]["id"].(string)] = j
	}
	return true
}

func (o *ordered) get(id string) doc {
	if i, ok := o.byID[id]; ok {
		return o.items[i]
	}
	return nil
}

func (o *ordered) page(p page) ([]doc, int) {
	start := min(p.offset(), len(o.items))
	end := min(start+p.size, len(o.items))
	return o.items[start:end], len(o.items)
}

// state is all the data of a running server.
type state struct {
	orgs, projects map[string]doc
	orgOrder       []string

	principals map[string]*principal // by digest user name
	apiKeys    map[string]*apiKey    // by id
	keyOrder   []string              // ids of apiKeys, as added

	alerts         map[string]*alertSet // by project
	alertByID      map[string]*alertRec
	alertConfigs   map[string]*ordered // by project
	configAlerts   map[string][]*alertRec
	globalAlerts   *alertSet
	globalAlertIDs map[string]*alertRec
	globalConfigs  *ordered

	backupConfigs  map[string]doc // by project/cluster
	clusters       map[string]bool
	snapshots      map[string]*ordered // by project/cluster
	csSnapshots    map[string]*ordered // by project/host
	hosts          map[string]bool
	oplogStores    *ordered
	snapshotStores *ordered
	backupJobs     map[string]doc

	engine engineState

	// What changed since the last commit to the state file.
	dirty      map[recordRef]func() any
	dirtyOrder []recordRef
	dirtyAll   bool
}

type recordRef struct{ kind, key string }

// recordKey names a resource within its kind in the state file.
func recordKey(kind string, d doc) string {
	switch kind {
	case "backupConfigs":
		return key2(d["groupId"].(string), d["clusterId"].(string))
	case "users":
		return d["username"].(string)
	}
	return d["id"].(string)
}

// touch records that a resource changed, for the state file.
func (s *state) touch(kind string, d doc) {
	s.touchRef(recordRef{kind, recordKey(kind, d)}, func() any { return d })
}

// forget records that a resource was removed, for the state file.
func (s *state) forget(kind, key string) {
	s.touchRef(recordRef{kind, key}, func() any { return nil })
}

// touchKey records that an API key (or its access list) changed.
func (s *state) touchKey(k *apiKey) {
	s.touchRef(recordRef{"apiKeys", k.doc["id"].(string)}, func() any { return k.fixture() })
}

// touchAlert records that an alert changed.
func (s *state) touchAlert(r *alertRec) {
	kind := "alerts"
	if r.project == "" {
		kind = "globalAlerts"
	}
	s.touchRef(recordRef{kind, r.cur.ID}, func() any { return r.cur })
}

func (s *state) touchRef(ref recordRef, get func() any) {
	if s.dirty == nil {
		s.dirty = map[recordRef]func() any{}
	}
	if _, seen := s.dirty[ref]; !seen {
		s.dirtyOrder = append(s.dirtyOrder, ref)
	}
	s.dirty[ref] = get
}

// touchAll records that everything changed (reset, or a new state file).
func (s *state) touchAll() { s.dirtyAll = true }

// takeChanges returns what changed, in the order it changed, and forgets it.
func (s *state) takeChanges() (recs []record, all bool) {
	if s.dirtyAll {
		f := s.fixtures()
		lists := f.lists()
		for _, kind := range fixtureKeys {
			switch kind {
			case "alerts", "globalAlerts":
				alerts := f.Alerts
				if kind == "globalAlerts" {
					alerts = f.GlobalAlerts
				}
				for _, a := range alerts {
					recs = append(recs, record{kind, a.ID, a})
				}
			default:
				for _, d := range *lists[kind] {
					recs = append(recs, record{kind, recordKey(kind, d), d})
				}
			}
		}
	} else {
		for _, ref := range s.dirtyOrder {
			recs = append(recs, record{ref.kind, ref.key, s.dirty[ref]()})
		}
	}
	all = s.dirtyAll
	s.dirty, s.dirtyOrder, s.dirtyAll = nil, nil, false
	return recs, all
}

func key2(a, b string) string { return a + "/" + b }

// newState builds the state from fixtures (which it takes over).
func newState(f *Fixtures, now time.Time) *state {
	s := &state{
		orgs: map[string]doc{}, projects: map[string]doc{},
		principals: map[string]*principal{}, apiKeys: map[string]*apiKey{},
		alerts: map[string]*alertSet{}, alertByID: map[string]*alertRec{},
		alertConfigs: map[string]*ordered{}, configAlerts: map[string][]*alertRec{},
		globalAlertIDs: map[string]*alertRec{}, globalConfigs: newOrdered(),
		backupConfigs: map[string]doc{}, clusters: map[string]bool{},
		snapshots:   map[string]*ordered{},
		csSnapshots: map[string]*ordered{}, hosts: map[string]bool{},
		oplogStores: newOrdered(), snapshotStores: newOrdered(), backupJobs: map[string]doc{},
	}
	for _, d := range f.Orgs {
		id := d["id"].(string)
		s.orgs[id] = d
		s.orgOrder = append(s.orgOrder, id)
	}
	for _, d := range f.Projects {
		s.projects[d["id"].(string)] = d
	}
	for _, d := range f.APIKeys {
		s.addAPIKey(d, now)
	}
	for _, d := range f.Users {
		p := &principal{name: d["username"].(string), secret: d["apiKey"].(string), roles: parseRoles(d["roles"]), fixture: d}
		s.principals[p.name] = p
	}
	for _, d := range f.AlertConfigs {
		g := d["groupId"].(string)
		if s.alertConfigs[g] == nil {
			s.alertConfigs[g] = newOrdered()
		}
		s.alertConfigs[g].add(d["id"].(string), d)
	}
	for _, d := range f.GlobalAlertConfigs {
		s.globalConfigs.add(d["id"].(string), d)
	}
	byProject := map[string][]*alertRec{}
	for _, a := range f.Alerts {
		r := s.alertRecord(a, now)
		byProject[r.project] = append(byProject[r.project], r)
		s.alertByID[a.ID] = r
	}
	for p, recs := range byProject {
		s.alerts[p] = newAlertSet(recs)
	}
	var globals []*alertRec
	for _, a := range f.GlobalAlerts {
		r := s.alertRecord(a, now)
		r.project = ""
		globals = append(globals, r)
		s.globalAlertIDs[a.ID] = r
	}
	s.globalAlerts = newAlertSet(globals)
	for p := range s.alerts {
		s.scheduleTracking(s.alerts[p], p)
	}
	s.scheduleTracking(s.globalAlerts, "")
	for _, d := range f.BackupConfigs {
		k := key2(d["groupId"].(string), d["clusterId"].(string))
		s.backupConfigs[k] = d
		s.clusters[k] = true
	}
	for _, d := range f.Snapshots {
		k := key2(d["groupId"].(string), d["clusterId"].(string))
		s.clusters[k] = true
		if s.snapshots[k] == nil {
			s.snapshots[k] = newOrdered()
		}
		s.snapshots[k].add(d["id"].(string), d)
	}
	for _, d := range f.ConfigServerSnapshots {
		k := key2(d["groupId"].(string), snapshotHost(d))
		s.hosts[k] = true
		if s.csSnapshots[k] == nil {
			s.csSnapshots[k] = newOrdered()
		}
		s.csSnapshots[k].add(d["id"].(string), d)
	}
	for _, d := range f.OplogStores {
		s.oplogStores.add(d["id"].(string), d)
	}
	for _, d := range f.SnapshotStores {
		s.snapshotStores.add(d["id"].(string), d)
	}
	for _, d := range f.BackupJobConfigs {
		s.backupJobs[d["id"].(string)] = d
	}
	return s
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
		canon, _ := accessEntry(m)
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
	e.doc["created"] = formatTime(now)
	if c, ok := m["created"].(string); ok {
		if t, err := parseTimestamp(c); err == nil {
			e.doc["created"] = formatTime(t)
		}
	}
	if n, ok := normalizeNumbers(m["count"]).(int64); ok {
		e.count = n
	}
	if lu, ok := m["lastUsed"].(string); ok {
		e.lastUsed, _ = parseTimestamp(lu)
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
			m["lastUsed"], m["lastUsedAddress"] = formatTime(e.lastUsed), e.lastAddr
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

// alertRecord indexes an alert; one without a creation time was created now.
func (s *state) alertRecord(a *AlertDoc, now time.Time) *alertRec {
	if a.Created.IsZero() {
		a = a.with(func(d doc) { d["created"] = formatTime(now) })
	}
	return &alertRec{cur: a, status: a.Status, created: a.Created, project: a.GroupID}
}

// scheduleTracking computes, for every TRACKING alert of set, when it opens.
func (s *state) scheduleTracking(set *alertSet, project string) {
	for _, r := range set.items {
		if r.status != statusTracking {
			continue
		}
		cfgID := r.cur.AlertConfigID
		s.configAlerts[cfgID] = append(s.configAlerts[cfgID], r)
		set.schedule(r, s.openTime(r, project))
	}
}

// openTime is when a TRACKING alert opens: its creation plus the smallest
// delayMin of its configuration's notifications (docs/api.md, Alert).
func (s *state) openTime(r *alertRec, project string) time.Time {
	cfgID := r.cur.AlertConfigID
	var cfg doc
	if project == "" {
		cfg = s.globalConfigs.get(cfgID)
	} else if o := s.alertConfigs[project]; o != nil {
		cfg = o.get(cfgID)
	}
	if cfg == nil {
		return time.Time{}
	}
	notes, _ := cfg["notifications"].([]any)
	smallest := int64(-1)
	for _, n := range notes {
		m, _ := n.(map[string]any)
		d, _ := normalizeNumbers(m["delayMin"]).(int64)
		if smallest < 0 || d < smallest {
			smallest = d
		}
	}
	if smallest < 0 {
		smallest = 0
	}
	return r.created.Add(time.Duration(smallest) * time.Minute)
}

// anyDue reports whether a TRACKING alert may be due to open by now.
func (s *state) anyDue(now time.Time) bool {
	if s.globalAlerts.due(now) {
		return true
	}
	for _, set := range s.alerts {
		if set.due(now) {
			return true
		}
	}
	return false
}

// promoteAll opens every TRACKING alert whose delay has passed.
func (s *state) promoteAll(now time.Time) {
	s.promote(s.globalAlerts, now)
	for _, set := range s.alerts {
		s.promote(set, now)
	}
}

// promote opens the TRACKING alerts of set whose delay has passed.
func (s *state) promote(set *alertSet, now time.Time) {
	if set == nil {
		return
	}
	set.promote(now, func(r *alertRec) {
		at := formatTime(r.openAt)
		_, raised := s.engine.schedules[r]
		r.cur = r.cur.with(func(d doc) {
			d["status"] = statusOpen
			d["updated"] = at
			if !raised {
				// A fixture alert has no schedule: it counts as notified on opening.
				d["lastNotified"] = at
			}
		})
		s.touchAlert(r)
	})
}

// rescheduleConfig recomputes open times after a configuration changed.
func (s *state) rescheduleConfig(cfgID, project string) {
	set := s.globalAlerts
	if project != "" {
		set = s.alerts[project]
	}
	if set == nil {
		return
	}
	for _, r := range s.configAlerts[cfgID] {
		if r.status == statusTracking && r.project == project {
			set.schedule(r, s.openTime(r, project))
		}
	}
}

// keysOfOrg counts the API keys of an organization.
func (s *state) keysOfOrg(org string) int {
	n := 0
	for _, k := range s.apiKeys {
		if k.orgs[org] {
			n++
		}
	}
	return n
}

// snapshot writes the state back out as fixtures (for --state).
func (s *state) fixtures() *Fixtures {
	f := &Fixtures{}
	for _, id := range s.orgOrder {
		f.Orgs = append(f.Orgs, s.orgs[id])
	}
	for _, id := range sortedKeys(s.projects) {
		f.Projects = append(f.Projects, s.projects[id])
	}
	for _, id := range s.keyOrder {
		f.APIKeys = append(f.APIKeys, s.apiKeys[id].fixture())
	}
	for _, name := range sortedKeys(s.principals) {
		if p := s.principals[name]; p.key == nil {
			f.Users = append(f.Users, p.fixture)
		}
	}
	for _, p := range sortedKeys(s.alerts) {
		for _, r := range s.alerts[p].items {
			f.Alerts = append(f.Alerts, r.cur)
		}
	}
	for _, p := range sortedKeys(s.alertConfigs) {
		f.AlertConfigs = append(f.AlertConfigs, s.alertConfigs[p].items...)
	}
	for _, r := range s.globalAlerts.items {
		f.GlobalAlerts = append(f.GlobalAlerts, r.cur)
	}
	f.GlobalAlertConfigs = append(f.GlobalAlertConfigs, s.globalConfigs.items...)
	for _, k := range sortedKeys(s.backupConfigs) {
		f.BackupConfigs = append(f.BackupConfigs, s.backupConfigs[k])
	}
	for _, k := range sortedKeys(s.snapshots) {
		f.Snapshots = append(f.Snapshots, s.snapshots[k].items...)
	}
	for _, k := range sortedKeys(s.csSnapshots) {
		f.ConfigServerSnapshots = append(f.ConfigServerSnapshots, s.csSnapshots[k].items...)
	}
	f.OplogStores = append(f.OplogStores, s.oplogStores.items...)
	f.SnapshotStores = append(f.SnapshotStores, s.snapshotStores.items...)
	for _, k := range sortedKeys(s.backupJobs) {
		f.BackupJobConfigs = append(f.BackupJobConfigs, s.backupJobs[k])
	}
	return f
}
