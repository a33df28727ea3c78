package alert

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/jsonlex"
	"github.com/omctl/omctl/internal/rules"
)

// The members of an alert the fast path reads (alertWire), numbered.
const (
	wireID = iota
	wireGroupID
	wireAlertConfigID
	wireEventTypeName
	wireStatus
	wireCreated
	wireUpdated
	wireLastNotified
	wireResolved
	wireAcknowledgedUntil
	wireMetricName
	wireSourceTypeName
	wireCurrentValue
	wireTags
	wireClusterID
	wireClusterName
	wireHostID
	wireHostnameAndPort
	wireReplicaSetName
	wireMembers
)

var wireNames = [wireMembers]string{"id", "groupId", "alertConfigId", "eventTypeName", "status", "created", "updated",
	"lastNotified", "resolved", "acknowledgedUntil", "metricName", "sourceTypeName", "currentValue", "tags",
	"clusterId", "clusterName", "hostId", "hostnameAndPort", "replicaSetName"}

// alertWire is what the fast path reads of an alert: the members the
// server reasons about. Its strings are the alert's own bytes, not copies
// (a million alerts are read at start): nothing may keep one beyond the
// alert's JSON (parseAlert copies what a Doc keeps).
type alertWire struct {
	has    uint32                   // bit k: member k is there (wireNumber, wireUnits: currentValue's)
	str    [wireCurrentValue]string // the string members
	number string                   // currentValue's
	units  string
	target [wireMembers - wireClusterID]json.RawMessage // clusterId to replicaSetName
	// span is where member k is written in the alert, from its name's
	// opening quote to the end of its value: the members 2.1 does not
	// show are cut out there (without).
	span [wireMembers]struct{ from, to int }
}

// The members of currentValue, numbered after the alert's.
const (
	wireNumber = wireMembers + iota
	wireUnits
)

func (w *alertWire) is(k int) bool { return w.has&(1<<k) != 0 }

// scan reads raw, an alert, into w in one pass, without reflection and
// without copying: the server reads a million alerts at its start, and
// fixtures capture checks every alert it reads, with it. It reports
// whether raw is compact (no space between its tokens), and false in ok
// when the alert must take the schema's path instead, which says what is
// wrong with it or writes it anew: not JSON, or not an object; a member
// w reads written twice, in other letter case, or with an escape or a
// byte beyond ASCII in its name or in its string value; a member w reads
// of another type than it reads (a string; currentValue an object of a
// number and a string units; tags an array of strings; no null); a
// member links, which the schema's path drops. What is left is read the
// same by the schema's path, so the fast path takes
// nothing that path would refuse (FuzzTheFastPathTakesWhatTheSchemaTakes).
func (w *alertWire) scan(raw []byte) (compact, ok bool) {
	s := scanner{b: raw}
	ok = s.object(func(name []byte, plain bool) bool {
		k := wireMember(name)
		switch {
		case !plain:
			return false
		case k < 0:
			return string(name) != "links" && !foldsTo(name, wireNames[:]) && s.skip()
		case w.is(k):
			return false
		}
		w.has |= 1 << k
		from := s.nameAt
		ok := w.read(k, &s)
		w.span[k] = struct{ from, to int }{from, s.i}
		return ok
	})
	s.space()
	return !s.spaced, ok && s.i == len(raw)
}

// read reads the value of member k.
func (w *alertWire) read(k int, s *scanner) bool {
	switch {
	case k == wireCurrentValue:
		return s.currentValue(w)
	case k == wireTags:
		return s.array(func() bool { _, _, ok := s.str(); return ok })
	case k >= wireClusterID:
		start := s.i
		if !s.skip() || string(s.b[start:s.i]) == "null" {
			return false
		}
		w.target[k-wireClusterID] = s.b[start:s.i]
		return true
	}
	v, plain, ok := s.str()
	w.str[k] = bytesString(v)
	return ok && plain
}

// currentValue reads {"number": N, "units": "U"}, either absent, others
// skipped.
func (s *scanner) currentValue(w *alertWire) bool {
	return s.object(func(name []byte, plain bool) bool {
		switch {
		case !plain:
			return false
		case string(name) == "number" && !w.is(wireNumber):
			w.has |= 1 << wireNumber
			start := s.i
			if c := s.peek(); !(c == '-' || '0' <= c && c <= '9') || !s.skip() {
				return false
			}
			w.number = bytesString(s.b[start:s.i])
			return true
		case string(name) == "units" && !w.is(wireUnits):
			w.has |= 1 << wireUnits
			v, plain, ok := s.str()
			w.units = bytesString(v)
			return ok && plain
		}
		return !foldsTo(name, []string{"number", "units"}) && s.skip()
	})
}

