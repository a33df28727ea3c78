package model

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/statelog"
)

// LogReader is what ReadLog needs of a state file.
type LogReader interface {
	// Path names the log in messages.
	Path() string
	// Read calls fn with each record, kind by kind, each kind in the
	// order its records were first written.
	Read(fn func(statelog.Record) error) error
}

// ReadLog decodes the records of log into fixtures, in the order they
// were written, with the schedules of the engine's raised alerts.
func ReadLog(log LogReader) (*Fixtures, error) {
	f := &Fixtures{}
	lists := f.lists()
	alerts := map[string]*alert.Parser{"alerts": nil, "globalAlerts": nil}
	fail := func(problem string) error { return &statelog.Error{Path: log.Path(), Problem: problem} }
	var copies blockCopies // the alerts are parsed after the log's bytes are gone
	err := log.Read(func(r statelog.Record) error {
		if p, ok := alerts[r.Kind]; ok {
			if p == nil {
				p = alert.NewParser()
				alerts[r.Kind] = p
			}
			p.AddFrom(copies.copy(r.Value), copies.blk)
			return nil
		}
		var dst any
		if r.Kind == SchedulesKind {
			if f.Schedules == nil {
				f.Schedules = map[string]*ScheduleRecord{}
			}
			rec := &ScheduleRecord{}
			f.Schedules[r.Key] = rec
			dst = rec
		} else if _, ok := lists[r.Kind]; !ok {
			return nil // not the store's
		}
		dec := json.NewDecoder(bytes.NewReader(r.Value))
		dec.UseNumber()
		if dst != nil {
			if dec.Decode(dst) != nil {
				return fail(fmt.Sprintf("%s %s: record is damaged", r.Kind, r.Key))
			}
			return nil
		}
		var d doc
		if err := dec.Decode(&d); err != nil || d == nil {
			return fail(fmt.Sprintf("%s %s: record is not a JSON object", r.Kind, r.Key))
		}
		*lists[r.Kind] = append(*lists[r.Kind], d)
		return nil
	})
	copies.close()
	for kind, p := range alerts {
		if p == nil {
			continue
		}
		got, perr := p.Finish() // even after an error: it stops the parser's workers
		if err == nil && perr != nil {
			err = fail(fmt.Sprintf("holds an alert this version cannot load: %s%v; to recover, start the version that wrote it, "+
				"save its data with omctl server dump, correct the alert, and start this version with --fixtures on that file and a new --state", kind, perr))
		}
		if kind == "alerts" {
			f.Alerts = got
		} else {
			f.GlobalAlerts = got
		}
	}
	if err != nil {
		return nil, err
	}
	if err := f.validate(); err != nil {
		return nil, fail("holds data that breaks a rule: " + err.Error())
	}
	return f, nil
}
