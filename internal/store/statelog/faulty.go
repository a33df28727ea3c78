package statelog

import "sync/atomic"

// Faulty is a state file whose commits fail while a test says so: the
// seam for checking what a failed commit leaves (docs/api.md, "How the
// store keeps a resource"). A commit that fails writes nothing.
type Faulty struct {
	*File
	fail atomic.Pointer[func(*Batch) error]
}

// FailCommits makes each later commit fail with what fail returns for its
// batch (nil: that batch is committed); FailCommits(nil) ends it.
func (l *Faulty) FailCommits(fail func(*Batch) error) {
	if fail == nil {
		l.fail.Store(nil)
		return
	}
	l.fail.Store(&fail)
}

// Commit commits b unless the test's fail refuses it.
func (l *Faulty) Commit(b *Batch) error {
	if fail := l.fail.Load(); fail != nil {
		if err := (*fail)(b); err != nil {
			return err
		}
	}
	return l.File.Commit(b)
}
