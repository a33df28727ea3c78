package store

import (
	"testing"

	"github.com/omctl/omctl/internal/rules"
)

func TestSnapshotStoresTakeTheirDefaults(t *testing.T) {
	st := newState(DemoFixtures(start), start)
	got, err := st.CreateSnapshotStore(doc{"id": "new", "loadFactor": nil})
	if err != nil {
		t.Fatal(err)
	}
	if got.raw()["loadFactor"] != int64(rules.DefaultLoadFactor) || got.raw()["s3MaxConnections"] != int64(rules.DefaultS3MaxConnections) {
		t.Errorf("defaults: %v", got.Members())
	}
	if _, err := st.CreateSnapshotStore(doc{"id": "new"}); err == nil || err.Code != "DUPLICATE_STORE_ID" {
		t.Errorf("a taken id: %+v", err)
	}
}

func TestBadStoresAreRefused(t *testing.T) {
	refusedFixtures(t, map[string]string{
		fixturesWith(`"oplogStores": [{"s3BucketName": "b"}]`):         "oplogStores[0]: id is required: it is the store's name",
		fixturesWith(`"snapshotStores": [{"id": "s1"}, {"id": "s1"}]`): "snapshotStores[1]: id s1 appears twice",
	})
}

// Oplog and snapshot stores are two lists: one id may name one of each.
func TestAnOplogAndASnapshotStoreMayShareAName(t *testing.T) {
	f, err := ParseFixtures("f.json", []byte(fixturesWith(`"oplogStores": [{"id": "s1"}]`, `"snapshotStores": [{"id": "s1"}]`)))
	if err != nil {
		t.Fatal(err)
	}
	s := newState(f, start)
	if s.OplogStores().Get("s1") == nil || s.SnapshotStores().Get("s1") == nil {
		t.Error("a store is missing")
	}
}
