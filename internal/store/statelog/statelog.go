// Package statelog keeps the server's records across restarts
// (docs/server.md, "State"): a bbolt database with one bucket per kind of
// record and one entry per record, so a write costs what it changes, and
// each batch is synced before Commit returns. It stores opaque records
// (kind, key, value) and knows nothing of what they hold.
package statelog

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// File is a state file, open for writing.
type File struct {
	path string
	db   *bolt.DB
	// seq orders records as they were first written, so that lists come
	// back in the order they had.
	seq uint64
	// pending names the file db is while it is not yet at path: a first
	// start makes the state file under a name of its own and puts it at
	// path only once its data is written whole (seed), so that a start
	// cut short at any byte leaves no state file, only a leftover that
	// the next start removes. "" once the file is at path.
	pending string
}

const (
	stateFormat   = "omctl-state/1"
	metaBucket    = "meta"
	metaFormatKey = "format"
	// metaWholeKey is set once the data was written whole: a file
	// without it (created, and then the server stopped before its seed
	// was in place) is seeded again at the next start.
	metaWholeKey = "whole"
)

// putsPerTx bounds a transaction of data written whole, and so the memory
// it needs.
var putsPerTx = 20000

// openOptions are how the server opens a state file for writing.
var openOptions = &bolt.Options{Timeout: time.Second}

// Record is one record: its kind, its key within the kind, and its value
// (nil, in a batch, deletes it).
type Record struct {
	Kind, Key string
	Value     []byte
}

// Batch is what one commit writes.
type Batch struct {
	// ReplaceAll drops every record first, and writes those of the batch
	// whole (a seed, a reset).
	ReplaceAll bool
	Records    []Record
	// Meta is set beside the records; an empty value is not written. The
	// keys "format" and "whole" are the file's own.
	Meta map[string]string
}

// Error says why a state file cannot be used; the file is left as it is.
type Error struct {
	Path, Problem string
}

func (e *Error) Error() string { return fmt.Sprintf("state file %s: %s", e.Path, e.Problem) }

// Open opens the state file at path, creating it when it does not
// exist: then it holds no data, and is at path only once a batch that
// replaces all is committed (a first start's seed). A file that exists
// but is not a sound state file of this server is refused with an
// *Error, untouched, but for a bbolt file that holds nothing at all: what
// an earlier version left of a first start cut short, seeded again.
func Open(path string) (*File, error) {
	fail := func(format string, a ...any) error { return &Error{path, fmt.Sprintf(format, a...)} }
	// What starts cut short left beside the file, before the file is
	// opened: a leftover can be another name of the file itself.
	removeLeftovers(path)
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return create(path)
	case err != nil:
		return nil, fail("cannot be read: %v", PlainError(err))
	case info.IsDir():
		return nil, fail("is a directory")
	case !info.Mode().IsRegular():
		return nil, fail("is not a regular file, so it is not a state file of omctl server")
	case info.Size() == 0:
		return nil, fail("is empty, so it is not a state file of omctl server; remove it to start afresh")
	}
	if err := verifyState(path, info.Size()); errors.Is(err, errNothingWritten) {
		if err := os.Remove(path); err != nil {
			return nil, fail("holds nothing of a first start cut short, and cannot be removed: %v", PlainError(err))
		}
		return create(path)
	} else if err != nil {
		return nil, fail("%v; it was left as it is", err)
	}
	db, err := bolt.Open(path, 0o600, openOptions)
	if err != nil {
		return nil, fail("cannot be opened: %v", PlainError(err))
	}
	sf := &File{path: path, db: db}
	sf.seq = sf.maxSeq()
	// What a reset left half-written when the server stopped.
	os.Remove(sf.replacement())
	return sf, nil
}

// create makes a new state file for path under a name of its own beside
// it, holding no data yet; see File.pending.
func create(path string) (*File, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), creatingPrefix(path)+"*")
	if err != nil {
		return nil, &Error{path, fmt.Sprintf("cannot be created: %v", PlainError(err))}
	}
	tmp.Close()
	db, err := createState(tmp.Name())
	if err != nil {
		return nil, &Error{path, fmt.Sprintf("cannot be created: %v", PlainError(err))}
	}
	return &File{path: path, db: db, pending: tmp.Name()}, nil
}

// creatingPrefix begins the names of the files first starts make for
// path; removeLeftovers removes those whose start is gone.
func creatingPrefix(path string) string { return "." + filepath.Base(path) + ".creating-" }

