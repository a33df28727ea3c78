package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/tidwall/sjson"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
)

// AlertDoc is one alert (docs/api.md, Alert) as stored: its JSON, compact and canonical
// (the conditional fields of its event type only, resolved only when
// CLOSED, timestamps in UTC), which is what GET returns but for links, and
// the fields the server reasons about. It never changes: a change makes a
// new one, so fixtures and the running data can share them, and a million
// alerts cost their JSON and little more.
type AlertDoc struct {
	Raw []byte
	alertFields
}

type alertFields struct {
	ID, GroupID, AlertConfigID, EventTypeName, Status string
	Created, AcknowledgedUntil                        time.Time
	// identity tells the target of an alert that may be active (OPEN or
	// TRACKING, raised by a configuration) from the others of its project
	// (Target.identity): the engine finds active alerts by it. It is ""
	// for the other alerts, which never become active again.
	identity string
}

// MarshalJSON writes the alert as stored.
func (a *AlertDoc) MarshalJSON() ([]byte, error) { return a.Raw, nil }

// Doc decodes the alert into a document, to read or to change.
func (a *AlertDoc) Doc() doc {
	dec := json.NewDecoder(bytes.NewReader(a.Raw))
	dec.UseNumber()
	var d doc
	if err := dec.Decode(&d); err != nil {
		panic(fmt.Sprintf("stored alert %s is not JSON: %v", a.ID, err))
	}
	rules.NormalizeNumbers(d)
	return d
}

// NewAlertDoc makes an alert from a document that passed rules.AlertResource: it
// drops what an alert does not show for its event type and status, and encodes
// what is left. A CLOSED alert without resolved was resolved when last
// updated.
func NewAlertDoc(d doc) *AlertDoc {
	event, _ := d["eventTypeName"].(string)
	for _, f := range rules.ConditionalAlertFields {
		if !rules.AlertFieldAllowed(f, event) {
			delete(d, f)
		}
	}
	if d["updated"] == nil && d["created"] != nil {
		d["updated"] = d["created"]
	}
	if st, _ := d["status"].(string); st == statusClosed {
		if d["resolved"] == nil && d["updated"] != nil {
			d["resolved"] = d["updated"]
		}
	} else {
		delete(d, "resolved")
	}
	a := &AlertDoc{Raw: rules.EncodeJSON(d)}
	a.alertFields = fieldsOf(d)
	return a
}

func fieldsOf(d doc) alertFields {
	var f alertFields
	f.ID, _ = d["id"].(string)
	f.GroupID, _ = d["groupId"].(string)
	f.AlertConfigID, _ = d["alertConfigId"].(string)
	f.EventTypeName, _ = d["eventTypeName"].(string)
	f.Status, _ = d["status"].(string)
	if s, ok := d["created"].(string); ok {
		f.Created, _ = rules.ParseTimestamp(s)
	}
	if s, ok := d["acknowledgedUntil"].(string); ok {
		f.AcknowledgedUntil, _ = rules.ParseTimestamp(s)
	}
	if f.mayBeActive() {
		f.identity = targetOf(d).identity()
	}
	return f
}

func (f *alertFields) mayBeActive() bool {
	return f.AlertConfigID != "" && (f.Status == statusOpen || f.Status == statusTracking)
}

// with returns the alert changed by edit, as a new AlertDoc.
func (a *AlertDoc) with(edit func(doc)) *AlertDoc {
	d := a.Doc()
	edit(d)
	return NewAlertDoc(d)
}

// withTimes returns the alert with top-level members set to strings
// (names and values in pairs): its status, and times such as updated,
// resolved and lastNotified. The JSON is patched rather than decoded and
// encoded again: the engine does this for every notification and every
// alert a condition or a configuration ends, hundreds of thousands of
// times as the clock moves through a day, and the round trip was most of
// what each cost.
func (a *AlertDoc) withTimes(members ...string) *AlertDoc {
	raw := a.Raw
	f := a.alertFields
	for i := 0; i+1 < len(members); i += 2 {
		name, value := members[i], members[i+1]
		patched, err := sjson.SetBytes(raw, name, value)
		if err != nil {
			return a.with(func(d doc) {
				for j := 0; j+1 < len(members); j += 2 {
					d[members[j]] = members[j+1]
				}
			})
		}
		raw = patched
		if name == "status" {
			f.Status = value
		}
	}
	if !f.mayBeActive() {
		f.identity = ""
	}
	return &AlertDoc{Raw: raw, alertFields: f}
}

