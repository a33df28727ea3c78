package alert

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unsafe"

	"github.com/tidwall/sjson"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/jsonlex"
	"github.com/omctl/omctl/internal/rules"
)

// Doc is one alert (docs/api.md, Alert) as stored: its JSON, compact and canonical
// (the conditional fields of its event type only, resolved only when
// CLOSED, timestamps in UTC), which is what GET returns but for links, and
// the fields the server reasons about. It never changes: a change makes a
// new one, so fixtures and the running data can share them, and a million
// alerts cost their JSON and little more.
type Doc struct {
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
func (a *Doc) MarshalJSON() ([]byte, error) { return a.Raw, nil }

// Identity tells the alert's target from another within its project, by
// the alert's own fields (Target.Identity); "" for an alert that is not
// active.
func (a *Doc) Identity() string { return a.identity }

// Doc decodes the alert into a document, to read or to change.
func (a *Doc) Doc() doc {
	dec := json.NewDecoder(bytes.NewReader(a.Raw))
	dec.UseNumber()
	var d doc
	if err := dec.Decode(&d); err != nil {
		panic(fmt.Sprintf("stored alert %s is not JSON: %v", a.ID, err))
	}
	rules.NormalizeNumbers(d)
	return d
}

// NewDoc makes an alert from a document that passed rules.AlertResource: it
// drops what an alert does not show for its event type and status, and encodes
// what is left. A CLOSED alert without resolved was resolved when last
// updated.
func NewDoc(d doc) *Doc {
	event, _ := d["eventTypeName"].(string)
	for _, f := range rules.ConditionalAlertFields {
		if !rules.AlertFieldAllowed(f, event) {
			delete(d, f)
		}
	}
	if d["updated"] == nil && d["created"] != nil {
		d["updated"] = d["created"]
	}
	if st, _ := d["status"].(string); st == api.StatusClosed {
		if d["resolved"] == nil && d["updated"] != nil {
			d["resolved"] = d["updated"]
		}
	} else {
		delete(d, "resolved")
	}
	a := &Doc{Raw: rules.EncodeJSON(d)}
	a.alertFields = FieldsOf(d)
	return a
}

func FieldsOf(d doc) alertFields {
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
		f.identity = targetOf(d).Identity()
	}
	return f
}

func (f *alertFields) mayBeActive() bool {
	return f.AlertConfigID != "" && (f.Status == api.StatusOpen || f.Status == api.StatusTracking)
}

// With returns the alert changed by edit, as a new Doc.
func (a *Doc) With(edit func(doc)) *Doc {
	d := a.Doc()
	edit(d)
	return NewDoc(d)
}

