package statelog

import "sync/atomic"

// Faulty is a state file whose commits fail while a test says so: the
// seam for checking what a failed commit leaves (docs/api.md, "How the
// store keeps a resource"). A commit that fails writes nothing.
type Faulty struct {
	*File
	fail     atomic.Pointer[func(*Batch) error]
	readFail atomic.Pointer[error]
	reads    atomic.Int64
}

// FailReads makes each later read of the file fail with err (nil: reads
// work again).
func (l *Faulty) FailReads(err error) {
	if err == nil {
		l.readFail.Store(nil)
		return
	}
	l.readFail.Store(&err)
}

// Reads is how many times the file was read, or refused to be.
func (l *Faulty) Reads() int64 { return l.reads.Load() }

// Read reads the file unless the test's FailReads refuses it.
func (l *Faulty) Read(fn func(Record) error) error {
	l.reads.Add(1)
	if err := l.readFail.Load(); err != nil {
		return *err
	}
	return l.File.Read(fn)
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
