package api

import (
	"testing"
)

func TestNewObjectIDsAreObjectIDsAndNeverRepeat(t *testing.T) {
	seen := map[string]bool{}
	for range 200_000 {
		id := NewObjectID()
		if !IsObjectID(id) || seen[id] {
			t.Fatalf("id %q (seen before: %v)", id, seen[id])
		}
		seen[id] = true
	}
}
