package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
)

// judgedAlert is an alert the fixture loader takes: read by the fast path
// (w, its fields f, the members to drop, whether it is compact) when it
// is canonical, or else by the schema (d).
type judgedAlert struct {
	w       alertWire
	f       alertFields
	drop    uint32 // bit k: member k is cut out (alertWire.canonical)
	compact bool
	d       doc
}

// judgeAlert applies to one alert of a fixture the rules of the alert
// itself (those of its place in a list are alertList's): the one place
// they are applied, for the server's loader (parseAlert) and for what
// checks alerts before writing a fixture (AlertCheck).
func judgeAlert(raw []byte) (j judgedAlert, err *rules.Error) {
	// An alert pasted from a GET answer carries the service's links, which
	// the server's own replace: the schema drops them, and the fast path,
	// which keeps the members it does not read, leaves an alert with links
	// to it.
	if compact, ok := j.w.scan(raw); ok {
		if f, ok, drop := j.w.canonical(); ok {
			j.f, j.drop, j.compact = f, drop, compact
			return j, nil
		}
	}
	j.w = alertWire{}
	j.d, err = schemaAlert(raw)
	return j, err
}

// schemaAlert reads an alert by its schema, which says what is wrong.
// raw is one JSON object and nothing after it, as the fast path and the
// server's request bodies require (a state file's record, say, cut or
// run together with another is not an alert).
func schemaAlert(raw []byte) (doc, *rules.Error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var d doc
	if err := dec.Decode(&d); err != nil || d == nil {
		return nil, rules.Invalidf("INVALID_JSON", "must be an object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, rules.Invalidf("INVALID_JSON", "must be one object, with nothing after it")
	}
	delete(d, "links")
	if err := alertSchema().CheckFixture(d, ""); err != nil {
		return nil, namingTheAlert(d, err)
	}
	return d, nil
}

// alertSchema is the schema of an alert, built once, when first needed:
// building it (its lists of allowed values) cost more than checking an
// alert with it.
var alertSchema = sync.OnceValue(rules.AlertResource)

// namingTheAlert is a rule an alert breaks, naming the alert by its id
// when it has a valid one (another is itself the rule broken, said
// later): in a state file, or a list of thousands, its place says little.
// The id comes after the rule, which follows the item's place
// (docs/server.md, Fixture file).
func namingTheAlert(d doc, err *rules.Error) *rules.Error {
	id, _ := d["id"].(string)
	if !api.IsObjectID(id) {
		return err
	}
	named := *err
	named.Detail = strings.TrimSuffix(err.Detail, ".") + " (in alert " + id + ")."
	return &named
}

// ids are the alert's id and project, as the loader reads them.
func (j *judgedAlert) ids() (id, project string) {
	if j.d != nil {
		id, _ = j.d["id"].(string)
		project, _ = j.d["groupId"].(string)
		return id, project
	}
	return j.f.ID, j.f.GroupID
}

// alertList is what the loader requires of an alert for its place in a
// list (alerts, or globalAlerts when not project): an id of its own, and
// a project of the fixtures.
type alertList struct {
	project bool
	// The ids so far: those in lower case, most, as their 12 bytes, a
	// third of the string's size; in a list while each comes after the
	// one before (ids are mostly made in time order, and lists given in
	// it), where a repeat is looked for by bisection, and in a set from
	// the first that does not.
	inOrder   [][12]byte
	seen      map[[12]byte]struct{}
	seenOther map[string]struct{}
	// lastProject is the last project found among the fixtures' ("" for
	// none yet).
	lastProject string
}

func newAlertList(project bool, size int) *alertList {
	return &alertList{project: project, inOrder: make([][12]byte, 0, size), seenOther: map[string]struct{}{}}
}

// check gives the rule an alert of the list breaks, "" for none.
func (l *alertList) check(id, project string, projects map[string]bool) string {
	if !api.IsObjectID(id) {
		return fmt.Sprintf("id %s must be 24 hexadecimal digits", id)
	}
	if key, ok := lowerHex(id); ok && !l.add(key) || !ok && !l.addOther(id) {
		return fmt.Sprintf("id %s appears twice", id)
	}
	if !l.project && project == "" || project != "" && project == l.lastProject {
		return ""
	}
	if !api.IsObjectID(project) {
		return fmt.Sprintf("groupId %s must be 24 hexadecimal digits", project)
	}
	if !projects[project] {
		return fmt.Sprintf("groupId %s is not a project of the fixtures (projects)", project)
	}
	// Alerts come project by project: the next is likely of this one. A
	// copy, as for addOther.
	l.lastProject = strings.Clone(project)
	return ""
}

// add adds the id written in lower case as key, and says whether it was
// not there.
func (l *alertList) add(key [12]byte) bool {
	n := len(l.inOrder)
	if l.seen == nil && (n == 0 || bytes.Compare(key[:], l.inOrder[n-1][:]) > 0) {
		l.inOrder = append(l.inOrder, key)
		return true
	}
	if _, found := slices.BinarySearchFunc(l.inOrder, key, func(a, b [12]byte) int { return bytes.Compare(a[:], b[:]) }); found {
		return false
	}
	if l.seen == nil {
		l.seen = map[[12]byte]struct{}{}
	}
	return added(l.seen, key)
}

// addOther adds an id not in lower case to seenOther, and says whether it
// was not there. The key kept is a copy: id may point into the caller's
// bytes (the fast path does not copy), which AlertCheck's caller reuses.
func (l *alertList) addOther(id string) bool {
	if _, dup := l.seenOther[id]; dup {
		return false
	}
	l.seenOther[strings.Clone(id)] = struct{}{}
	return true
}

// added adds k to the set, and says whether it was not there (with one
// look-up: there is one for each alert).
func added[K comparable](set map[K]struct{}, k K) bool {
	n := len(set)
	set[k] = struct{}{}
	return len(set) > n
}

// lowerHex is the 12 bytes an ObjectId in lower case writes; false for
// any other string.
func lowerHex(id string) (key [12]byte, ok bool) {
	if len(id) != 2*len(key) {
		return key, false
	}
	for i := range key {
		hi, lo := lowerHexDigit[id[2*i]], lowerHexDigit[id[2*i+1]]
		if hi|lo > 0xf {
			return key, false
		}
		key[i] = hi<<4 | lo
	}
	return key, true
}

// lowerHexDigit is the value of each digit of lower-case hexadecimal,
// 0xff for every other byte.
var lowerHexDigit = func() (t [256]byte) {
	for c := range t {
		switch {
		case '0' <= c && c <= '9':
			t[c] = byte(c - '0')
		case 'a' <= c && c <= 'f':
			t[c] = byte(c - 'a' + 10)
		default:
			t[c] = 0xff
		}
	}
	return t
}()

// AlertCheck checks alerts one at a time with the rules omctl server's
// fixture loader applies to the items of a fixture's alerts or
// globalAlerts (docs/server.md, Fixture file), without building the
// server's alerts: for a program writing a fixture (fixtures capture) to
// know that the server will load it, at a fraction of the loader's cost.
// It is safe for concurrent use.
type AlertCheck struct {
	mu       sync.Mutex
	list     *alertList
	projects map[string]bool
}

// NewAlertCheck checks the items of key (alerts or globalAlerts) of a
// fixture whose projects have the ids given (each, itself, valid).
func NewAlertCheck(key string, projects []string) *AlertCheck {
	if key != "alerts" && key != "globalAlerts" {
		panic("store.NewAlertCheck: no list of alerts " + key)
	}
	c := &AlertCheck{list: newAlertList(key == "alerts", 0), projects: map[string]bool{}}
	for _, p := range projects {
		c.projects[p] = true
	}
	return c
}

// Check checks the next item of the list, raw (one item, as a page of
// the API gives it), and gives the rule it breaks. Check keeps nothing
// of raw: the caller may reuse it once Check returns. Readers of several
// lists (one a project) may share one AlertCheck, which then holds the
// ids of them all.
func (c *AlertCheck) Check(raw []byte) error {
	_, err := c.CheckActive(raw)
	return err
}

// ActiveAlert is an alert the engine counts as active (OPEN or TRACKING,
// of a configuration), with what its rule of one active alert per
// configuration and target needs to know (Fixtures.CheckEngineRules).
type ActiveAlert struct {
	ID      string
	Created time.Time
	// Pair names the configuration and the target identity in the
	// project: two active alerts with the same Pair break the rule.
	Pair string
}

// CheckActive is Check that also says, for an alert the engine counts
// as active, which configuration and target it is active for (the zero
// ActiveAlert for the others): the rule of one active alert per pair is
// the caller's to keep, a fixture file being refused for breaking it.
func (c *AlertCheck) CheckActive(raw []byte) (ActiveAlert, error) {
	j, err := judgeAlert(raw)
	if err != nil {
		return ActiveAlert{}, fmt.Errorf("%s", err.Rule())
	}
	id, project := j.ids()
	c.mu.Lock()
	rule := c.list.check(id, project, c.projects)
	c.mu.Unlock()
	if rule != "" {
		return ActiveAlert{}, fmt.Errorf("%s", rule)
	}
	f := j.f
	if j.d != nil {
		f = fieldsOf(j.d)
	}
	k, active := activePairOf(&AlertDoc{alertFields: f})
	if !active {
		return ActiveAlert{}, nil
	}
	return ActiveAlert{ID: strings.Clone(f.ID), Created: f.Created, Pair: "configuration " + k.Config + " and " + k.Target.describe()}, nil
}
