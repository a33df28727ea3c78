// Package statelogtest holds a state file in memory for tests of what
// commits to one (the store, the alert engine).
package statelogtest

import (
	"bytes"

	"github.com/omctl/omctl/internal/store/statelog"
)

// Memory is a state file in memory: the records of each kind in the
// order they were first written, and the meta entries, as a
// statelog.File keeps them; for tests of what writes to one.
type Memory struct {
	kinds []string
	recs  map[string]*memKind
	meta  map[string]string
	whole bool
}

type memKind struct {
	order []string
	vals  map[string][]byte
}

// NewMemory is an empty state file in memory.
func NewMemory() *Memory { return &Memory{recs: map[string]*memKind{}, meta: map[string]string{}} }

// Path names the log in messages.
func (l *Memory) Path() string { return "memory" }

// Empty reports whether nothing was committed yet.
func (l *Memory) Empty() bool { return !l.whole }

// Meta is the value a batch last set under key.
func (l *Memory) Meta(key string) string { return l.meta[key] }

// Read calls fn with each record, kind by kind, in the order written.
func (l *Memory) Read(fn func(statelog.Record) error) error {
	for _, kind := range l.kinds {
		k := l.recs[kind]
		for _, key := range k.order {
			if err := fn(statelog.Record{Kind: kind, Key: key, Value: k.vals[key]}); err != nil {
				return err
			}
		}
	}
	return nil
}

// Commit writes a batch, whole.
func (l *Memory) Commit(b *statelog.Batch) error {
	if b.ReplaceAll {
		l.kinds, l.recs = nil, map[string]*memKind{}
	}
	for _, r := range b.Records {
		k := l.recs[r.Kind]
		if k == nil {
			k = &memKind{vals: map[string][]byte{}}
			l.recs[r.Kind] = k
			l.kinds = append(l.kinds, r.Kind)
		}
		_, had := k.vals[r.Key]
		switch {
		case r.Value == nil && had:
			delete(k.vals, r.Key)
			for i, key := range k.order {
				if key == r.Key {
					k.order = append(k.order[:i:i], k.order[i+1:]...)
					break
				}
			}
		case r.Value != nil:
			if !had {
				k.order = append(k.order, r.Key)
			}
			k.vals[r.Key] = bytes.Clone(r.Value)
		}
	}
	for key, v := range b.Meta {
		if v != "" {
			l.meta[key] = v
		}
	}
	l.whole = true
	return nil
}