// removeLeftovers removes the files that first starts for path made and
// did not finish (their process was killed), sparing those a running
// start holds open.
func removeLeftovers(path string) {
	dir, prefix := filepath.Dir(path), creatingPrefix(path)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if name := filepath.Join(dir, e.Name()); strings.HasPrefix(e.Name(), prefix) && !inUse(name) {
			os.Remove(name)
		}
	}
}

// createState makes a new bbolt file of this server's format at path,
// holding no data yet; a file it could not finish (on a full disk bbolt
// leaves an empty one) is removed.
func createState(path string) (*bolt.DB, error) {
	db, err := bolt.Open(path, 0o600, openOptions)
	if err != nil {
		os.Remove(path)
		return nil, err
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket([]byte(metaBucket))
		if err != nil {
			return err
		}
		return b.Put([]byte(metaFormatKey), []byte(stateFormat))
	}); err != nil {
		db.Close()
		os.Remove(path)
		return nil, err
	}
	return db, nil
}

// replacement is where data written whole is put together before it
// takes the state file's place.
func (sf *File) replacement() string {
	return filepath.Join(filepath.Dir(sf.path), "."+filepath.Base(sf.path)+".replacing")
}

// verifyState opens the file read-only (so nothing can write to it) and
// checks that it is a whole bbolt database of this server's format.
func verifyState(path string, size int64) (err error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		if errors.Is(err, berrors.ErrTimeout) {
			return errors.New("is in use by another running omctl server")
		}
		if errors.Is(err, os.ErrPermission) {
			return fmt.Errorf("cannot be read: %s", PlainError(err))
		}
		return errors.New("is not a state file of omctl server (not a bbolt database, or a damaged one)")
	}
	defer db.Close()
	// A damaged file can make the memory map fault: turn that into an error.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if recover() != nil {
			err = errors.New("is damaged (it could not be read through)")
		}
	}()
	return db.View(func(tx *bolt.Tx) error {
		if tx.Size() > size {
			return fmt.Errorf("is truncated: it has %d bytes of the %d its pages need", size, tx.Size())
		}
		meta := tx.Bucket([]byte(metaBucket))
		if first, _ := tx.Cursor().First(); meta == nil && first == nil {
			return errNothingWritten
		}
		if meta == nil || string(meta.Get([]byte(metaFormatKey))) != stateFormat {
			return fmt.Errorf("is a bbolt database of another format, not a state file of omctl server (%s)", stateFormat)
		}
		for cerr := range tx.Check() {
			return fmt.Errorf("is damaged: %v", cerr)
		}
		return nil
	})
}

// errNothingWritten is a bbolt file without a bucket: what an earlier
// version left of a first start cut short between making the file and
// writing its format (this version makes it under another name).
var errNothingWritten = errors.New("holds nothing")

// PlainError keeps the operating system's words and drops Go's wrapping.
func PlainError(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Close closes the file.
func (sf *File) Close() error { return sf.db.Close() }

// Abandon closes a file this start created and then could not put data in
// (the seed's commit failed: a full disk), and removes it, so that the
// next start is a first start. Any other file is only closed.
func (sf *File) Abandon() error {
	err := sf.db.Close()
	if sf.pending != "" {
		return errors.Join(err, os.Remove(sf.pending))
	}
	return err
}

// name is the file's name now: path, or its own while pending.
func (sf *File) name() string {
	if sf.pending != "" {
		return sf.pending
	}
	return sf.path
}

// Path is where the state lives.
func (sf *File) Path() string { return sf.path }

// Empty reports whether the file holds no data yet (it was just created,
// or a batch that replaces all was never completed): then the caller
// writes its data whole.
func (sf *File) Empty() bool {
	empty := true
	sf.db.View(func(tx *bolt.Tx) error {
		empty = tx.Bucket([]byte(metaBucket)).Get([]byte(metaWholeKey)) == nil
		return nil
	})
	return empty
}

func (sf *File) maxSeq() uint64 {
	var top uint64
	sf.db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			if string(name) == metaBucket {
				return nil
			}
			return b.ForEach(func(_, v []byte) error {
				if len(v) >= 8 {
					top = max(top, binary.BigEndian.Uint64(v))
				}
				return nil
			})
		})
	})
	return top
}

// Meta is the value set under key by a batch's Meta ("" when none was).
func (sf *File) Meta(key string) string {
	var v string
	sf.db.View(func(tx *bolt.Tx) error {
		v = string(tx.Bucket([]byte(metaBucket)).Get([]byte(key)))
		return nil
	})
	return v
}

