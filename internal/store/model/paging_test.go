package model

import "testing"

// Issue 31, Wrong 1: a page of no items starts at the beginning.
func TestAPageOfNoItemsStartsAtTheBeginning(t *testing.T) {
	for _, p := range []Page{{1, 0}, {3, 0}, {0, 100}} {
		if got := p.Offset(); got != 0 {
			t.Errorf("Page%+v.Offset() = %d, want 0", p, got)
		}
	}
	if got := (Page{3, 100}).Offset(); got != 200 {
		t.Errorf("page 3 of 100: %d", got)
	}
	empty := newOrdered[*S3Store]()
	if items, total := empty.Page(Page{Num: 1, Size: empty.Len()}); len(items) != 0 || total != 0 {
		t.Errorf("an empty list whole: %v, %d", items, total)
	}
}
