package server

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/store/statelog"
)

// A store's id is bounded, and names one segment of a path: an id of
// 100,000 characters, and ., .., ../x, a/b, are refused with 400 naming
// the rule, the same in memory as with a state file, and none reaches a
// commit, nor so a rebuild of the data from the file. The longest id
// allowed, in characters of several bytes, is created in both.
func TestStoreIDsAStateFileCannotHoldOrAPathCannotNameAreRefused(t *testing.T) {
	plain := newEnv(t)
	durable, log := newFaultyEnv(t, fixtureJSON)
	var mu sync.Mutex
	var committed []string
	log.FailCommits(func(b *statelog.Batch) error {
		mu.Lock()
		defer mu.Unlock()
		for _, r := range b.Records {
			committed = append(committed, fmt.Sprintf("%s %.20s", r.Kind, r.Key))
		}
		return nil
	})
	reads := log.Reads()
	refused := map[string]string{
		strings.Repeat("x", 100000): fmt.Sprintf("at most %d characters long; this one has 100000", api.MaxNameLength),
		".":                         "one segment of a path", "..": "one segment of a path", "../x": "one segment of a path",
		"a/b": "one segment of a path", "/": "one segment of a path",
	}
	longest := strings.Repeat("é", api.MaxNameLength)
	for _, kind := range []string{"oplog", "snapshot"} {
		path := "/admin/backup/" + kind + "/s3Configs"
		for where, e := range map[string]*env{"in memory": plain, "with a state file": durable} {
			for id, rule := range refused {
				got := e.do("owner", "POST", path, oplogBody(map[string]any{"id": id}))
				e.expect(got, 400, "INVALID_ATTRIBUTE")
				if detail := got.str("detail"); !strings.Contains(detail, rule) || len(detail) > 1000 {
					t.Errorf("%s, %s store %.20q: detail %.300q does not say %q", where, kind, id, detail, rule)
				}
			}
			e.expect(e.do("owner", "POST", path, oplogBody(map[string]any{"id": longest})), 200, "")
			e.expect(e.do("owner", "GET", path+"/"+longest, nil), 200, "")
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{fmt.Sprintf("oplogStores %.20s", longest), fmt.Sprintf("snapshotStores %.20s", longest)}; fmt.Sprint(committed) != fmt.Sprint(want) {
		t.Errorf("committed %q, want only the stores of the longest id, %q", committed, want)
	}
	if log.Reads() != reads {
		t.Error("a refused store had the data rebuilt from the state file")
	}
}

// A store refused for its id is refused before the data lock is taken:
// while another write's commit waits for the disk, it is answered.
func TestAStoreIDIsRefusedBeforeTheDataLock(t *testing.T) {
	e, finish := aWriteHeldAtItsSync(t)
	refused := make(chan response, 1)
	go func() {
		refused <- e.do("owner", "POST", "/admin/backup/oplog/s3Configs", oplogBody(map[string]any{"id": strings.Repeat("x", 100000)}))
	}()
	select {
	case got := <-refused:
		e.expect(got, 400, "INVALID_ATTRIBUTE")
	case <-time.After(10 * time.Second):
		t.Error("a store with a refused id waited for the data lock")
	}
	e.expect(finish(), 200, "")
}