// Read calls fn with each record the file holds, kind by kind, each kind
// in the order its records were first written. A record's bytes are
// valid only during the call. An error of fn stops the reading and is
// returned as it is.
func (sf *File) Read(fn func(Record) error) error {
	type entry struct {
		seq        uint64
		key, value []byte
	}
	err := sf.db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			if string(name) == metaBucket {
				return nil
			}
			kind := string(name)
			// Records are most often in key order in their lists too (a
			// seed whose ids grow, as ObjectIds made in time order do):
			// then they are given as the bucket holds them, else in order
			// of their places, sorted.
			inOrder, last := true, uint64(0)
			if err := b.ForEach(func(key, v []byte) error {
				if len(v) < 8 {
					return &Error{sf.path, fmt.Sprintf("%s %s: record is damaged", name, key)}
				}
				seq := binary.BigEndian.Uint64(v)
				inOrder = inOrder && seq > last
				last = seq
				return nil
			}); err != nil {
				return err
			}
			if inOrder {
				return b.ForEach(func(key, v []byte) error { return fn(Record{Kind: kind, Key: string(key), Value: v[8:]}) })
			}
			var entries []entry
			b.ForEach(func(key, v []byte) error {
				entries = append(entries, entry{binary.BigEndian.Uint64(v), key, v[8:]})
				return nil
			})
			slices.SortFunc(entries, func(x, y entry) int { return cmp.Compare(x.seq, y.seq) })
			for _, e := range entries {
				if err := fn(Record{Kind: kind, Key: string(e.key), Value: e.value}); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	// Reading the file brought all of it into memory through bbolt's map:
	// opening it again leaves out what is not needed any more.
	if err := sf.db.Close(); err != nil {
		return &Error{sf.path, PlainError(err)}
	}
	db, err := bolt.Open(sf.name(), 0o600, openOptions)
	if err != nil {
		return &Error{sf.path, "cannot be opened again: " + PlainError(err)}
	}
	sf.db = db
	return nil
}

// Commit writes a batch, syncing it to disk before it returns. A batch
// that replaces everything (a seed, a reset) is written to a new file,
// which then takes the state file's place: a crash leaves the old data or
// the new, whole either way.
func (sf *File) Commit(b *Batch) error {
	if b.ReplaceAll && sf.pending != "" {
		return sf.seed(b)
	}
	if !b.ReplaceAll {
		puts := make([]put, len(b.Records))
		for i, r := range b.Records {
			puts[i].Record = r
		}
		return sf.db.Update(func(tx *bolt.Tx) error { return sf.write(tx, b, puts) })
	}
	tmp := sf.replacement()
	os.Remove(tmp)
	db, err := createState(tmp)
	if err != nil {
		return err
	}
	next := &File{path: sf.path, db: db}
	if err := next.writeWhole(b); err != nil {
		db.Close()
		os.Remove(tmp)
		return err
	}
	// The new file takes the old one's place while both are open, and so
	// locked: no other server can open the path in between, and the old
	// file stays in use should the rename fail.
	if err := os.Rename(tmp, sf.path); err != nil {
		if runtime.GOOS == "windows" {
			return sf.replaceClosed(db, tmp, next.seq)
		}
		db.Close()
		os.Remove(tmp)
		return err
	}
	old := sf.db
	sf.db, sf.seq = db, next.seq
	synced := syncDir(filepath.Dir(sf.path))
	old.Close()
	return synced
}

// seed writes the first data of a file that is not at its path yet, and
// puts it there: the file appears at path whole, or not at all. The file
// is linked to path, which fails rather than replace a file another start
// put there meanwhile; where the file system has no links it is renamed.
func (sf *File) seed(b *Batch) error {
	if err := sf.db.Update(dropRecords); err != nil {
		return err
	}
	if err := sf.writeWhole(b); err != nil {
		return err
	}
	err := os.Link(sf.pending, sf.path)
	switch {
	case errors.Is(err, os.ErrExist):
		return fmt.Errorf("another omctl server made the state file meanwhile: %s", PlainError(err))
	case err != nil:
		if _, serr := os.Lstat(sf.path); !errors.Is(serr, os.ErrNotExist) {
			return fmt.Errorf("another omctl server made the state file meanwhile")
		}
		if err := os.Rename(sf.pending, sf.path); err != nil {
			return err
		}
	default:
		os.Remove(sf.pending)
	}
	sf.pending = ""
	return syncDir(filepath.Dir(sf.path))
}

// dropRecords empties a file but for its own meta bucket.
func dropRecords(tx *bolt.Tx) error {
	var kinds [][]byte
	tx.ForEach(func(name []byte, _ *bolt.Bucket) error {
		if string(name) != metaBucket {
			kinds = append(kinds, slices.Clone(name))
		}
		return nil
	})
	for _, k := range kinds {
		if err := tx.DeleteBucket(k); err != nil {
			return err
		}
	}
	return nil
}

// replaceClosed puts the new file in place on Windows, which renames no
// file that is open: both are closed, and the state file opened again.
// Another server could open the path in between; Windows has no better.
func (sf *File) replaceClosed(db *bolt.DB, tmp string, seq uint64) error {
	db.Close()
	sf.db.Close()
	renamed := os.Rename(tmp, sf.path)
	if renamed != nil {
		os.Remove(tmp)
	}
	reopened, err := bolt.Open(sf.path, 0o600, openOptions)
	if err != nil {
		// Nothing to write to any more: every later commit fails.
		return errors.Join(renamed, err)
	}
	sf.db = reopened
	if renamed == nil {
		sf.seq = seq
	}
	return renamed
}

// writeWhole writes every record of b into a file of no data, a bounded
// number a transaction, the last of which marks the data whole.
func (sf *File) writeWhole(b *Batch) error {
	// Each record keeps its place in its list, as given, and they are
	// written in key order: each bucket grows at its end, its pages are
	// filled once and none is written twice. Otherwise every transaction
	// would rewrite pages the previous one wrote, and the file would keep
	// a list of those free pages that each later commit writes again (some
	// 2 MB among a million alerts).
	puts := make([]put, len(b.Records))
	for i, r := range b.Records {
		puts[i] = put{r, sf.seq + uint64(i) + 1}
	}
	slices.SortFunc(puts, func(x, y put) int {
		return cmp.Or(strings.Compare(x.Kind, y.Kind), strings.Compare(x.Key, y.Key))
	})
	for {
		n := min(len(puts), putsPerTx)
		last := n == len(puts)
		if err := sf.db.Update(func(tx *bolt.Tx) error {
			if err := sf.write(tx, b, puts[:n]); err != nil {
				return err
			}
			if last {
				return tx.Bucket([]byte(metaBucket)).Put([]byte(metaWholeKey), []byte("yes"))
			}
			return nil
		}); err != nil {
			return err
		}
		if last {
			return nil
		}
		puts = puts[n:]
	}
}

// syncDir makes a rename in dir durable (Windows cannot sync a directory,
// and needs not).
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// put is a record to write, and its place in its list when written whole
// (0: kept, or next).
type put struct {
	Record
	seq uint64
}

// write puts records (and the batch's meta) in a transaction.
func (sf *File) write(tx *bolt.Tx, b *Batch, puts []put) error {
	meta := tx.Bucket([]byte(metaBucket))
	for key, v := range b.Meta {
		if key == metaFormatKey || key == metaWholeKey {
			return fmt.Errorf("meta key %q is the state file's own", key)
		}
		if v != "" {
			if err := meta.Put([]byte(key), []byte(v)); err != nil {
				return err
			}
		}
	}
	for _, r := range puts {
		if r.Kind == metaBucket {
			return fmt.Errorf("kind %q is the state file's own", r.Kind)
		}
		bucket, err := tx.CreateBucketIfNotExists([]byte(r.Kind))
		if err != nil {
			return err
		}
		if r.Value == nil {
			if err := bucket.Delete([]byte(r.Key)); err != nil {
				return err
			}
			continue
		}
		seq := sf.seq + 1
		switch old := bucket.Get([]byte(r.Key)); {
		case r.seq != 0:
			seq = r.seq
			sf.seq = max(sf.seq, seq)
			bucket.FillPercent = 0.9 // written in key order: fill each page, but for room to grow
		case len(old) >= 8:
			seq = binary.BigEndian.Uint64(old) // keep its place
		default:
			sf.seq = seq
		}
		v := make([]byte, 8+len(r.Value))
		binary.BigEndian.PutUint64(v, seq)
		copy(v[8:], r.Value)
		if err := bucket.Put([]byte(r.Key), v); err != nil {
			// bbolt refuses an empty key and one over 32 KiB: the rules
			// that made the record should have (api.MaxNameLength).
			return fmt.Errorf("%s %.40q (a key of %d bytes, a value of %d): %w", r.Kind, r.Key, len(r.Key), len(r.Value), err)
		}
	}
	return nil
}
