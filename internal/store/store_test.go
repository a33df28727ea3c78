package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/engine"
	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/model"
	"github.com/omctl/omctl/internal/store/statelog"
)

var start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// projA is the project of generatedFixtureFile; processConfig a configuration
// tests add.
const (
	projA         = "5e2b00000000000000000001"
	processConfig = "5f2a00000000000000000101"
)

// openStore opens a store over a new state file seeded with the default
// fixtures, and the path of that file.
func openStore(t *testing.T) (*Store, string) {
	t.Helper()
	return openStoreWith(t, fixture.Default())
}

// openStoreWith is openStore seeded with f.
func openStoreWith(t *testing.T, f *fixture.Fixtures) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state.db")
	file, err := statelog.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	log := &statelog.Faulty{File: file}
	s, err := Open(f, log, VirtualClock(start), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { file.Close() })
	return s, path
}

// failCommits makes the commits of s fail when fail says so (nil: none).
func failCommits(s *Store, fail func(*statelog.Batch) error) {
	s.log.(*statelog.Faulty).FailCommits(fail)
}

var errUnwritable = errors.New("the state file cannot be written")

// onDisk is what the state file at path holds, read by a fresh store, as
// a restarted server would.
func onDisk(t *testing.T, s *Store, path string) *model.State {
	t.Helper()
	return restarted(t, s, path).st
}

func oplogStore(id string, maxConns int) rules.Doc {
	return rules.Doc{"id": id, "acceptedTos": true, "s3BucketName": "b", "s3MaxConnections": int64(maxConns)}
}

func TestUpdateIsOnDiskWhenItReturns(t *testing.T) {
	s, path := openStore(t)
	if _, err := s.Update(func(st *engine.Tx) { st.CreateOplogStore(oplogStore("o1", 5)) }); err != nil {
		t.Fatal(err)
	}
	got := onDisk(t, s, path).OplogStores().Get("o1")
	if got == nil || got.Members()["s3MaxConnections"] != int64(5) {
		t.Fatalf("state file holds %v", got)
	}
}

func TestConcurrentUpdatesReachTheFileInTheOrderTheyWereMade(t *testing.T) {
	s, path := openStore(t)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				id := fmt.Sprintf("w%d", w)
				_, err := s.Update(func(st *engine.Tx) {
					if st.OplogStores().Get(id) == nil {
						st.CreateOplogStore(oplogStore(id, i+1))
					} else {
						st.ReplaceOplogStore(id, oplogStore(id, i+1))
					}
				})
				if err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	var mem []rules.Doc
	s.View(func(st *model.State) { mem = storeDocs(st.OplogStores()) })
	disk := onDisk(t, s, path).OplogStores()
	for _, d := range mem {
		if got := disk.Get(d["id"].(string)); got == nil || got.Members()["s3MaxConnections"] != d["s3MaxConnections"] {
			t.Errorf("%s: memory %v, state file %v", d["id"], d["s3MaxConnections"], got)
		}
	}
	if disk.Get("w3").Members()["s3MaxConnections"] != int64(25) {
		t.Errorf("the last write of w3 is not the one kept: %v", disk.Get("w3"))
	}
}

