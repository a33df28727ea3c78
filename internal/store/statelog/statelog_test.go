package statelog

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

func open(t *testing.T, path string) *File {
	t.Helper()
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func commit(t *testing.T, f *File, b *Batch) {
	t.Helper()
	if err := f.Commit(b); err != nil {
		t.Fatal(err)
	}
}

// held is what f holds, as "kind/key=value" in the order Read gives.
func held(t *testing.T, f *File) []string {
	t.Helper()
	var got []string
	if err := f.Read(func(r Record) error {
		got = append(got, r.Kind+"/"+r.Key+"="+string(r.Value))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return got
}

func rec(kind, key, value string) Record {
	r := Record{Kind: kind, Key: key}
	if value != "" {
		r.Value = []byte(value)
	}
	return r
}

// Records come back after a restart kind by kind, each kind in the order
// its records were first written (not in key order; a kind written in key
// order, as most are, comes back as its bucket holds it), a rewritten
// record in its first place, a deleted one gone; meta is kept.
func TestRecordsComeBackInTheOrderTheyWereFirstWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	f := open(t, path)
	if !f.Empty() {
		t.Fatal("a new file holds data")
	}
	commit(t, f, &Batch{ReplaceAll: true, Records: []Record{rec("b", "z", "1"), rec("b", "a", "2"), rec("a", "k", "3"), rec("c", "1", "7"), rec("c", "2", "8")}})
	commit(t, f, &Batch{Records: []Record{rec("b", "m", "4"), rec("b", "z", "5"), rec("a", "k", "")},
		Meta: map[string]string{"clock": "noon"}})
	f.Close()
	again := open(t, path)
	want := []string{"b/z=5", "b/a=2", "b/m=4", "c/1=7", "c/2=8"}
	if got := held(t, again); !slices.Equal(got, want) || again.Empty() || again.Meta("clock") != "noon" {
		t.Errorf("after a restart: %v (empty %v, clock %q), want %v", got, again.Empty(), again.Meta("clock"), want)
	}
	// Read opened the file again: it is still written to.
	commit(t, again, &Batch{Records: []Record{rec("a", "n", "6")}})
	if got := held(t, again); !slices.Contains(got, "a/n=6") {
		t.Errorf("a commit after Read: %v", got)
	}
}

// A batch that replaces all leaves only its records, and nothing beside
// the state file.
func TestReplaceAllLeavesOnlyItsRecords(t *testing.T) {
	dir := t.TempDir()
	f := open(t, filepath.Join(dir, "state.db"))
	commit(t, f, &Batch{ReplaceAll: true, Records: []Record{rec("a", "1", "old"), rec("b", "2", "old")}})
	commit(t, f, &Batch{ReplaceAll: true, Records: []Record{rec("a", "3", "new")}})
	if got := held(t, f); !slices.Equal(got, []string{"a/3=new"}) {
		t.Errorf("after a replacement: %v", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files beside the state file: %v", entries)
	}
}

// A batch that cannot be written whole leaves the file as it was.
func TestAFailedReplacementLeavesTheOldData(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	f := open(t, path)
	commit(t, f, &Batch{ReplaceAll: true, Records: []Record{rec("a", "1", "old")}})
	if err := os.MkdirAll(filepath.Join(f.replacement(), "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(&Batch{ReplaceAll: true, Records: []Record{rec("a", "2", "new")}}); err == nil {
		t.Fatal("a replacement that could not be put together was written")
	}
	if got := held(t, f); !slices.Equal(got, []string{"a/1=old"}) {
		t.Errorf("after a failed replacement: %v", got)
	}
}

// The file's own names are refused, whole: nothing of the batch is written.
func TestTheFilesOwnNamesAreRefused(t *testing.T) {
	f := open(t, filepath.Join(t.TempDir(), "state.db"))
	for _, b := range []*Batch{
		{Records: []Record{rec("a", "1", "x"), rec(metaBucket, "k", "v")}},
		{Records: []Record{rec("a", "1", "x")}, Meta: map[string]string{metaWholeKey: "no"}},
	} {
		if err := f.Commit(b); err == nil {
			t.Errorf("%+v was written", b)
		}
	}
	if got := held(t, f); len(got) != 0 || !f.Empty() {
		t.Errorf("a refused batch left %v", got)
	}
}

// An error of Read's callback stops the reading and comes back as it is.
func TestReadStopsAtTheCallersError(t *testing.T) {
	f := open(t, filepath.Join(t.TempDir(), "state.db"))
	commit(t, f, &Batch{ReplaceAll: true, Records: []Record{rec("a", "1", "x"), rec("a", "2", "y")}})
	stop := errors.New("stop")
	calls := 0
	if err := f.Read(func(Record) error { calls++; return stop }); err != stop || calls != 1 {
		t.Errorf("Read: %v after %d calls", err, calls)
	}
}

// Data written whole (a seed, a reset) leaves the file without free
// pages, whose list bbolt would write again at every later commit: a write
// then costs what it changes, however large the data.
func TestAReplacementLeavesNoFreePagesForLaterWritesToCarry(t *testing.T) {
	written := func() int64 {
		b, err := os.ReadFile("/proc/self/io")
		if err != nil {
			t.Skip("needs /proc/self/io")
		}
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "wchar: "); ok {
				n, _ := strconv.ParseInt(v, 10, 64)
				return n
			}
		}
		t.Skip("no wchar in /proc/self/io")
		return 0
	}
	defer func(n int) { putsPerTx = n }(putsPerTx)
	putsPerTx = 2000 // so that the replacement takes several transactions
	rng := rand.New(rand.NewPCG(3, 4))
	value := []byte(strings.Repeat("an alert of some 300 bytes, ", 11))
	b := &Batch{ReplaceAll: true}
	for range 20000 { // keys in no order, as fixtures have them
		b.Records = append(b.Records, Record{Kind: "alerts", Key: fmt.Sprintf("%024x", rng.Uint64()), Value: value})
	}
	f := open(t, filepath.Join(t.TempDir(), "state.db"))
	commit(t, f, b)
	one := &Batch{Records: []Record{{Kind: "alerts", Key: b.Records[0].Key, Value: value}}}
	commit(t, f, one) // frees what the replacement's last transaction left pending
	if free := f.db.Stats().FreePageN; free > 50 {
		t.Errorf("the replacement left %d free pages", free)
	}
	before := written()
	for range 10 {
		commit(t, f, one)
	}
	per := (written() - before) / 10
	t.Logf("%d bytes a write among %d records", per, len(b.Records))
	if per > 40<<10 {
		t.Errorf("one write of one record wrote %d bytes", per)
	}
}

// A commit that Faulty fails writes nothing; once it stops, commits go on.
func TestAFailedCommitWritesNothing(t *testing.T) {
	f := &Faulty{File: open(t, filepath.Join(t.TempDir(), "state.db"))}
	down := errors.New("down")
	f.FailCommits(func(b *Batch) error {
		if len(b.Records) > 1 {
			return down
		}
		return nil
	})
	if err := f.Commit(&Batch{Records: []Record{rec("a", "1", "x"), rec("a", "2", "y")}}); err != down {
		t.Fatalf("a refused commit: %v", err)
	}
	commit(t, f.File, &Batch{Records: []Record{rec("a", "3", "z")}})
	f.FailCommits(nil)
	if err := f.Commit(&Batch{Records: []Record{rec("a", "4", "w"), rec("a", "5", "v")}}); err != nil {
		t.Fatal(err)
	}
	if got := held(t, f.File); !slices.Equal(got, []string{"a/3=z", "a/4=w", "a/5=v"}) {
		t.Errorf("held %v", got)
	}
}

// A new state file is made under a name of its own and appears at its path
// only once data is written whole: before, the path holds nothing, and an
// abandoned start leaves nothing behind.
func TestANewFileAppearsAtItsPathOnlyWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.db")
	f := open(t, path)
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the path exists before the seed: %v", err)
	}
	commit(t, f, &Batch{Records: []Record{rec("a", "0", "not whole")}})
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the path exists after a batch that is not whole: %v", err)
	}
	commit(t, f, &Batch{ReplaceAll: true, Records: []Record{rec("a", "1", "seed")}})
	if got := held(t, f); !slices.Equal(got, []string{"a/1=seed"}) || f.Empty() {
		t.Errorf("after the seed: %v (empty %v)", got, f.Empty())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 || entries[0].Name() != "state.db" {
		t.Errorf("the directory after the seed: %v", entries)
	}
	commit(t, f, &Batch{Records: []Record{rec("a", "2", "later")}})
	f.Close()
	if got := held(t, open(t, path)); !slices.Equal(got, []string{"a/1=seed", "a/2=later"}) {
		t.Errorf("after a restart: %v", got)
	}

	other := filepath.Join(dir, "other.db")
	g, err := Open(other)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Abandon(); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("an abandoned start left %v", entries)
	}
}

