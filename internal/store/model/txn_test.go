package model

import (
	"fmt"
	"net/netip"
	"slices"
	"testing"

	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/demo"
)

// A write's changes are each record once, where it first changed, as the
// write last left it; a batch's, likewise across its writes, while each
// write keeps its own.
func TestChangesKeepFirstOrderAndLastState(t *testing.T) {
	for _, many := range []int{0, 40} { // looked through, then found by a map
		c := &Changes{}
		c.begin()
		c.put("alerts", "a", 1)
		c.put("alertConfigs", "c", 1)
		for i := range many {
			c.put("snapshots", fmt.Sprint(i), i)
		}
		c.put("alerts", "a", 2)
		c.put("alerts", "b", 1)
		first := c.write()
		want := []Change{{Kind: "alerts", Key: "a", Rec: 2}, {Kind: "alertConfigs", Key: "c", Rec: 1}}
		if got := first[:2]; !slices.Equal(got, want) || len(first) != 3+many || first[len(first)-1] != (Change{Kind: "alerts", Key: "b", Rec: 1}) {
			t.Fatalf("%d more: the write's changes are %v", many, first)
		}
		c.begin()
		c.put("alerts", "b", 2)
		c.put("alerts", "a", nil)
		c.put("alerts", "a", 3)
		if got := c.write(); !slices.Equal(got, []Change{{Kind: "alerts", Key: "b", Rec: 2}, {Kind: "alerts", Key: "a", Rec: 3}}) {
			t.Fatalf("%d more: the second write's changes are %v", many, got)
		}
		recs, all := c.take()
		if all || len(recs) != 3+many || recs[0] != (Change{Kind: "alerts", Key: "a", Rec: 3}) || recs[len(recs)-1] != (Change{Kind: "alerts", Key: "b", Rec: 2}) {
			t.Fatalf("%d more: the batch's changes are %v (all %v)", many, recs, all)
		}
		if first[0] != (Change{Kind: "alerts", Key: "a", Rec: 2}) {
			t.Errorf("%d more: the first write's changes became %v", many, first[0])
		}
		if recs, _ := c.take(); len(recs) != 0 {
			t.Errorf("%d more: taken twice: %v", many, recs)
		}
	}
}

// A key's change is seen by sign-in; a use of its access list is not (each
// request of a listed key makes one).
func TestKeyUseLeavesSignInsAlone(t *testing.T) {
	st := NewState(demo.Fixtures(start), start)
	k := st.apiKeys[st.keyOrder[0]]
	m := map[string]any{"ipAddress": "192.0.2.7"}
	canon, _ := rules.AccessListEntry(m)
	st.AddAccessEntries(k, []string{canon}, []any{m}, start)
	if !st.ch.takeSignIns() {
		t.Fatal("adding to an access list did not change sign-ins")
	}
	st.ch.take()
	if !st.UseAccessList(k, netip.MustParseAddr("192.0.2.7"), start) {
		t.Fatal("the listed address was refused")
	}
	recs, _ := st.ch.take()
	if st.ch.takeSignIns() || len(recs) != 1 || recs[0].Kind != "apiKeys" || recs[0].Rec != k {
		t.Fatalf("a use of the access list recorded %v, sign-ins changed", recs)
	}
	if st.UseAccessList(k, netip.MustParseAddr("198.51.100.1"), start) {
		t.Fatal("an address off the list was let in")
	}
	if recs, _ := st.ch.take(); len(recs) != 0 {
		t.Errorf("a refused use recorded %v", recs)
	}
}
