package store

import (
	"github.com/omctl/omctl/internal/store/engine"
	"github.com/omctl/omctl/internal/store/fixture"
)

// AddKeys adds keys to the data and to the seed a reset goes back to,
// all or none, before the store is shared: a key found there already, as
// an earlier start with the same key left it in a state file, is kept.
// A key whose public key the data has otherwise is refused, as is one
// the data holds from an earlier start with another private key or other
// roles.
func (s *Store) AddKeys(keys []fixture.Key) error {
	seed, err := s.seed.WithKeys(keys)
	if err != nil {
		return &fixture.KeyError{Err: err}
	}
	var addErr error
	if _, err := s.Update(func(tx *engine.Tx) { addErr = tx.AddKeys(keys, s.clock.Now()) }); err != nil {
		return err
	}
	if addErr != nil {
		return &fixture.KeyError{Err: addErr}
	}
	s.mu.Lock()
	s.seed = seed
	s.mu.Unlock()
	return nil
}

// SeedFromData makes the data as it is now the seed a reset goes back
// to, for data set up through the API before the store is shared (omctl
// server --apply).
func (s *Store) SeedFromData() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seed = s.st.Fixtures()
}