// Two first starts on one path: the one that seeds second fails, and the
// data of the first is what the path holds.
func TestTwoFirstStartsDoNotOverwriteEachOther(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	a, b := open(t, path), open(t, path)
	commit(t, a, &Batch{ReplaceAll: true, Records: []Record{rec("a", "1", "first")}})
	err := b.Commit(&Batch{ReplaceAll: true, Records: []Record{rec("a", "1", "second")}})
	if err == nil || !strings.Contains(err.Error(), "another omctl server made the state file meanwhile") {
		t.Fatalf("the second seed: %v", err)
	}
	b.Abandon()
	if got := held(t, a); !slices.Equal(got, []string{"a/1=first"}) {
		t.Errorf("the path holds %v", got)
	}
}

// What a first start killed before its seed leaves beside the path is
// removed by the next start, unless a running start holds it; a bbolt
// file at the path with no bucket at all (what an earlier version left of
// a cut first start) is seeded again, while one holding anything else is
// refused, untouched.
func TestLeftoversOfCutFirstStartsAreCleared(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.db")
	running := open(t, path) // a start that has not seeded yet
	dead := filepath.Join(dir, creatingPrefix(path)+"123")
	if err := os.WriteFile(dead, make([]byte, 16384), 0o600); err != nil {
		t.Fatal(err)
	}
	f := open(t, path)
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the leftover of a dead start is still there: %v", err)
	}
	if _, err := os.Stat(running.pending); err != nil {
		t.Errorf("the file of a running start was removed: %v", err)
	}
	f.Abandon()
	running.Abandon()

	empty := filepath.Join(dir, "empty.db")
	db, err := bolt.Open(empty, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	g := open(t, empty)
	if !g.Empty() {
		t.Error("a file without buckets holds data")
	}
	commit(t, g, &Batch{ReplaceAll: true, Records: []Record{rec("a", "1", "seed")}})
	if got := held(t, g); !slices.Equal(got, []string{"a/1=seed"}) {
		t.Errorf("seeded again: %v", got)
	}

	foreign := filepath.Join(dir, "foreign.db")
	if db, err = bolt.Open(foreign, 0o600, nil); err != nil {
		t.Fatal(err)
	}
	db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("theirs")); return err })
	db.Close()
	before, _ := os.ReadFile(foreign)
	if _, err := Open(foreign); err == nil || !strings.Contains(err.Error(), "another format") {
		t.Errorf("a bbolt file of another program: %v", err)
	}
	if after, _ := os.ReadFile(foreign); !slices.Equal(before, after) {
		t.Error("a bbolt file of another program was changed")
	}
}
