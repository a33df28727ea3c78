package store

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
)

// Fixtures is the data a server starts from (server.md "Fixture file"):
// every resource as the API would return it, kept as JSON documents.
type Fixtures struct {
	Orgs                  []doc       `json:"orgs,omitempty"`
	Projects              []doc       `json:"projects,omitempty"`
	APIKeys               []doc       `json:"apiKeys,omitempty"`
	Users                 []doc       `json:"users,omitempty"`
	Alerts                []*AlertDoc `json:"alerts,omitempty"`
	AlertConfigs          []doc       `json:"alertConfigs,omitempty"`
	GlobalAlerts          []*AlertDoc `json:"globalAlerts,omitempty"`
	GlobalAlertConfigs    []doc       `json:"globalAlertConfigs,omitempty"`
	BackupConfigs         []doc       `json:"backupConfigs,omitempty"`
	Snapshots             []doc       `json:"snapshots,omitempty"`
	ConfigServerSnapshots []doc       `json:"configServerSnapshots,omitempty"`
	OplogStores           []doc       `json:"oplogStores,omitempty"`
	SnapshotStores        []doc       `json:"snapshotStores,omitempty"`
	BackupJobConfigs      []doc       `json:"backupJobConfigs,omitempty"`

	// schedules are the notification schedules of alerts the engine
	// raised, by alert id: a state file has them, a fixture file never.
	schedules map[string]*scheduleRecord
}

var fixtureKeys = []string{"orgs", "projects", "apiKeys", "users", "alerts", "alertConfigs", "globalAlerts",
	"globalAlertConfigs", "backupConfigs", "snapshots", "configServerSnapshots", "oplogStores", "snapshotStores", "backupJobConfigs"}

// LoadFixtures reads and validates a fixture file.
func LoadFixtures(path string) (*Fixtures, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("fixture file %s: %s", path, plainError(err))
	}
	defer file.Close()
	again := func() (io.ReadCloser, error) { return os.Open(path) }
	return readFixtures(path, bufio.NewReaderSize(file, 1<<20), again)
}

// ParseFixtures decodes and validates fixture data; name is used in messages.
func ParseFixtures(name string, data []byte) (*Fixtures, error) {
	again := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
	return readFixtures(name, bytes.NewReader(data), again)
}

// readFixtures decodes a fixture file as a stream, so that a file of a
// million alerts is never held whole; alerts are parsed by as many
// workers as there are processors.
func readFixtures(name string, r io.Reader, again func() (io.ReadCloser, error)) (*Fixtures, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	// A JSON mistake is told by line and column; a wrong shape by what the
	// file should be.
	var start int64 // where the decoder stood before its last call
	malformed := func(errs ...error) error {
		var err error
		if len(errs) > 0 {
			err = errs[0]
		}
		if err != nil {
			return fmt.Errorf("%s, %s", name, jsonError(again, start, err))
		}
		return fmt.Errorf("%s: not a JSON object of arrays (%s)", name, strings.Join(fixtureKeys, ", "))
	}
	token := func() (json.Token, error) {
		start = dec.InputOffset()
		return dec.Token()
	}
	if tok, err := token(); err != nil || tok != json.Delim('{') {
		return nil, malformed(err)
	}
	f := &Fixtures{}
	lists := f.lists()
	alertLists := map[string]*[]*AlertDoc{"alerts": &f.Alerts, "globalAlerts": &f.GlobalAlerts}
	for dec.More() {
		tok, err := token()
		if err != nil {
			return nil, malformed(err)
		}
		k, _ := tok.(string)
		dst, isDoc := lists[k]
		alertDst, isAlert := alertLists[k]
		if !isDoc && !isAlert {
			return nil, fmt.Errorf("%s: unknown key %q: known keys are %s", name, k, strings.Join(fixtureKeys, ", "))
		}
		if tok, err := token(); err != nil || tok != json.Delim('[') {
			return nil, fmt.Errorf("%s: %s: must be an array of objects", name, k)
		}
		if isAlert {
			alerts, err := readAlerts(dec)
			var decErr *decodeError
			if errors.As(err, &decErr) {
				start = decErr.start
				return nil, malformed(decErr.err)
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %s%v", name, k, err)
			}
			*alertDst = append(*alertDst, alerts...)
		} else {
			for i := 0; dec.More(); i++ {
				var v any
				start = dec.InputOffset()
				if err := dec.Decode(&v); err != nil {
					return nil, malformed(err)
				}
				m, ok := v.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("%s: %s[%d]: must be an object", name, k, i)
				}
				*dst = append(*dst, m)
			}
		}
		if _, err := token(); err != nil {
			return nil, malformed(err)
		}
	}
	if _, err := token(); err != nil {
		return nil, malformed(err)
	}
	if _, err := token(); err != io.EOF {
		return nil, fmt.Errorf("%s: unexpected data after the fixture object", name)
	}
	if err := f.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return f, nil
}

