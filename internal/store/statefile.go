package store

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// StateFile keeps the server's data across restarts (docs/server.md,
// "State"): a bbolt database with one bucket per kind of resource and one
// record per resource, so a write costs what it changes, and each commit
// is synced before the write is answered.
type StateFile struct {
	path string
	db   *bolt.DB
	// seq orders records as they were first written, so that lists come
	// back in the order they had.
	seq uint64
}

const (
	stateFormat   = "omctl-state/1"
	metaBucket    = "meta"
	metaFormatKey = "format"
	metaClockKey  = "clock"
	// metaOffsetKey is how far a real clock was advanced.
	metaOffsetKey = "clockOffset"
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

// StateError says why a state file cannot be used; the file is left as it is.
type StateError struct {
	Path, Problem string
}

func (e *StateError) Error() string { return fmt.Sprintf("state file %s: %s", e.Path, e.Problem) }

// OpenState opens the state file at path, creating it when it does not
// exist. A file that exists but is not a sound state file of this server
// is refused with a *StateError, untouched.
func OpenState(path string) (*StateFile, error) {
	fail := func(format string, a ...any) error { return &StateError{path, fmt.Sprintf(format, a...)} }
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		db, err := createState(path)
		if err != nil {
			return nil, fail("cannot be created: %v", plainError(err))
		}
		return &StateFile{path: path, db: db}, nil
	case err != nil:
		return nil, fail("cannot be read: %v", plainError(err))
	case info.IsDir():
		return nil, fail("is a directory")
	case !info.Mode().IsRegular():
		return nil, fail("is not a regular file, so it is not a state file of omctl server")
	case info.Size() == 0:
		return nil, fail("is empty, so it is not a state file of omctl server; remove it to start afresh")
	}
	if err := verifyState(path, info.Size()); err != nil {
		return nil, fail("%v; it was left as it is", err)
	}
	db, err := bolt.Open(path, 0o600, openOptions)
	if err != nil {
		return nil, fail("cannot be opened: %v", plainError(err))
	}
	sf := &StateFile{path: path, db: db}
	sf.seq = sf.maxSeq()
	// What a reset left half-written when the server stopped.
	os.Remove(sf.replacement())
	return sf, nil
}

// createState makes a new state file at path, holding no data yet; a
// file it could not finish is removed.
func createState(path string) (*bolt.DB, error) {
	db, err := bolt.Open(path, 0o600, openOptions)
	if err != nil {
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
func (sf *StateFile) replacement() string {
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
			return fmt.Errorf("cannot be read: %s", plainError(err))
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
		if meta == nil || string(meta.Get([]byte(metaFormatKey))) != stateFormat {
			return fmt.Errorf("is a bbolt database of another format, not a state file of omctl server (%s)", stateFormat)
		}
		for cerr := range tx.Check() {
			return fmt.Errorf("is damaged: %v", cerr)
		}
		return nil
	})
}