// canonical reports whether the alert is valid as it is, its fields, and
// the top-level members to drop (those 2.1 does not show for its event
// type and status; bit k for member k) for it to be stored.
func (w *alertWire) canonical() (f alertFields, ok bool, drop uint32) {
	f, ok = w.fields()
	if !ok {
		return f, false, 0
	}
	if f.Status != api.StatusClosed && w.is(wireResolved) {
		drop |= 1 << wireResolved
	}
	for _, k := range [...]int{wireClusterID, wireClusterName, wireHostID, wireHostnameAndPort, wireReplicaSetName,
		wireCurrentValue, wireMetricName, wireSourceTypeName} {
		if w.is(k) && !rules.AlertFieldAllowed(wireNames[k], f.EventTypeName) {
			drop |= 1 << k
		}
	}
	if !f.mayBeActive() {
		return f, true, drop
	}
	var t Target
	for _, k := range [...]int{wireHostID, wireHostnameAndPort, wireClusterID, wireClusterName, wireReplicaSetName} {
		if w.is(k) && drop&(1<<k) == 0 {
			*t.Field(wireNames[k]) = targetString(w.target[k-wireClusterID])
		}
	}
	f.identity = t.Identity()
	return f, true, drop
}

// targetString reads a member that names a target: only a string does,
// as targetOf reads it.
func targetString(v json.RawMessage) string {
	if len(v) < 2 || v[0] != '"' {
		return ""
	}
	if plain := v[1 : len(v)-1]; bytes.IndexByte(plain, '\\') < 0 && utf8.Valid(plain) {
		return bytesString(plain)
	}
	var s string
	_ = json.Unmarshal(v, &s)
	return s
}

// fields checks the members the server reasons about, each already as
// the server writes it.
func (w *alertWire) fields() (alertFields, bool) {
	var f alertFields
	for _, k := range [...]int{wireID, wireStatus, wireEventTypeName, wireCreated, wireUpdated} {
		if !w.is(k) {
			return f, false
		}
	}
	f.ID, f.Status, f.EventTypeName = w.str[wireID], w.str[wireStatus], w.str[wireEventTypeName]
	f.GroupID, f.AlertConfigID = w.str[wireGroupID], w.str[wireAlertConfigID]
	if !api.OneOf(f.Status, api.AlertStatuses) || f.EventTypeName == "" {
		return f, false
	}
	var ok bool
	var last timeMemo // an alert's times are often the same
	if f.Created, ok = w.canonicalTime(wireCreated, &last); !ok {
		return f, false
	}
	for _, k := range [...]int{wireUpdated, wireLastNotified, wireResolved} {
		if _, ok := w.canonicalTime(k, &last); !ok {
			return f, false
		}
	}
	if f.AcknowledgedUntil, ok = w.canonicalTime(wireAcknowledgedUntil, &last); !ok {
		return f, false
	}
	if w.is(wireMetricName) && !api.OneOf(w.str[wireMetricName], api.MetricNames) ||
		w.is(wireSourceTypeName) && !api.OneOf(w.str[wireSourceTypeName], api.SourceTypeNames) {
		return f, false
	}
	if w.is(wireUnits) && !api.OneOf(w.units, api.Units) ||
		w.is(wireNumber) && fmt.Sprint(rules.NormalizeNumbers(json.Number(w.number))) != w.number {
		return f, false
	}
	return f, true
}

// canonicalTime parses an optional timestamp that must already be written
// as the server writes it (rules.FormatTime: 2006-01-02T15:04:05Z). The
// form is looked at before the time is parsed, and no time is written:
// what parses in that form is written as it is (TestCanonicalTimes).
func (w *alertWire) canonicalTime(k int, last *timeMemo) (time.Time, bool) {
	if !w.is(k) {
		return time.Time{}, true
	}
	s := w.str[k]
	if s == last.s && s != "" {
		return last.t, true
	}
	if len(s) != len("2006-01-02T15:04:05Z") {
		return time.Time{}, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if want := "dddd-dd-ddTdd:dd:ddZ"[i]; want == 'd' && (c < '0' || c > '9') || want != 'd' && c != want {
			return time.Time{}, false
		}
	}
	t, err := rules.ParseTimestamp(s)
	if err != nil {
		return time.Time{}, false
	}
	*last = timeMemo{s, t}
	return t, true
}

// timeMemo is the last time canonicalTime read.
type timeMemo struct {
	s string
	t time.Time
}

