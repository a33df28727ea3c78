package model

import (
	"maps"
	"slices"
)

// Ordered is a list of records kept in insertion order with an index.
type Ordered[R storedRecord] struct {
	items []R
	byID  map[string]int
}

func newOrdered[R storedRecord]() *Ordered[R] { return &Ordered[R]{byID: map[string]int{}} }

// put adds r, or puts it in place of the record with its key.
func (o *Ordered[R]) put(r R) {
	if i, ok := o.byID[r.key()]; ok {
		o.items[i] = r
		return
	}
	o.byID[r.key()] = len(o.items)
	o.items = append(o.items, r)
}

// remove takes the record with key id out of the list, keeping the order
// of the others.
func (o *Ordered[R]) remove(id string) bool {
	i, ok := o.byID[id]
	if !ok {
		return false
	}
	o.items = append(o.items[:i], o.items[i+1:]...)
	delete(o.byID, id)
	for j := i; j < len(o.items); j++ {
		o.byID[o.items[j].key()] = j
	}
	return true
}

// Get is the record with key id, the zero R (nil) when there is none.
func (o *Ordered[R]) Get(id string) R {
	if o != nil {
		if i, ok := o.byID[id]; ok {
			return o.items[i]
		}
	}
	var none R
	return none
}

// Page is one page of the records, and how many there are in all.
func (o *Ordered[R]) Page(p Page) ([]R, int) {
	if o == nil {
		return nil, 0
	}
	start := min(p.Offset(), len(o.items))
	end := min(start+p.Size, len(o.items))
	// Clipped, so that appending to a page cannot write into the list.
	return slices.Clip(o.items[start:end]), len(o.items)
}

// Len is how many records the list holds.
func (o *Ordered[R]) Len() int {
	if o == nil {
		return 0
	}
	return len(o.items)
}

// All is every record, in order; the caller must not change the slice.
func (o *Ordered[R]) All() []R {
	if o == nil {
		return nil
	}
	return o.items
}

// raws are the members of every record, in order.
func raws[R storedRecord](items []R) []doc {
	if len(items) == 0 {
		return nil
	}
	out := make([]doc, len(items))
	for i, r := range items {
		out[i] = r.raw()
	}
	return out
}

func orEmpty[R storedRecord](o *Ordered[R]) *Ordered[R] {
	if o == nil {
		return newOrdered[R]()
	}
	return o
}

// clone is a list of its own holding the same records.
func (o *Ordered[R]) clone() *Ordered[R] {
	if o == nil {
		return nil
	}
	return &Ordered[R]{items: slices.Clone(o.items), byID: maps.Clone(o.byID)}
}

// cloneLists clones each list of lists.
func cloneLists[R storedRecord](lists map[string]*Ordered[R]) map[string]*Ordered[R] {
	out := make(map[string]*Ordered[R], len(lists))
	for k, o := range lists {
		out[k] = o.clone()
	}
	return out
}