// plainError keeps the operating system's words and drops Go's wrapping.
func plainError(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Close closes the file.
func (sf *StateFile) Close() error { return sf.db.Close() }

// Path is where the state lives.
func (sf *StateFile) Path() string { return sf.path }

// Empty reports whether the file holds no data yet (it was just created,
// or a seed never completed): then the fixtures seed it.
func (sf *StateFile) Empty() bool {
	empty := true
	sf.db.View(func(tx *bolt.Tx) error {
		empty = tx.Bucket([]byte(metaBucket)).Get([]byte(metaWholeKey)) == nil
		return nil
	})
	return empty
}

func (sf *StateFile) maxSeq() uint64 {
	var top uint64
	sf.db.View(func(tx *bolt.Tx) error {
		for _, k := range fixtureKeys {
			b := tx.Bucket([]byte(k))
			if b == nil {
				continue
			}
			b.ForEach(func(_, v []byte) error {
				if len(v) >= 8 {
					top = max(top, binary.BigEndian.Uint64(v))
				}
				return nil
			})
		}
		return nil
	})
	return top
}

// SavedClock is the clock the server last saved, to resume: a virtual
// clock at its time, or the real clock as far ahead as it was advanced
// (not at all for a file that saved neither).
func (sf *StateFile) SavedClock() (*Clock, error) {
	clock := RealClock()
	err := sf.db.View(func(tx *bolt.Tx) error {
		meta := tx.Bucket([]byte(metaBucket))
		if v := meta.Get([]byte(metaClockKey)); v != nil {
			t, err := time.Parse(time.RFC3339Nano, string(v))
			if err != nil || CheckTime(t) != nil {
				return &StateError{sf.path, fmt.Sprintf("the saved clock %q cannot be read", v)}
			}
			clock = VirtualClock(t)
		} else if v := meta.Get([]byte(metaOffsetKey)); v != nil {
			d, err := time.ParseDuration(string(v))
			if err != nil || d < 0 {
				return &StateError{sf.path, fmt.Sprintf("the saved clock offset %q cannot be read", v)}
			}
			clock = RealClockAhead(d)
		}
		return nil
	})
	return clock, err
}

// Load reads the data back as fixtures, in the order it was written.
func (sf *StateFile) Load() (*Fixtures, error) {
	f := &Fixtures{}
	lists := f.lists()
	type rec struct {
		seq uint64
		doc doc
		raw []byte
	}
	byKind := map[string][]rec{}
	err := sf.db.View(func(tx *bolt.Tx) error {
		for _, k := range fixtureKeys {
			b := tx.Bucket([]byte(k))
			if b == nil {
				continue
			}
			var recs []rec
			alerts := k == "alerts" || k == "globalAlerts"
			err := b.ForEach(func(key, v []byte) error {
				if len(v) < 8 {
					return fmt.Errorf("%s %s: record is damaged", k, key)
				}
				r := rec{seq: binary.BigEndian.Uint64(v)}
				if alerts {
					r.raw = append([]byte(nil), v[8:]...) // bbolt's bytes last as long as the transaction
				} else {
					dec := json.NewDecoder(bytes.NewReader(v[8:]))
					dec.UseNumber()
					if err := dec.Decode(&r.doc); err != nil || r.doc == nil {
						return fmt.Errorf("%s %s: record is not a JSON object", k, key)
					}
				}
				recs = append(recs, r)
				return nil
			})
			if err != nil {
				return err
			}
			sort.Slice(recs, func(i, j int) bool { return recs[i].seq < recs[j].seq })
			byKind[k] = recs
		}
		return sf.loadSchedules(tx, f)
	})
	if err != nil {
		return nil, &StateError{sf.path, err.Error()}
	}
	for k, recs := range byKind {
		switch k {
		case "alerts", "globalAlerts":
			p := newAlertParser()
			for _, r := range recs {
				p.add(r.raw)
			}
			alerts, err := p.finish()
			if err != nil {
				return nil, &StateError{sf.path, fmt.Sprintf("holds a damaged alert: %s%v", k, err)}
			}
			if k == "alerts" {
				f.Alerts = alerts
			} else {
				f.GlobalAlerts = alerts
			}
		default:
			for _, r := range recs {
				*lists[k] = append(*lists[k], r.doc)
			}
		}
	}
	if err := f.validate(); err != nil {
		return nil, &StateError{sf.path, "holds data that breaks a rule: " + err.Error()}
	}
	// Reading the file brought all of it into memory through bbolt's map:
	// opening it again leaves out what is not needed any more.
	if err := sf.db.Close(); err != nil {
		return nil, &StateError{sf.path, plainError(err)}
	}
	db, err := bolt.Open(sf.path, 0o600, openOptions)
	if err != nil {
		return nil, &StateError{sf.path, "cannot be opened again: " + plainError(err)}
	}
	sf.db = db
	return f, nil
}

// loadSchedules reads the schedules of the alerts the engine raised.
func (sf *StateFile) loadSchedules(tx *bolt.Tx, f *Fixtures) error {
	b := tx.Bucket([]byte(schedulesKind))
	if b == nil {
		return nil
	}
	f.schedules = map[string]*scheduleRecord{}
	return b.ForEach(func(key, v []byte) error {
		var rec scheduleRecord
		dec := json.NewDecoder(bytes.NewReader(v[min(len(v), 8):]))
		dec.UseNumber()
		if len(v) < 8 || dec.Decode(&rec) != nil {
			return fmt.Errorf("%s %s: record is damaged", schedulesKind, key)
		}
		f.schedules[string(key)] = &rec
		return nil
	})
}

// record is one resource to write: its kind (a fixture key), its key
// within the kind, and its document (nil to delete it).
type record struct {
	kind, key string
	doc       any // a doc or an *AlertDoc
}

// batch is what one request changed, encoded while the data was locked.
type batch struct {
	replaceAll bool // drop every record first (reset)
	puts       []encodedRecord
	turn       uint64 // its place in the order of commits (commitTurns)
	clock      string // the virtual clock's time; "" for the real clock
	offset     string // how far the real clock was advanced; "" for none
}

type encodedRecord struct {
	kind, key string
	seq       uint64 // its place in its list when written whole; 0: kept, or next
	value     []byte // nil deletes
}

func encodeBatch(recs []record, replaceAll bool, clock *Clock) (*batch, error) {
	b := &batch{replaceAll: replaceAll}
	if clock.Virtual() {
		b.clock = clock.Now().Format(time.RFC3339Nano)
	} else if d := clock.Offset(); d != 0 {
		b.offset = d.String()
	}
	for _, r := range recs {
		er := encodedRecord{kind: r.kind, key: r.key}
		switch d := r.doc.(type) {
		case nil:
		case *AlertDoc:
			er.value = d.Raw
		default:
			data, err := json.Marshal(d)
			if err != nil {
				return nil, fmt.Errorf("%s %s cannot be encoded: %v", r.kind, r.key, err)
			}
			er.value = data
		}
		b.puts = append(b.puts, er)
	}
	return b, nil
}

// Commit writes a batch, syncing it to disk before it returns. A batch
// that replaces everything (a seed, a reset) is written to a new file,
// which then takes the state file's place: a crash leaves the old data or
// the new, whole either way.
func (sf *StateFile) Commit(b *batch) error {
	if !b.replaceAll {
		return sf.db.Update(func(tx *bolt.Tx) error { return sf.write(tx, b, b.puts) })
	}
	tmp := sf.replacement()
	os.Remove(tmp)
	db, err := createState(tmp)
	if err != nil {
		return err
	}
	next := &StateFile{path: sf.path, db: db}
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

// replaceClosed puts the new file in place on Windows, which renames no
// file that is open: both are closed, and the state file opened again.
// Another server could open the path in between; Windows has no better.
func (sf *StateFile) replaceClosed(db *bolt.DB, tmp string, seq uint64) error {
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
func (sf *StateFile) writeWhole(b *batch) error {
	// Each record keeps its place in its list, as given, and they are
	// written in key order: each bucket grows at its end, its pages are
	// filled once and none is written twice. Otherwise every transaction
	// would rewrite pages the previous one wrote, and the file would keep
	// a list of those free pages that each later commit writes again (some
	// 2 MB among a million alerts).
	puts := slices.Clone(b.puts)
	for i := range puts {
		puts[i].seq = sf.seq + uint64(i) + 1
	}
	slices.SortFunc(puts, func(x, y encodedRecord) int {
		return cmp.Or(strings.Compare(x.kind, y.kind), strings.Compare(x.key, y.key))
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

// write puts records (and the clock) in a transaction.
func (sf *StateFile) write(tx *bolt.Tx, b *batch, puts []encodedRecord) error {
	meta := tx.Bucket([]byte(metaBucket))
	for key, v := range map[string]string{metaClockKey: b.clock, metaOffsetKey: b.offset} {
		if v != "" {
			if err := meta.Put([]byte(key), []byte(v)); err != nil {
				return err
			}
		}
	}
	for _, r := range puts {
		bucket, err := tx.CreateBucketIfNotExists([]byte(r.kind))
		if err != nil {
			return err
		}
		if r.value == nil {
			if err := bucket.Delete([]byte(r.key)); err != nil {
				return err
			}
			continue
		}
		seq := sf.seq + 1
		switch old := bucket.Get([]byte(r.key)); {
		case r.seq != 0:
			seq = r.seq
			sf.seq = max(sf.seq, seq)
			bucket.FillPercent = 0.9 // written in key order: fill each page, but for room to grow
		case len(old) >= 8:
			seq = binary.BigEndian.Uint64(old) // keep its place
		default:
			sf.seq = seq
		}
		v := make([]byte, 8+len(r.value))
		binary.BigEndian.PutUint64(v, seq)
		copy(v[8:], r.value)
		if err := bucket.Put([]byte(r.key), v); err != nil {
			return err
		}
	}
	return nil
}
