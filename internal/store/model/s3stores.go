package model

import (
	"fmt"
	"sync/atomic"

	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/fixture"
)

// S3Store is an oplog store or a snapshot store, named by its id.
type S3Store struct {
	members
	ID, AuthMethod string // AuthMethod "" is KEYS, the default

	rendered atomic.Pointer[[]byte] // see Rendered
}

func newS3Store(d doc) *S3Store {
	s := &S3Store{members: members{d}}
	s.ID, _ = d["id"].(string)
	s.AuthMethod, _ = d["s3AuthMethod"].(string)
	return s
}

func (s *S3Store) key() string { return s.ID }

// Assignable reports whether new backups may be assigned to the store:
// unless its assignmentEnabled is false.
func (s *S3Store) Assignable() bool { return s.m["assignmentEnabled"] != false }

// Rendered is the store as render encodes a copy of its members, made on
// the first call and kept: a record never changes, so neither does what
// it renders to, and a list of large stores costs copies, not encodings.
// render must give the same bytes whenever it is called for the record
// (the server's handlers pass one function a kind of store); readers may
// call it side by side, under the read lock.
func (s *S3Store) Rendered(render func(doc) []byte) []byte {
	if b := s.rendered.Load(); b != nil {
		return *b
	}
	b := render(s.Members())
	s.rendered.Store(&b)
	return b
}

// OplogStores are the oplog stores, in the order they were created.
func (s *State) OplogStores() *Ordered[*S3Store] { return s.oplogStores }

// SnapshotStores are the snapshot stores, in the order they were created.
func (s *State) SnapshotStores() *Ordered[*S3Store] { return s.snapshotStores }

// CreateOplogStore adds an oplog store, which passed rules.CheckStore,
// refusing one whose id is taken.
func (s *State) CreateOplogStore(body doc) (*S3Store, error) {
	return s.createStore(s.oplogStores, "oplogStores", "An oplog store", body)
}

// CreateSnapshotStore adds a snapshot store, which passed
// rules.CheckStore, refusing one whose id is taken; s3MaxConnections and
// loadFactor take their defaults when left out.
func (s *State) CreateSnapshotStore(body doc) (*S3Store, error) {
	setDefault(body, "s3MaxConnections", int64(rules.DefaultS3MaxConnections))
	setDefault(body, "loadFactor", int64(rules.DefaultLoadFactor))
	return s.createStore(s.snapshotStores, "snapshotStores", "A snapshot store", body)
}

// createStore adds a store to list (records of kind), refusing one whose
// id is taken: "<what> with ID ... already exists".
func (s *State) createStore(list *Ordered[*S3Store], kind, what string, body doc) (*S3Store, error) {
	store := newS3Store(body)
	if list.Get(store.ID) != nil {
		return nil, rules.Conflictf("DUPLICATE_STORE_ID", fmt.Sprintf("%s with ID %s already exists.", what, store.ID), store.ID)
	}
	put(s, kind, list, store)
	return store, nil
}

// ReplaceOplogStore puts an oplog store, which passed rules.CheckStore,
// in place of the one with id.
func (s *State) ReplaceOplogStore(id string, body doc) *S3Store {
	return s.replaceStore(s.oplogStores, "oplogStores", id, body)
}

// ReplaceSnapshotStore puts a snapshot store, which passed
// rules.CheckStore, in place of the one with id.
func (s *State) ReplaceSnapshotStore(id string, body doc) *S3Store {
	return s.replaceStore(s.snapshotStores, "snapshotStores", id, body)
}

func (s *State) replaceStore(list *Ordered[*S3Store], kind, id string, body doc) *S3Store {
	body["id"] = id
	store := newS3Store(body)
	put(s, kind, list, store)
	return store
}

// loadS3Stores indexes the oplog and snapshot stores of the fixtures.
func (s *State) loadS3Stores(f *fixture.Fixtures) {
	for _, d := range f.OplogStores {
		s.oplogStores.put(newS3Store(d))
	}
	for _, d := range f.SnapshotStores {
		s.snapshotStores.put(newS3Store(d))
	}
}