// readAlerts parses the items of an array of alerts.
func readAlerts(dec *json.Decoder) ([]*AlertDoc, error) {
	p := newAlertParser()
	for dec.More() {
		var raw json.RawMessage
		start := dec.InputOffset()
		if err := dec.Decode(&raw); err != nil {
			p.finish()
			return nil, &decodeError{err, start}
		}
		p.add(raw)
	}
	return p.finish()
}

// decodeError is JSON that does not decode, which the caller locates.
type decodeError struct {
	err   error
	start int64
}

func (e *decodeError) Error() string { return ": not valid JSON" }

// alertParser parses alerts on every processor, in chunks, keeping their
// order; an error names the first bad item.
type alertParser struct {
	jobs   chan *alertJob
	queued []*alertJob
	cur    *alertJob
	n      int
	wg     sync.WaitGroup
}

type alertJob struct {
	first int
	raws  [][]byte
	out   []*AlertDoc
	err   error
}

const alertChunk = 2048

func newAlertParser() *alertParser {
	p := &alertParser{jobs: make(chan *alertJob), cur: &alertJob{}}
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			ar := &arena{}
			for j := range p.jobs {
				j.out = make([]*AlertDoc, len(j.raws))
				for i, raw := range j.raws {
					a, err := parseAlert(raw, ar)
					if err != nil {
						j.err = fmt.Errorf("[%d]: %s", j.first+i, err.Rule())
						break
					}
					j.out[i] = a
				}
				j.raws = nil
			}
		}()
	}
	return p
}

// add queues one alert; raw must not change afterwards.
func (p *alertParser) add(raw []byte) {
	p.cur.raws = append(p.cur.raws, raw)
	p.n++
	if len(p.cur.raws) == alertChunk {
		p.send()
	}
}

func (p *alertParser) send() {
	p.queued = append(p.queued, p.cur)
	p.jobs <- p.cur
	p.cur = &alertJob{first: p.n}
}

// finish waits for the workers and returns the alerts in order.
func (p *alertParser) finish() ([]*AlertDoc, error) {
	if len(p.cur.raws) > 0 {
		p.send()
	}
	close(p.jobs)
	p.wg.Wait()
	out := make([]*AlertDoc, 0, p.n)
	for _, j := range p.queued {
		if j.err != nil {
			return nil, j.err
		}
		out = append(out, j.out...)
	}
	return out, nil
}

// lists names the fixture keys whose items are kept as documents (alerts
// are kept as AlertDocs).
func (f *Fixtures) lists() map[string]*[]doc {
	return map[string]*[]doc{"orgs": &f.Orgs, "projects": &f.Projects, "apiKeys": &f.APIKeys, "users": &f.Users,
		"alertConfigs": &f.AlertConfigs, "globalAlertConfigs": &f.GlobalAlertConfigs, "backupConfigs": &f.BackupConfigs,
		"snapshots": &f.Snapshots, "configServerSnapshots": &f.ConfigServerSnapshots, "oplogStores": &f.OplogStores,
		"snapshotStores": &f.SnapshotStores, "backupJobConfigs": &f.BackupJobConfigs}
}

