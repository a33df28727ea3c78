package store

import "github.com/omctl/omctl/internal/store/model"

// SignIn is what authenticating a request needs of a principal, kept
// apart from the data so that it is read without the data lock: with
// writers holding that lock most of the time (each commit waits for the
// disk), every request waited for it twice, once to be authenticated and
// once to be served, and writers reached the group commit one by one
// instead of together (docs/performance.md).
type SignIn struct {
	Principal *model.Principal
	Secret    string
	// Unlisted: an API key without an access list, whose calls need no
	// check of the caller's address.
	Unlisted bool
}

// SignIn is the principal of a digest user name, as of the last write
// committed (false: none).
func (s *Store) SignIn(name string) (SignIn, bool) {
	m := s.signIns.Load()
	if m == nil {
		return SignIn{}, false
	}
	in, ok := (*m)[name]
	return in, ok
}

// refreshSignIns copies the principals for SignIn (under mu, or before
// the store is shared), after they may have changed.
func (s *Store) refreshSignIns() {
	m := make(map[string]SignIn, len(s.st.Principals()))
	for name, p := range s.st.Principals() {
		m[name] = SignIn{Principal: p, Secret: p.Secret, Unlisted: p.Key != nil && len(p.Key.AccessList) == 0}
	}
	s.signIns.Store(&m)
}
