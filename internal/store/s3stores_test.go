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
