package model

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/store/alert"
)

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
	j, err := alert.Judge(raw)
	if err != nil {
		return ActiveAlert{}, fmt.Errorf("%s", err.Rule())
	}
	id, project := j.IDs()
	c.mu.Lock()
	rule := c.list.check(id, project, c.projects)
	c.mu.Unlock()
	if rule != "" {
		return ActiveAlert{}, fmt.Errorf("%s", rule)
	}
	id, created, k, active := j.ActivePair()
	if !active {
		return ActiveAlert{}, nil
	}
	return ActiveAlert{ID: strings.Clone(id), Created: created, Pair: "configuration " + k.Config + " and " + k.Target.Describe()}, nil
}