// alertWire is what parseAlert reads of an alert to take its fast path:
// pointers tell a field that is absent from one that is empty.
type alertWire struct {
	ID                *string `json:"id"`
	GroupID           *string `json:"groupId"`
	AlertConfigID     *string `json:"alertConfigId"`
	EventTypeName     *string `json:"eventTypeName"`
	Status            *string `json:"status"`
	Created           *string `json:"created"`
	Updated           *string `json:"updated"`
	LastNotified      *string `json:"lastNotified"`
	Resolved          *string `json:"resolved"`
	AcknowledgedUntil *string `json:"acknowledgedUntil"`
	MetricName        *string `json:"metricName"`
	SourceTypeName    *string `json:"sourceTypeName"`
	CurrentValue      *struct {
		Number *json.Number `json:"number"`
		Units  *string      `json:"units"`
	} `json:"currentValue"`
	Tags []string `json:"tags"`

	ClusterID       json.RawMessage `json:"clusterId"`
	ClusterName     json.RawMessage `json:"clusterName"`
	HostID          json.RawMessage `json:"hostId"`
	HostnameAndPort json.RawMessage `json:"hostnameAndPort"`
	ReplicaSetName  json.RawMessage `json:"replicaSetName"`
}

// arena keeps many small byte strings, and alerts, in large blocks: fewer
// objects for the collector, no size-class waste.
type arena struct {
	block   []byte
	docs    []AlertDoc
	scratch bytes.Buffer
	strs    map[string]string
}

// intern shares one copy of a string that many alerts repeat (a project,
// a configuration, an event type).
func (a *arena) intern(s string) string {
	if v, ok := a.strs[s]; ok {
		return v
	}
	if a.strs == nil {
		a.strs = map[string]string{}
	}
	if len(a.strs) < 1<<16 {
		a.strs[s] = s
	}
	return s
}

// keepString copies s into the arena, as keep does: among a million
// alerts, their ids were a million small objects for the collector to
// mark at each run. The bytes kept never change (blocks are only appended
// to), which is what a string needs.
func (a *arena) keepString(s string) string {
	if s == "" {
		return ""
	}
	start := a.reserve(len(s))
	a.block = append(a.block, s...)
	return unsafe.String(&a.block[start], len(s))
}

func (a *arena) keep(b []byte) []byte {
	start := a.reserve(len(b))
	a.block = append(a.block, b...)
	return a.block[start:len(a.block):len(a.block)]
}

// reserve makes room for n more bytes in the current block, and says
// where they start.
func (a *arena) reserve(n int) int {
	if len(a.block)+n > cap(a.block) {
		a.block = make([]byte, 0, max(1<<20, n))
	}
	return len(a.block)
}

// doc keeps d in a block of alerts: a million alerts were as many small
// objects for the collector; in blocks of alertChunk they are few.
func (a *arena) doc(d AlertDoc) *AlertDoc {
	if len(a.docs) == cap(a.docs) {
		a.docs = make([]AlertDoc, 0, alertChunk)
	}
	a.docs = append(a.docs, d)
	return &a.docs[len(a.docs)-1]
}