// Clone deep-copies the fixtures, so a running server never changes them
// and reset can go back to them.
func (f *Fixtures) Clone() *Fixtures {
	c := &Fixtures{}
	src, dst := f.lists(), c.lists()
	for k, items := range src {
		for _, d := range *items {
			*dst[k] = append(*dst[k], rules.CopyJSON(d).(doc))
		}
	}
	// Alerts and schedules never change once made, so they are shared.
	c.schedules = f.schedules
	c.Alerts = append([]*AlertDoc(nil), f.Alerts...)
	c.GlobalAlerts = append([]*AlertDoc(nil), f.GlobalAlerts...)
	return c
}

// keyInOneOrg refuses a key whose roles name two organizations: its one
// access list would be in the hands of both.
func keyInOneOrg(d doc, projectOrg map[string]string) error {
	seen := ""
	roles, _ := d["roles"].([]any)
	for _, r := range roles {
		role, _ := r.(map[string]any)
		org, _ := role["orgId"].(string)
		if group, _ := role["groupId"].(string); group != "" {
			org = projectOrg[group]
		}
		if org == "" {
			continue
		}
		if seen != "" && org != seen {
			return fmt.Errorf("roles name organizations %s and %s; an API key belongs to one organization", seen, org)
		}
		seen = org
	}
	return nil
}

type fixtureError struct {
	key   string
	index int
	rule  string
}

func (e *fixtureError) Error() string { return fmt.Sprintf("%s[%d]: %s", e.key, e.index, e.rule) }