// bytesString is b as a string without copying it: b must not change
// while the string is in use.
func bytesString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// wireMember numbers a member name; -1 for one the fast path does not read.
func wireMember(name []byte) int {
	if len(name) < len(wireByLength) {
		for _, k := range wireByLength[len(name)] {
			if wireNames[k] == string(name) {
				return k
			}
		}
	}
	return -1
}

// wireByLength are the members numbered by the length of their names:
// an alert has ten or so members, each looked up.
var wireByLength = func() (by [len("acknowledgedUntil") + 1][]int) {
	for k, n := range wireNames {
		by[len(n)] = append(by[len(n)], k)
	}
	return by
}()

// foldsTo reports whether name is one of names in any letter case.
func foldsTo(name []byte, names []string) bool {
	for _, n := range names {
		if len(n) == len(name) && asciiEqualFold(n, name) {
			return true
		}
	}
	return false
}

func asciiEqualFold(a string, b []byte) bool {
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// scanner walks JSON, and stops, with false, at anything that is not
// JSON (RFC 8259, as encoding/json reads it, nested no deeper than it
// allows). It does not say what is wrong: the alert then takes the
// schema's path, whose decoder says. So nothing is taken for an alert
// that is not JSON, whoever gives it (a state file, a page).
type scanner struct {
	b      []byte
	i      int
	depth  int
	spaced bool // a space was seen between tokens
	nameAt int  // where the name of the member being read starts
}

// maxDepth is encoding/json's bound on nesting.
const maxDepth = 10000

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
			s.spaced = true
			s.i++
		default:
			return
		}
	}
}

// peek is the next byte after spaces, 0 at the end.
func (s *scanner) peek() byte {
	s.space()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

func (s *scanner) eat(c byte) bool {
	if s.peek() == c {
		s.i++
		return true
	}
	return false
}

// object reads the object that is next, giving member each name (its
// bytes, and whether they are plain as str says) to read its value.
func (s *scanner) object(member func(name []byte, plain bool) bool) bool {
	return s.sequence('{', '}', func() bool {
		s.space()
		s.nameAt = s.i
		name, plain, ok := s.str()
		if !ok || !s.eat(':') {
			return false
		}
		s.space()
		return member(name, plain)
	})
}

// array reads the array that is next, elem reading each element.
func (s *scanner) array(elem func() bool) bool { return s.sequence('[', ']', elem) }

// sequence reads elements between open and close, separated by commas.
func (s *scanner) sequence(open, close byte, elem func() bool) bool {
	if !s.eat(open) || !s.deeper() {
		return false
	}
	defer func() { s.depth-- }()
	if s.eat(close) {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if !s.eat(',') {
			return s.eat(close)
		}
	}
}

func (s *scanner) deeper() bool {
	s.depth++
	return s.depth <= maxDepth
}

// str reads the string that is next: its bytes between the quotes, and
// whether they are plain (no escape, no byte beyond ASCII), that is, its
// value.
func (s *scanner) str() (v []byte, plain, ok bool) {
	if s.peek() != '"' {
		return nil, false, false
	}
	b, start := s.b, s.i+1
	plain = true
	for j := start; j < len(b); j++ {
		if !stringStops[b[j]] {
			continue
		}
		switch c := b[j]; {
		case c == '"':
			s.i = j + 1
			return b[start:j], plain, true
		case c < 0x20:
			return nil, false, false
		case c == '\\':
			n := jsonlex.EscapeLen(b[j:])
			if n == 0 {
				return nil, false, false
			}
			j += n - 1
		}
		plain = false
	}
	return nil, false, false
}

// stringStops are the bytes str looks at inside a string.
var stringStops = func() (t [256]bool) {
	t['"'], t['\\'] = true, true
	for c := range 0x20 {
		t[c] = true
	}
	for c := 0x80; c < 0x100; c++ {
		t[c] = true
	}
	return t
}()

// skip skips the value that is next.
func (s *scanner) skip() bool {
	switch c := s.peek(); {
	case c == '"':
		_, _, ok := s.str()
		return ok
	case c == '{':
		return s.object(func([]byte, bool) bool { return s.skip() })
	case c == '[':
		return s.array(s.skip)
	case c == '-' || '0' <= c && c <= '9':
		return s.number()
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if bytes.HasPrefix(s.b[s.i:], []byte(lit)) {
			s.i += len(lit)
			return true
		}
	}
	return false
}

// number reads the number that is next.
func (s *scanner) number() bool {
	end := jsonlex.NumberEnd(s.b, s.i)
	if end < 0 {
		return false
	}
	s.i = end
	return true
}