// WithTimes returns the alert with top-level members set to strings
// (names and values in pairs): its status, and times such as updated,
// resolved and lastNotified. The JSON is patched rather than decoded and
// encoded again: the engine does this for every notification and every
// alert a condition or a configuration ends, hundreds of thousands of
// times as the clock moves through a day, and the round trip was most of
// what each cost.
func (a *Doc) WithTimes(members ...string) *Doc {
	raw := a.Raw
	f := a.alertFields
	for i := 0; i+1 < len(members); i += 2 {
		name, value := members[i], members[i+1]
		patched, err := sjson.SetBytes(raw, name, value)
		if err != nil {
			return a.With(func(d doc) {
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
	return &Doc{Raw: raw, alertFields: f}
}

// arena keeps many small byte strings, and alerts, in large blocks: fewer
// objects for the collector, no size-class waste.
type arena struct {
	block []byte
	docs  []Doc
	// An alert being written anew: with members cut out
	// (alertWire.without), compacted, with resolved added.
	cut, scratch, scratch2 []byte
	strs                   map[string]string
}

// intern shares one copy of a string that many alerts repeat (a project,
// a configuration, an event type). s may point into the alert's JSON
// (alertWire): what is kept is a copy.
func (a *arena) intern(s string) string {
	if v, ok := a.strs[s]; ok {
		return v
	}
	if a.strs == nil {
		a.strs = map[string]string{}
	}
	s = strings.Clone(s)
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
func (a *arena) doc(d Doc) *Doc {
	if len(a.docs) == cap(a.docs) {
		a.docs = make([]Doc, 0, alertChunk)
	}
	a.docs = append(a.docs, d)
	return &a.docs[len(a.docs)-1]
}

// parseAlert reads one alert of a fixture. An alert already in canonical
// form (as GET returns it, and as the state file keeps it) is taken as it
// is; any other goes through the schema, which says what is wrong.
func parseAlert(raw []byte, ar *arena) (*Doc, *rules.Error) {
	j, rerr := Judge(raw)
	if rerr != nil {
		return nil, rerr
	}
	if j.d != nil {
		return NewDoc(j.d), nil
	}
	f := j.f
	closedUnresolved := f.Status == api.StatusClosed && !j.w.is(wireResolved)
	kept := raw
	if j.drop != 0 {
		ar.cut = j.w.without(ar.cut[:0], raw, j.drop)
		kept = ar.cut
	}
	if !j.compact {
		ar.scratch = appendCompact(ar.scratch[:0], kept)
		kept = ar.scratch
	}
	if closedUnresolved {
		// A CLOSED alert was resolved when it was last updated.
		buf := append(ar.scratch2[:0], kept[:len(kept)-1]...)
		buf = append(buf, `,"resolved":"`...)
		buf = append(buf, j.w.str[wireUpdated]...)
		ar.scratch2 = append(buf, `"}`...)
		kept = ar.scratch2
	}
	kept = ar.keep(kept)       // once, whatever was done to it
	f.ID = ar.keepString(f.ID) // the others too are the alert's JSON until interned
	f.GroupID, f.AlertConfigID = ar.intern(f.GroupID), ar.intern(f.AlertConfigID)
	f.EventTypeName, f.Status = ar.intern(f.EventTypeName), ar.intern(f.Status)
	f.identity = ar.intern(f.identity)
	return ar.doc(Doc{Raw: kept, alertFields: f}), nil
}

// without appends to dst the alert raw, which w scanned, without the
// top-level members in drop (bit k for member k, each one w read), every
// other byte as it was written. A member goes with the comma after it,
// or, when it is the last, the comma before it.
func (w *alertWire) without(dst, raw []byte, drop uint32) []byte {
	last := 0
	// The spans in the order they are written: at most a few members.
	for drop != 0 {
		k := -1
		for m := range w.span {
			if drop&(1<<m) != 0 && (k < 0 || w.span[m].from < w.span[k].from) {
				k = m
			}
		}
		drop &^= 1 << k
		dst = append(dst, raw[last:w.span[k].from]...)
		last = w.span[k].to
		if j := afterSpace(raw, last); raw[j] == ',' {
			last = j + 1
		}
	}
	dst = append(dst, raw[last:]...)
	// A last member cut leaves the comma before it: `{"a":1,}`.
	p := bytes.LastIndexByte(dst, '}') - 1
	for p >= 0 && jsonlex.IsSpace(dst[p]) {
		p--
	}
	if p >= 0 && dst[p] == ',' {
		dst = append(dst[:p], dst[p+1:]...)
	}
	return dst
}

// appendCompact appends to dst src, valid JSON, without the space
// between its tokens, as json.Compact writes it
// (FuzzAppendCompactAgreesWithEncodingJSON), at a fraction of its cost:
// the grammar is checked already.
func appendCompact(dst, src []byte) []byte {
	run := 0 // the start of the bytes to copy
	for i := 0; i < len(src); {
		switch c := src[i]; {
		case c == '"':
			if i = jsonlex.StringEnd(src, i); i == 0 {
				i = len(src) // not a string: not JSON, left as it is
			}
		case jsonlex.IsSpace(c):
			dst = append(dst, src[run:i]...)
			for i < len(src) && jsonlex.IsSpace(src[i]) {
				i++
			}
			run = i
		default:
			i++
		}
	}
	return append(dst, src[run:]...)
}

// afterSpace is the index of the first byte from i that is not JSON's
// space.
func afterSpace(b []byte, i int) int {
	for i < len(b) && jsonlex.IsSpace(b[i]) {
		i++
	}
	return i
}

// Acknowledged is the alert acknowledged until a time, by user, with a
// comment ("" for none), as updated at now.
func (a *Doc) Acknowledged(until, comment, user string, now time.Time) *Doc {
	return a.With(func(d doc) {
		d["acknowledgedUntil"] = until
		d["acknowledgingUsername"] = user
		delete(d, "acknowledgementComment")
		if comment != "" {
			d["acknowledgementComment"] = comment
		}
		d["updated"] = rules.FormatTime(now)
	})
}

// Unacknowledged is the alert without its acknowledgement, as updated at
// now.
func (a *Doc) Unacknowledged(now time.Time) *Doc {
	return a.With(func(d doc) {
		delete(d, "acknowledgedUntil")
		delete(d, "acknowledgementComment")
		delete(d, "acknowledgingUsername")
		d["updated"] = rules.FormatTime(now)
	})
}
