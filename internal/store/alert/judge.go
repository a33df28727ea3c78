package alert

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
)

// Judged is an alert the fixture loader takes: read by the fast path
// (w, its fields f, the members to drop, whether it is compact) when it
// is canonical, or else by the schema (d).
type Judged struct {
	w       alertWire
	f       alertFields
	drop    uint32 // bit k: member k is cut out (alertWire.canonical)
	compact bool
	d       doc
}

// Judge applies to one alert of a fixture the rules of the alert
// itself (those of its place in a list are alertList's): the one place
// they are applied, for the server's loader (parseAlert) and for what
// checks alerts before writing a fixture (AlertCheck).
func Judge(raw []byte) (j Judged, err *rules.Error) {
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

// IDs are the alert's id and project, as the loader reads them.
func (j *Judged) IDs() (id, project string) {
	if j.d != nil {
		id, _ = j.d["id"].(string)
		project, _ = j.d["groupId"].(string)
		return id, project
	}
	return j.f.ID, j.f.GroupID
}

// ActivePair is the id and creation time of the judged alert and, when
// the engine counts it as active, the configuration and target it is
// active for.
func (j *Judged) ActivePair() (id string, created time.Time, k Pair, active bool) {
	f := j.f
	if j.d != nil {
		f = FieldsOf(j.d)
	}
	k, active = PairOf(&Doc{alertFields: f})
	return f.ID, f.Created, k, active
}
