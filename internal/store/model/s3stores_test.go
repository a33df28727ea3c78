package model

import (
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/demo"
	"github.com/omctl/omctl/internal/store/fixture"
)

func TestSnapshotStoresTakeTheirDefaults(t *testing.T) {
	st := NewState(demo.Fixtures(start), start)
	got, err := st.CreateSnapshotStore(doc{"id": "new", "loadFactor": nil})
	if err != nil {
		t.Fatal(err)
	}
	if got.raw()["loadFactor"] != int64(rules.DefaultLoadFactor) || got.raw()["s3MaxConnections"] != int64(rules.DefaultS3MaxConnections) {
		t.Errorf("defaults: %v", got.Members())
	}
	if _, err := st.CreateSnapshotStore(doc{"id": "new"}); brokenRule(err).Code != "DUPLICATE_STORE_ID" {
		t.Errorf("a taken id: %+v", err)
	}
}

func TestBadStoresAreRefused(t *testing.T) {
	refusedFixtures(t, map[string]string{
		fixturesWith(`"oplogStores": [{"s3BucketName": "b"}]`):         "oplogStores[0]: id is required: it is the store's name",
		fixturesWith(`"snapshotStores": [{"id": "s1"}, {"id": "s1"}]`): "snapshotStores[1]: id s1 appears twice",
		// A state file keeps a store under its id, which a path names.
		fixturesWith(`"oplogStores": [{"id": "` + strings.Repeat("x", 40000) + `"}]`):              "oplogStores[0]: Invalid attribute id specified: a store id is at most 256 characters long; this one has 40000",
		fixturesWith(`"snapshotStores": [{"id": ".."}]`):                                           `snapshotStores[0]: Invalid attribute id specified: ".." cannot name a store`,
		fixturesWith(`"users": [{"username": "` + strings.Repeat("u", 257) + `", "apiKey": "k"}]`): "users[0]: username is 257 characters long; a user name is at most 256",
	})
}

// Oplog and snapshot stores are two lists: one id may name one of each.
func TestAnOplogAndASnapshotStoreMayShareAName(t *testing.T) {
	f, err := fixture.ParseFixtures("f.json", []byte(fixturesWith(`"oplogStores": [{"id": "s1"}]`, `"snapshotStores": [{"id": "s1"}]`)))
	if err != nil {
		t.Fatal(err)
	}
	s := NewState(f, start)
	if s.OplogStores().Get("s1") == nil || s.SnapshotStores().Get("s1") == nil {
		t.Error("a store is missing")
	}
}
