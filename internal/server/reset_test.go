package server

import (
	"errors"
	"testing"

	"github.com/omctl/omctl/internal/store/statelog"
)

// A reset forgets the journal with the data, and only once the data's
// reset is on disk: a reset that cannot be saved is answered 500 and
// leaves the journal as it was, with the data (docs/server.md, State).
func TestAResetThatCannotBeSavedForgetsNothing(t *testing.T) {
	e, log := newFaultyEnv(t, fixtureJSON)
	e.expect(e.do("owner", "POST", "/admin/backup/oplog/s3Configs", oplogBody(nil)), 200, "")
	for range 5 {
		e.expect(e.do("owner", "GET", "/admin/backup/oplog/s3Configs/oplog2", nil), 200, "")
	}
	journaled := func() int {
		n, _ := e.doRaw("owner", "GET", "/_omctl/requests", "").get("totalCount").(float64)
		return int(n)
	}
	before := journaled()
	if before < 6 {
		t.Fatalf("the journal holds %d requests before the reset, want the 6 made", before)
	}

	log.FailCommits(func(*statelog.Batch) error { return errors.New("disk full") })
	e.expect(e.doRaw("owner", "POST", "/_omctl/reset", ""), 500, "UNEXPECTED_ERROR")
	log.FailCommits(nil)
	if got := e.do("owner", "GET", "/admin/backup/oplog/s3Configs/oplog2", nil); got.status != 200 {
		t.Errorf("the store made before a failed reset: %d", got.status)
	}
	if after := journaled(); after <= before {
		t.Errorf("the journal after a failed reset holds %d requests, before it %d", after, before)
	}

	e.expect(e.doRaw("owner", "POST", "/_omctl/reset", ""), 200, "")
	e.expect(e.do("owner", "GET", "/admin/backup/oplog/s3Configs/oplog2", nil), 404, "RESOURCE_NOT_FOUND")
	if after := journaled(); after > 1 {
		t.Errorf("the journal after a reset holds %d requests", after)
	}
}
