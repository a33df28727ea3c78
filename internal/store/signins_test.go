package store

import (
	"testing"
	"time"

	"github.com/omctl/omctl/internal/store/engine"
	"github.com/omctl/omctl/internal/store/model"
	"github.com/omctl/omctl/internal/store/statelog"
)

// newKey makes an API key of the store's first project and returns its
// public key.
func newKey(s *Store) (string, error) {
	var pub string
	_, err := s.Update(func(st *engine.Tx) {
		k, rerr := st.CreateAPIKey(firstProject(st.State), "signed in", []string{"GROUP_READ_ONLY"}, time.Now())
		if rerr == nil {
			pub = k.Principal.Name
		}
	})
	return pub, err
}

func TestSignInKnowsAKeyOnceItIsCommittedAndNotBefore(t *testing.T) {
	s, _ := openStore(t)
	failCommits(s, func(*statelog.Batch) error { return errUnwritable })
	refused := ""
	s.Update(func(st *engine.Tx) {
		k, _ := st.CreateAPIKey(firstProject(st.State), "refused", nil, time.Now())
		refused = k.Principal.Name
	})
	failCommits(s, nil)
	if _, ok := s.SignIn(refused); ok {
		t.Errorf("a key whose commit failed signs in")
	}
	pub, err := newKey(s)
	if err != nil {
		t.Fatal(err)
	}
	in, ok := s.SignIn(pub)
	if !ok || in.Principal == nil || in.Secret == "" || !in.Unlisted {
		t.Errorf("a committed key: %+v, %v", in, ok)
	}
	if _, err := s.Update(func(st *engine.Tx) { st.ResetTo(s.Seed(), time.Now()) }); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.SignIn(pub); ok {
		t.Errorf("a key made after the seed signs in after a reset")
	}
}

// Requests are authenticated while a writer holds the data lock.
func TestSignInDoesNotWaitForTheDataLock(t *testing.T) {
	s, _ := openStore(t)
	pub, err := newKey(s)
	if err != nil {
		t.Fatal(err)
	}
	held, release := make(chan struct{}), make(chan struct{})
	go s.Update(func(*engine.Tx) { close(held); <-release })
	<-held
	defer close(release)
	got := make(chan bool, 1)
	go func() { _, ok := s.SignIn(pub); got <- ok }()
	select {
	case ok := <-got:
		if !ok {
			t.Error("the key is not known")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("SignIn waited for the writer holding the data lock")
	}
}

func firstProject(st *model.State) string { return st.Projects()[0].ID }

// checkAccessList skips the address check of an unlisted key, so Unlisted
// must follow the key's access list, and only once a change is committed.
func TestSignInUnlistedFollowsTheAccessList(t *testing.T) {
	s, _ := openStore(t)
	pub, err := newKey(s)
	if err != nil {
		t.Fatal(err)
	}
	add := func() error {
		_, err := s.Update(func(st *engine.Tx) {
			k := st.Principal(pub).Key
			st.AddAccessEntries(k, []string{"10.0.0.1"}, []any{map[string]any{"ipAddress": "10.0.0.1"}}, time.Now())
		})
		return err
	}
	failCommits(s, func(*statelog.Batch) error { return errUnwritable })
	if add() == nil {
		t.Fatal("a refused commit succeeded")
	}
	failCommits(s, nil)
	if in, _ := s.SignIn(pub); !in.Unlisted {
		t.Error("a key whose first access list entry was not saved is listed")
	}
	if err := add(); err != nil {
		t.Fatal(err)
	}
	if in, _ := s.SignIn(pub); in.Unlisted {
		t.Error("a key with an access list entry is unlisted")
	}
	if _, err := s.Update(func(st *engine.Tx) { st.RemoveAccessEntry(st.Principal(pub).Key, "10.0.0.1") }); err != nil {
		t.Fatal(err)
	}
	if in, _ := s.SignIn(pub); !in.Unlisted {
		t.Error("a key whose last entry was removed is still listed")
	}
}