// validate checks every rule of the API that a fixture can break.
func (f *Fixtures) validate() error {
	orgs, projects := map[string]bool{}, map[string]bool{}
	projectOrg := map[string]string{}
	fail := func(key string, i int, format string, a ...any) error {
		return &fixtureError{key, i, fmt.Sprintf(format, a...)}
	}
	needID := func(key string, i int, d doc, field string) (string, error) {
		id, _ := d[field].(string)
		if !api.IsObjectID(id) {
			return "", fail(key, i, "%s %v must be 24 hexadecimal digits", field, d[field])
		}
		return id, nil
	}
	needProject := func(key string, i int, d doc) error {
		id, err := needID(key, i, d, "groupId")
		if err != nil {
			return err
		}
		if !projects[id] {
			return fail(key, i, "groupId %s is not a project of the fixtures (projects)", id)
		}
		return nil
	}
	// uniqueID checks the form of each item's id and that no id repeats.
	uniqueID := func(key string) func(int, doc) (string, error) {
		seen := map[string]bool{}
		return func(i int, d doc) (string, error) {
			id, err := needID(key, i, d, "id")
			if err != nil {
				return "", err
			}
			if seen[id] {
				return "", fail(key, i, "id %s appears twice", id)
			}
			seen[id] = true
			return id, nil
		}
	}
	check := func(key string, i int, s rules.Schema, d doc) error {
		if err := s.CheckFixture(d, ""); err != nil {
			return fail(key, i, "%s", err.Rule())
		}
		return nil
	}

	idOf := uniqueID("orgs")
	for i, d := range f.Orgs {
		id, err := idOf(i, d)
		if err != nil {
			return err
		}
		if err := check("orgs", i, rules.OrgResource(), d); err != nil {
			return err
		}
		orgs[id] = true
	}
	idOf = uniqueID("projects")
	for i, d := range f.Projects {
		id, err := idOf(i, d)
		if err != nil {
			return err
		}
		if err := check("projects", i, rules.ProjectResource(), d); err != nil {
			return err
		}
		if org, _ := d["orgId"].(string); org != "" && !orgs[org] {
			// An organization named only by its projects exists all the same.
			if !api.IsObjectID(org) {
				return fail("projects", i, "orgId %s must be 24 hexadecimal digits", org)
			}
			orgs[org] = true
			f.Orgs = append(f.Orgs, doc{"id": org, "name": ""})
		}
		projects[id] = true
		projectOrg[id], _ = d["orgId"].(string)
	}
	credentials := map[string]string{}
	checkRoles := func(key string, i int, d doc) error {
		roles, isList := d["roles"].([]any)
		if d["roles"] != nil && !isList {
			return fail(key, i, "roles must be an array of {orgId?, groupId?, roleName}")
		}
		for j, r := range roles {
			role, ok := r.(map[string]any)
			if !ok {
				return fail(key, i, "roles[%d] must be an object {orgId?, groupId?, roleName}", j)
			}
			name, _ := role["roleName"].(string)
			org, _ := role["orgId"].(string)
			group, _ := role["groupId"].(string)
			switch {
			case group != "":
				if !projects[group] {
					return fail(key, i, "roles[%d].groupId %s is not a project of the fixtures", j, group)
				}
				if !api.OneOf(name, api.ProjectRoles) {
					return fail(key, i, "roles[%d].roleName %q is not a project role (%s)", j, name, strings.Join(api.ProjectRoles, ", "))
				}
			case org != "":
				if !orgs[org] {
					return fail(key, i, "roles[%d].orgId %s is not an organization of the fixtures", j, org)
				}
				if !api.OneOf(name, api.OrgRoles) {
					return fail(key, i, "roles[%d].roleName %q is not an organization role (%s)", j, name, strings.Join(api.OrgRoles, ", "))
				}
			default:
				if !api.OneOf(name, api.GlobalRoles) {
					return fail(key, i, "roles[%d].roleName %q is not a global role (%s)", j, name, strings.Join(api.GlobalRoles, ", "))
				}
			}
		}
		return nil
	}
	idOf = uniqueID("apiKeys")
	for i, d := range f.APIKeys {
		if d["id"] == nil {
			d["id"] = NewObjectID()
		}
		if _, err := idOf(i, d); err != nil {
			return err
		}
		pub, _ := d["publicKey"].(string)
		priv, _ := d["privateKey"].(string)
		if pub == "" || priv == "" {
			return fail("apiKeys", i, "publicKey and privateKey are required")
		}
		if other, dup := credentials[pub]; dup {
			return fail("apiKeys", i, "publicKey %s is already used by %s", pub, other)
		}
		credentials[pub] = "apiKeys[" + fmt.Sprint(i) + "]"
		if err := checkRoles("apiKeys", i, d); err != nil {
			return err
		}
		if err := keyInOneOrg(d, projectOrg); err != nil {
			return fail("apiKeys", i, "%v", err)
		}
		// Fail closed: an access list that cannot be read must not leave
		// the key usable from anywhere.
		entries, isList := d["accessList"].([]any)
		if d["accessList"] != nil && !isList {
			return fail("apiKeys", i, "accessList must be an array of {ipAddress} or {cidrBlock}")
		}
		if len(entries) > rules.MaxAccessListEntries {
			return fail("apiKeys", i, "accessList has %d entries; a key holds at most %d", len(entries), rules.MaxAccessListEntries)
		}
		for j, e := range entries {
			m, _ := e.(map[string]any)
			if _, err := rules.AccessListEntry(m); err != nil {
				return fail("apiKeys", i, "accessList[%d]: %s", j, err.Rule())
			}
		}
	}
	for i, d := range f.Users {
		name, _ := d["username"].(string)
		key, _ := d["apiKey"].(string)
		if name == "" || key == "" {
			return fail("users", i, "username and apiKey are required")
		}
		if other, dup := credentials[name]; dup {
			return fail("users", i, "username %s is already used by %s", name, other)
		}
		credentials[name] = "users[" + fmt.Sprint(i) + "]"
		if err := checkRoles("users", i, d); err != nil {
			return err
		}
	}
	for _, set := range []struct {
		key     string
		items   []*AlertDoc
		project bool
	}{{"alerts", f.Alerts, true}, {"globalAlerts", f.GlobalAlerts, false}} {
		seen := make(map[string]bool, len(set.items))
		for i, a := range set.items {
			if !api.IsObjectID(a.ID) {
				return fail(set.key, i, "id %s must be 24 hexadecimal digits", a.ID)
			}
			if seen[a.ID] {
				return fail(set.key, i, "id %s appears twice", a.ID)
			}
			seen[a.ID] = true
			if set.project || a.GroupID != "" {
				if !api.IsObjectID(a.GroupID) {
					return fail(set.key, i, "groupId %s must be 24 hexadecimal digits", a.GroupID)
				}
				if !projects[a.GroupID] {
					return fail(set.key, i, "groupId %s is not a project of the fixtures (projects)", a.GroupID)
				}
			}
		}
	}
	for _, set := range []struct {
		key    string
		items  []doc
		global bool
	}{{"alertConfigs", f.AlertConfigs, false}, {"globalAlertConfigs", f.GlobalAlertConfigs, true}} {
		idOf := uniqueID(set.key)
		for i, d := range set.items {
			if _, err := idOf(i, d); err != nil {
				return err
			}
			if !set.global {
				if err := needProject(set.key, i, d); err != nil {
					return err
				}
			}
			if err := check(set.key, i, rules.AlertConfigResource(set.global), d); err != nil {
				return err
			}
			if !api.IsEventTypeName(d["eventTypeName"].(string)) {
				return fail(set.key, i, "eventTypeName %q is not an event type name", d["eventTypeName"])
			}
			if err := rules.CheckMatchers(d); err != nil {
				return fail(set.key, i, "%s", err.Rule())
			}
		}
	}
	seenBC := map[string]bool{}
	for i, d := range f.BackupConfigs {
		if err := needProject("backupConfigs", i, d); err != nil {
			return err
		}
		cluster, err := needID("backupConfigs", i, d, "clusterId")
		if err != nil {
			return err
		}
		k := d["groupId"].(string) + "/" + cluster
		if seenBC[k] {
			return fail("backupConfigs", i, "cluster %s of project %s appears twice", cluster, d["groupId"])
		}
		seenBC[k] = true
		if err := check("backupConfigs", i, rules.BackupConfigResource(), d); err != nil {
			return err
		}
		if rules.NamespacesExclusive(rules.StringList(d["excludedNamespaces"]), rules.StringList(d["includedNamespaces"])) != nil {
			return fail("backupConfigs", i, "excludedNamespaces and includedNamespaces are mutually exclusive")
		}
	}
	for _, set := range []struct {
		key   string
		items []doc
		host  bool
	}{{"snapshots", f.Snapshots, false}, {"configServerSnapshots", f.ConfigServerSnapshots, true}} {
		idOf := uniqueID(set.key)
		for i, d := range set.items {
			if _, err := idOf(i, d); err != nil {
				return err
			}
			if err := needProject(set.key, i, d); err != nil {
				return err
			}
			if set.host {
				if snapshotHost(d) == "" {
					return fail(set.key, i, "parts[0].hostId is required: it names the config server")
				}
			} else if _, err := needID(set.key, i, d, "clusterId"); err != nil {
				return err
			}
			if err := check(set.key, i, rules.SnapshotResource(), d); err != nil {
				return err
			}
		}
	}
	for _, set := range []struct {
		key   string
		items []doc
	}{{"oplogStores", f.OplogStores}, {"snapshotStores", f.SnapshotStores}} {
		names := map[string]bool{}
		for i, d := range set.items {
			id, _ := d["id"].(string)
			if id == "" {
				return fail(set.key, i, "id is required: it is the store's name")
			}
			if names[id] {
				return fail(set.key, i, "id %s appears twice", id)
			}
			names[id] = true
			if err := check(set.key, i, rules.StoreResource(), d); err != nil {
				return err
			}
		}
	}
	idOf = uniqueID("backupJobConfigs")
	for i, d := range f.BackupJobConfigs {
		if _, err := idOf(i, d); err != nil {
			return err
		}
		if err := check("backupJobConfigs", i, rules.BackupJobConfigResource(), d); err != nil {
			return err
		}
	}
	return nil
}

func snapshotHost(d doc) string {
	parts, _ := d["parts"].([]any)
	if len(parts) == 0 {
		return ""
	}
	p, _ := parts[0].(map[string]any)
	h, _ := p["hostId"].(string)
	return h
}