func TestAPanickingChangeIsAnErrorAndFreesTheLock(t *testing.T) {
	s, _ := openStore(t)
	_, err := s.Update(func(*engine.Tx) { panic("bug") })
	var perr *PanicError
	if !errors.As(err, &perr) || perr.Value != "bug" || len(perr.Stack) == 0 {
		t.Fatalf("Update: %v", err)
	}
	if err := s.View(func(*model.State) { panic("bug") }); !errors.As(err, &perr) {
		t.Fatalf("View: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := s.Update(func(st *engine.Tx) { st.CreateOplogStore(oplogStore("after", 1)) })
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the lock was not released after a panic")
	}
}

func TestOpenDueOpensTrackingAlertsWhenTheirDelayIsOver(t *testing.T) {
	f := fixture.Default()
	project := f.Projects[0]["id"].(string)
	cfg := api.NewObjectID()
	f.AlertConfigs = append(f.AlertConfigs, rules.Doc{"id": cfg, "groupId": project, "eventTypeName": "HOST_DOWN", "enabled": true,
		"notifications": []any{map[string]any{"typeName": "EMAIL", "emailAddress": "a@example.com", "delayMin": int64(10)}}})
	alertID := api.NewObjectID()
	f.Alerts = append(f.Alerts, alert.NewDoc(rules.Doc{"id": alertID, "groupId": project, "alertConfigId": cfg, "eventTypeName": "HOST_DOWN",
		"status": api.StatusTracking, "created": "2026-01-01T00:00:00Z", "updated": "2026-01-01T00:00:00Z"}))
	clock := VirtualClock(start)
	s, err := Open(f, nil, clock, false)
	if err != nil {
		t.Fatal(err)
	}
	status := func() (st string) {
		s.View(func(d *model.State) { st = d.Alert(alertID).Status })
		return st
	}
	s.OpenDue(clock.Now())
	if got := status(); got != api.StatusTracking {
		t.Fatalf("before its delay the alert is %s", got)
	}
	clock.Advance(10 * time.Minute)
	if _, err := s.OpenDue(clock.Now()); err != nil {
		t.Fatal(err)
	}
	if got := status(); got != api.StatusOpen {
		t.Fatalf("after its delay the alert is %s", got)
	}
}

// The alerts the engine raised go on being notified after a restart: a
// repeat falls due on its schedule, and a TRACKING alert is notified when
// it opens (an alert from fixtures is not: only raised alerts have a
// schedule).
func TestRaisedAlertsAreStillNotifiedAfterARestart(t *testing.T) {
	f := fixture.Default()
	project := f.Projects[0]["id"].(string)
	email := func(delay, interval int64) map[string]any {
		return map[string]any{"typeName": "EMAIL", "emailAddress": "ops@example.com", "delayMin": delay, "intervalMin": interval}
	}
	f.AlertConfigs = append(f.AlertConfigs,
		rules.Doc{"id": "5f2a00000000000000000001", "groupId": project, "eventTypeName": "HOST_DOWN", "enabled": true, "notifications": []any{email(0, 10)}},
		rules.Doc{"id": "5f2a00000000000000000002", "groupId": project, "eventTypeName": "REPLICA_SET", "enabled": true, "notifications": []any{email(5, 0)}})
	s, path := openStoreWith(t, f)
	var host, rs *alert.Rec
	out, err := s.Update(func(st *engine.Tx) {
		host = st.Apply(engine.Condition{Project: project, Event: "HOST_DOWN", Target: alert.Target{HostnameAndPort: "db1:27017"}}, start)[0]
		rs = st.Apply(engine.Condition{Project: project, Event: "REPLICA_SET", Target: alert.Target{ReplicaSetName: "rs0"}}, start)[0]
		st.RunUntil(start)
	})
	if err != nil || len(out.Notes) != 1 || out.Notes[0].Event != "alert.open" {
		t.Fatalf("before the restart: %+v %v", out.Notes, err)
	}
	again := restarted(t, s, path)
	out, err = again.Update(func(st *engine.Tx) { st.RunUntil(start.Add(20 * time.Minute)) })
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range out.Notes {
		got = append(got, n.AlertID[len(n.AlertID)-4:]+" "+n.Event+" "+n.SentAt[11:16])
	}
	want := []string{
		rs.Cur.ID[20:] + " alert.open 00:05",
		host.Cur.ID[20:] + " alert.update 00:10",
		host.Cur.ID[20:] + " alert.update 00:20",
	}
	if !slices.Equal(got, want) {
		t.Errorf("after the restart: %v, want %v", got, want)
	}
	again.View(func(st *model.State) {
		if r := st.Alert(rs.Cur.ID); r.Status != api.StatusOpen || !strings.Contains(string(r.Cur.Raw), `"lastNotified":"2026-01-01T00:05:00Z"`) {
			t.Errorf("the TRACKING alert: %s", r.Cur.Raw)
		}
	})
}

// A reader is answered while a change is being committed, its sync held,
// with the data as it was before the change, and sees the change once it
// is on disk: a slow disk delays writers only, and no reader sees a
// change that is not durable.
func TestReadsAreServedWhileAChangeIsSyncedAndSeeItOnlyOnceOnDisk(t *testing.T) {
	f := fixture.Default()
	alertID := api.NewObjectID()
	f.Alerts = append(f.Alerts, alert.NewDoc(rules.Doc{"id": alertID, "groupId": f.Projects[0]["id"], "eventTypeName": "HOST_DOWN",
		"status": api.StatusOpen, "created": "2026-01-01T00:00:00Z"}))
	s, path := openStoreWith(t, f)
	committing, release := make(chan bool), make(chan bool)
	failCommits(s, func(*statelog.Batch) error { committing <- true; <-release; return nil })
	written := make(chan error, 1)
	go func() {
		_, err := s.Update(func(st *engine.Tx) {
			st.CreateOplogStore(oplogStore("waiting", 1))
			a := st.Alert(alertID)
			st.SetAlert(a, a.Cur.Acknowledged("2027-01-01T00:00:00Z", "syncing", "me", start))
		})
		written <- err
	}()
	select {
	case <-committing:
	case err := <-written:
		t.Fatalf("the change was not committed: %v", err)
	}
	seen := func(st *model.State) string {
		acked := strings.Contains(string(st.Alert(alertID).Cur.Raw), "syncing")
		return fmt.Sprintf("store %t, acknowledged %t", st.OplogStores().Get("waiting") != nil, acked)
	}
	read := make(chan string, 1)
	go s.View(func(st *model.State) { read <- seen(st) })
	select {
	case got := <-read:
		if got != "store false, acknowledged false" {
			t.Errorf("a read while the change was being synced saw %s", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a read waited for a change being synced")
	}
	failCommits(s, nil)
	close(release)
	if err := <-written; err != nil {
		t.Fatal(err)
	}
	s.View(func(st *model.State) {
		if got := seen(st); got != "store true, acknowledged true" {
			t.Errorf("a read after the commit saw %s", got)
		}
	})
	if onDisk(t, s, path).OplogStores().Get("waiting") == nil {
		t.Error("the change is not on disk")
	}
}

// After a restart, a raised alert is still known by the target of the
// condition that raised it, though it does not show it.
func TestRaisedAlertsKeepTheirTargetAcrossARestart(t *testing.T) {
	f := fixture.Default()
	project := f.Projects[0]["id"].(string)
	f.AlertConfigs = append(f.AlertConfigs, rules.Doc{"id": "5f2a00000000000000000003", "groupId": project, "eventTypeName": "BACKUP_AGENT_DOWN", "enabled": true,
		"notifications": []any{map[string]any{"typeName": "ADMIN", "delayMin": int64(0)}}})
	s, path := openStoreWith(t, f)
	agent := func(host string, resolved bool) engine.Condition {
		return engine.Condition{Project: project, Event: "BACKUP_AGENT_DOWN", Target: alert.Target{HostnameAndPort: host}, Resolved: resolved}
	}
	var one, two *alert.Rec
	if _, err := s.Update(func(st *engine.Tx) {
		one = st.Apply(agent("agent1:8080", false), start)[0]
		two = st.Apply(agent("agent2:8080", false), start)[0]
	}); err != nil {
		t.Fatal(err)
	}
	again := restarted(t, s, path)
	var closed []*alert.Rec
	again.Update(func(st *engine.Tx) { closed = st.Apply(agent("agent2:8080", true), start) })
	if len(closed) != 1 || closed[0].Cur.ID != two.Cur.ID {
		t.Errorf("agent2 back closed %d alerts, want its own %s (agent1's is %s)", len(closed), two.Cur.ID, one.Cur.ID)
	}
}

// A reset whose commit failed leaves the data as it was, and a later
// change lands on that data, not on the reset's.
func TestAFailedResetLeavesTheDataAsItWas(t *testing.T) {
	s, path := openStore(t)
	if _, err := s.Update(func(st *engine.Tx) { st.CreateOplogStore(oplogStore("before", 1)) }); err != nil {
		t.Fatal(err)
	}
	failCommits(s, func(b *statelog.Batch) error {
		if b.ReplaceAll {
			return errUnwritable
		}
		return nil
	})
	if _, err := s.Update(func(st *engine.Tx) { st.ResetTo(s.Seed(), start) }); !errors.Is(err, errUnwritable) {
		t.Fatalf("a reset whose commit failed: %v", err)
	}
	s.View(func(st *model.State) {
		if st.OplogStores().Get("before") == nil {
			t.Error("a failed reset was applied in memory")
		}
	})
	if _, err := s.Update(func(st *engine.Tx) { st.CreateOplogStore(oplogStore("after", 1)) }); err != nil {
		t.Fatal(err)
	}
	disk := onDisk(t, s, path)
	if disk.OplogStores().Get("before") == nil || disk.OplogStores().Get("after") == nil {
		t.Errorf("the file does not hold the data from before the failed reset with the later change: %v", storeDocs(disk.OplogStores()))
	}
}

// A change whose commit failed is not applied: readers never see it, the
// clock it moved goes back, and the next commit writes only its own
// change, so the failed one never reaches the file.
func TestAChangeThatCouldNotBeCommittedIsNotApplied(t *testing.T) {
	s, path := openStore(t)
	var batches []*statelog.Batch
	failCommits(s, func(b *statelog.Batch) error { batches = append(batches, b); return errUnwritable })
	_, err := s.Update(func(st *engine.Tx) {
		st.CreateOplogStore(oplogStore("unwritten", 1))
		s.clock.Advance(time.Hour)
	})
	var cerr *CommitError
	if !errors.As(err, &cerr) || !errors.Is(err, errUnwritable) || cerr.Path != path {
		t.Fatalf("a change whose commit failed: %v", err)
	}
	s.View(func(st *model.State) {
		if st.OplogStores().Get("unwritten") != nil {
			t.Error("readers see a change whose commit failed")
		}
	})
	if !s.clock.Now().Equal(start) {
		t.Errorf("the clock stayed moved by a change that failed: %s", s.clock.Now())
	}
	failCommits(s, func(b *statelog.Batch) error { batches = append(batches, b); return nil })
	if _, err := s.Update(func(st *engine.Tx) { st.CreateOplogStore(oplogStore("next", 1)) }); err != nil {
		t.Fatal(err)
	}
	if last := batches[len(batches)-1]; last.ReplaceAll || len(last.Records) != 1 {
		t.Errorf("the commit after a failed one wrote %d records (whole: %v), want only its own change", len(last.Records), last.ReplaceAll)
	}
	disk := onDisk(t, s, path)
	if disk.OplogStores().Get("unwritten") != nil || disk.OplogStores().Get("next") == nil {
		t.Errorf("the file does not hold the data as memory does: %v", storeDocs(disk.OplogStores()))
	}
}

// restarted closes the state file of s and opens the store again over
// the state file at path, as a restarted server does.
func restarted(t *testing.T, s *Store, path string) *Store {
	t.Helper()
	return reopened(t, s, path, false)
}

// reopened is restarted with logIsSeed: true for a start without
// fixtures, which goes back to the state file's data on reset.
func reopened(t *testing.T, s *Store, path string, logIsSeed bool) *Store {
	t.Helper()
	s.log.(*statelog.Faulty).Close()
	file, err := statelog.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { file.Close() })
	again, err := Open(fixture.Default(), &statelog.Faulty{File: file}, VirtualClock(start), logIsSeed)
	if err != nil {
		t.Fatal(err)
	}
	return again
}

// When a commit fails and the state file cannot be read back to undo it,
// the writers' data may hold the change: no write is made on it until the
// file reads back, and then the change is gone, as it is from the file;
// readers are served the data as on disk throughout.
func TestAFailedChangeThatCannotBeUndoneIsServedToNobody(t *testing.T) {
	s, path := openStore(t)
	now := start
	s.readBack.now = func() time.Time { return now }
	if _, err := s.Update(func(st *engine.Tx) { st.CreateOplogStore(oplogStore("kept", 1)) }); err != nil {
		t.Fatal(err)
	}
	faulty := s.log.(*statelog.Faulty)
	faulty.FailCommits(func(*statelog.Batch) error { return errUnwritable })
	faulty.FailReads(errors.New("the state file cannot be read"))
	var cerr *CommitError
	if _, err := s.Update(func(st *engine.Tx) { st.CreateOplogStore(oplogStore("failed", 1)) }); !errors.As(err, &cerr) {
		t.Fatalf("the failed write: %v, want a CommitError", err)
	}
	var uerr *UnreadableError
	if err := s.View(func(st *model.State) {
		if st.OplogStores().Get("failed") != nil || st.OplogStores().Get("kept") == nil {
			t.Error("a read after it is not served the data as on disk")
		}
	}); err != nil {
		t.Fatalf("a read after it: %v, want the data as on disk", err)
	}
	ran := false
	if _, err := s.Update(func(*engine.Tx) { ran = true }); !errors.As(err, &uerr) || ran {
		t.Fatalf("a write after it: %v (ran: %t), want an UnreadableError and nothing run", err, ran)
	}

	faulty.FailReads(nil)
	faulty.FailCommits(nil)
	now = now.Add(maxReadBackWait) // the next read-back is due
	if _, err := s.Update(func(st *engine.Tx) {
		if st.OplogStores().Get("failed") != nil || st.OplogStores().Get("kept") == nil {
			t.Error("once the file reads back, the writers' data is not what the file holds")
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(func(st *engine.Tx) { st.CreateOplogStore(oplogStore("later", 1)) }); err != nil {
		t.Fatal(err)
	}
	assertStores(t, s, path, map[string]bool{"kept": true, "failed": false, "later": true})
}

// While the state file cannot be read back, a write does not read it
// again each time, under the lock: only once the pause after the last
// try is over, a pause that doubles up to a cap. Reads are served the
// data as on disk meanwhile.
func TestAnUnreadableStateFileIsReadBackAtAPace(t *testing.T) {
	s, _ := openStore(t)
	now := start
	s.readBack.now = func() time.Time { return now }
	faulty := s.log.(*statelog.Faulty)
	faulty.FailCommits(func(*statelog.Batch) error { return errUnwritable })
	faulty.FailReads(errors.New("the state file cannot be read"))
	if _, err := s.Update(func(st *engine.Tx) { st.CreateOplogStore(oplogStore("failed", 1)) }); err == nil {
		t.Fatal("the write whose commit failed was answered as applied")
	}
	faulty.FailCommits(nil)
	reads := faulty.Reads()
	requests := func() {
		t.Helper()
		var uerr *UnreadableError
		for range 20 {
			if err := s.View(func(st *model.State) {
				if st.OplogStores().Get("failed") != nil {
					t.Fatal("a read while the file is unreadable is served the failed write")
				}
			}); err != nil {
				t.Fatalf("a read while the file is unreadable: %v, want the data as on disk", err)
			}
			if _, err := s.Update(func(*engine.Tx) {}); !errors.As(err, &uerr) {
				t.Fatalf("a write while the file is unreadable: %v, want an UnreadableError", err)
			}
		}
	}
	waits := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond,
		1600 * time.Millisecond, 3200 * time.Millisecond, 5 * time.Second, 5 * time.Second}
	for _, wait := range waits {
		requests()
		now = now.Add(wait - time.Nanosecond)
		requests()
		if got := faulty.Reads(); got != reads {
			t.Fatalf("requests within %v of a failed read-back read the file %d times, want none", wait, got-reads)
		}
		now = now.Add(time.Nanosecond)
		requests()
		if got := faulty.Reads(); got != reads+1 {
			t.Fatalf("requests %v after a failed read-back read the file %d times, want once", wait, got-reads)
		}
		reads++
	}
	faulty.FailReads(nil)
	now = now.Add(maxReadBackWait)
	if _, err := s.Update(func(st *engine.Tx) {
		if st.OplogStores().Get("failed") != nil {
			t.Error("the write whose commit failed is in the data once the file reads back")
		}
	}); err != nil {
		t.Fatalf("a write once the file reads back: %v", err)
	}
	// Working again, a later failure starts from the first pause.
	faulty.FailCommits(func(*statelog.Batch) error { return errUnwritable })
	faulty.FailReads(errors.New("the state file cannot be read"))
	var cerr *CommitError
	if _, err := s.Update(func(st *engine.Tx) { st.CreateOplogStore(oplogStore("failed again", 1)) }); !errors.As(err, &cerr) {
		t.Fatalf("a write whose commit fails once the file read back: %v, want a CommitError", err)
	}
	faulty.FailCommits(nil)
	faulty.FailReads(nil)
	now = now.Add(firstReadBackWait)
	if _, err := s.Update(func(*engine.Tx) {}); err != nil {
		t.Fatalf("a write %v after a new failure, with the file readable: %v", firstReadBackWait, err)
	}
}

// storeDocs are the members of each store of a list, in order.
func storeDocs(o *model.Ordered[*model.S3Store]) []rules.Doc {
	var out []rules.Doc
	for _, r := range o.All() {
		out = append(out, r.Members())
	}
	return out
}