// parseAlert reads one alert of a fixture. An alert already in canonical
// form (as GET returns it, and as the state file keeps it) is taken as it
// is; any other goes through the schema, which says what is wrong.
func parseAlert(raw []byte, ar *arena) (*AlertDoc, *rules.Error) {
	var w alertWire
	if json.Unmarshal(raw, &w) == nil && w.asWritten(raw) {
		if f, ok, drop := w.canonical(); ok {
			if len(drop) > 0 {
				raw = dropMembers(raw, drop)
			}
			ar.scratch.Reset()
			var err error
			if raw == nil {
				err = errors.New("not an object")
			} else if bytes.ContainsAny(raw, " \t\r\n") {
				err = json.Compact(&ar.scratch, raw)
			} else {
				ar.scratch.Write(raw) // already compact, as generated files and the state file are
			}
			if err == nil && ar.scratch.Len() > 2 {
				if f.Status == statusClosed && w.Resolved == nil {
					// A CLOSED alert was resolved when it was last updated.
					ar.scratch.Truncate(ar.scratch.Len() - 1)
					ar.scratch.WriteString(`,"resolved":"` + *w.Updated + `"}`)
				}
				f.ID = ar.keepString(f.ID)
				f.GroupID, f.AlertConfigID = ar.intern(f.GroupID), ar.intern(f.AlertConfigID)
				f.EventTypeName, f.Status = ar.intern(f.EventTypeName), ar.intern(f.Status)
				f.identity = ar.intern(f.identity)
				return ar.doc(AlertDoc{Raw: ar.keep(ar.scratch.Bytes()), alertFields: f}), nil
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var d doc
	if err := dec.Decode(&d); err != nil || d == nil {
		return nil, rules.Invalidf("INVALID_JSON", "must be an object")
	}
	if err := rules.AlertResource().CheckFixture(d, ""); err != nil {
		return nil, err
	}
	return NewAlertDoc(d), nil
}

// wireMembers are the members alertWire reads, numbered as asWritten
// lists them.
var wireMembers = []string{"id", "groupId", "alertConfigId", "eventTypeName", "status", "created", "updated",
	"lastNotified", "resolved", "acknowledgedUntil", "metricName", "sourceTypeName", "currentValue", "clusterId",
	"clusterName", "hostId", "hostnameAndPort", "replicaSetName"}

// foldedMembers numbers wireMembers by their names in lower case.
var foldedMembers = func() map[string]int {
	m := map[string]int{}
	for k, name := range wireMembers {
		m[strings.ToLower(name)] = k
	}
	return m
}()

// asWritten reports whether each member the decoder gave w was written
// once, under its own name. The decoder also takes a name in other letter
// case, escaped or folded, and the last of a repeated member, while the
// fast path keeps the JSON as it came, which GET shows and the engine
// patches (withTimes) where the name first appears. Anything else takes
// the schema's path, which writes the alert anew; so does a name with an
// escape or a letter beyond ASCII, and a nested member of such a name.
func (w *alertWire) asWritten(raw []byte) bool {
	var folded, exact [18]int
	var lower [64]byte // no longer name folds to a member's (3 bytes a letter at most)
	// One pass from quote to quote: a million alerts are read at start.
	for i := bytes.IndexByte(raw, '"'); i >= 0; {
		rest := raw[i+1:]
		end := bytes.IndexByte(rest, '"')
		if end < 0 {
			break
		}
		if end+1 < len(rest) && rest[end+1] == ':' {
			name := rest[:end]
			if len(name) <= len(lower) {
				for j, c := range name {
					if c >= 0x80 || c == '\\' {
						return false
					}
					if 'A' <= c && c <= 'Z' {
						c += 'a' - 'A'
					}
					lower[j] = c
				}
				if k, ok := foldedMembers[string(lower[:len(name)])]; ok {
					folded[k]++
					if string(name) == wireMembers[k] {
						exact[k]++
					}
				}
			}
		}
		i += 1 + end
	}
	for k, present := range [18]bool{w.ID != nil, w.GroupID != nil, w.AlertConfigID != nil, w.EventTypeName != nil,
		w.Status != nil, w.Created != nil, w.Updated != nil, w.LastNotified != nil, w.Resolved != nil,
		w.AcknowledgedUntil != nil, w.MetricName != nil, w.SourceTypeName != nil, w.CurrentValue != nil,
		w.ClusterID != nil, w.ClusterName != nil, w.HostID != nil, w.HostnameAndPort != nil, w.ReplicaSetName != nil} {
		if folded[k] > 1 || present != (exact[k] == 1) {
			return false
		}
	}
	return true
}

// canonical reports whether the alert is valid as it is, its fields, and
// the top-level members to drop (those 2.1 does not show for its event
// type and status) for it to be stored.
func (w *alertWire) canonical() (f alertFields, ok bool, drop []string) {
	f, ok = w.fields()
	if !ok {
		return f, false, nil
	}
	if f.Status != statusClosed && w.Resolved != nil {
		drop = append(drop, "resolved")
	}
	for _, p := range [...]struct {
		field string
		here  bool
	}{{"clusterId", w.ClusterID != nil}, {"clusterName", w.ClusterName != nil}, {"hostId", w.HostID != nil},
		{"hostnameAndPort", w.HostnameAndPort != nil}, {"replicaSetName", w.ReplicaSetName != nil},
		{"currentValue", w.CurrentValue != nil}, {"metricName", w.MetricName != nil}, {"sourceTypeName", w.SourceTypeName != nil}} {
		if p.here && !rules.AlertFieldAllowed(p.field, f.EventTypeName) {
			drop = append(drop, p.field)
		}
	}
	if !f.mayBeActive() {
		return f, true, drop
	}
	var t Target
	for _, m := range [...]struct {
		field string
		raw   json.RawMessage
	}{{"hostId", w.HostID}, {"hostnameAndPort", w.HostnameAndPort}, {"clusterId", w.ClusterID},
		{"clusterName", w.ClusterName}, {"replicaSetName", w.ReplicaSetName}} {
		if !slices.Contains(drop, m.field) {
			// Only a string names a target, as targetOf reads it.
			_ = json.Unmarshal(m.raw, t.Field(m.field))
		}
	}
	f.identity = t.identity()
	return f, true, drop
}

// fields checks the members the server reasons about, each already as
// the server writes it.
func (w *alertWire) fields() (alertFields, bool) {
	var f alertFields
	if w.ID == nil || w.Status == nil || w.EventTypeName == nil || w.Created == nil || w.Updated == nil {
		return f, false
	}
	f.ID, f.Status, f.EventTypeName = *w.ID, *w.Status, *w.EventTypeName
	if w.GroupID != nil {
		f.GroupID = *w.GroupID
	}
	if w.AlertConfigID != nil {
		f.AlertConfigID = *w.AlertConfigID
	}
	if !api.OneOf(f.Status, api.AlertStatuses) || f.EventTypeName == "" {
		return f, false
	}
	var ok bool
	if f.Created, ok = canonicalTime(w.Created); !ok {
		return f, false
	}
	for _, t := range []*string{w.Updated, w.LastNotified, w.Resolved} {
		if _, ok := canonicalTime(t); !ok {
			return f, false
		}
	}
	if f.AcknowledgedUntil, ok = canonicalTime(w.AcknowledgedUntil); !ok {
		return f, false
	}
	if w.MetricName != nil && !api.OneOf(*w.MetricName, api.MetricNames) ||
		w.SourceTypeName != nil && !api.OneOf(*w.SourceTypeName, api.SourceTypeNames) {
		return f, false
	}
	if cv := w.CurrentValue; cv != nil {
		if cv.Units != nil && !api.OneOf(*cv.Units, api.Units) {
			return f, false
		}
		if cv.Number != nil && fmt.Sprint(rules.NormalizeNumbers(*cv.Number)) != cv.Number.String() {
			return f, false
		}
	}
	return f, true
}

// canonicalTime parses an optional timestamp that must already be written
// as the server writes it.
func canonicalTime(s *string) (time.Time, bool) {
	if s == nil {
		return time.Time{}, true
	}
	t, err := rules.ParseTimestamp(*s)
	return t, err == nil && rules.FormatTime(t) == *s
}

// dropMembers removes top-level members from a JSON object, leaving every
// other value as it was written; nil when it is not an object.
func dropMembers(raw []byte, names []string) []byte {
	var members map[string]json.RawMessage
	if json.Unmarshal(raw, &members) != nil || members == nil {
		return nil
	}
	for _, n := range names {
		delete(members, n)
	}
	out, err := json.Marshal(members)
	if err != nil {
		return nil
	}
	return out
}
