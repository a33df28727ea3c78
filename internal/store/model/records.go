package model

import (
	"maps"
)

// The records of the store, one type per resource of docs/api.md (alerts
// are alert.Docs, API keys APIKeys). A record holds the members it was
// written with, those the API does not name included (a fixture may carry
// them, and GET returns them), and typed fields for what the server
// reasons about, read once when the record is made (the rules of
// internal/rules check the members themselves). A record never
// changes: an operation puts a new one in its place, so one a handler holds
// always says what it said when found.
//
// Each resource has a file of its own (orgs.go, apikeys.go, alerts.go,
// alertconfigs.go, backupconfigs.go, snapshots.go, s3stores.go,
// backupjobs.go): its record, the lookups handlers read it by, and the
// named operations; those a request calls check its body (requests.go).
// The checks of fixtures are package fixture's. The maps behind the lookups stay the
// store's own: a handler finds a resource by a lookup and changes it only
// through an operation, whose primitives record the change (txn.go): the
// state file, the readers' replica and the alert engine (Engine.process)
// each take what concerns them from that record. An operation that makes a record
// from a request's body keeps the body as the record's members: the caller
// must not change the body afterwards.

// members are a record's members as written; nobody changes them.
type members struct{ m doc }

// Members is a copy of the record's members, for a handler to render.
func (r members) Members() doc { return maps.Clone(r.m) }

// changed copies the members with set applied, for a new record.
func (r members) changed(set func(doc)) doc {
	d := maps.Clone(r.m)
	set(d)
	return d
}

func (r members) raw() doc { return r.m }

// storedRecord is what a list of records and the state file need of one.
type storedRecord interface {
	key() string
	raw() doc
}

// setDefault gives a member a value when the body left it out or null.
func setDefault(body doc, name string, v any) {
	if body[name] == nil {
		body[name] = v
	}
}
