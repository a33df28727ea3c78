package store

import "slices"

// Ordered is a list of documents kept in insertion order with an index.
type Ordered struct {
	items []doc
	byID  map[string]int
}

func NewOrdered() *Ordered { return &Ordered{byID: map[string]int{}} }

func (o *Ordered) add(id string, d doc) {
	if i, ok := o.byID[id]; ok {
		o.items[i] = d
		return
	}
	o.byID[id] = len(o.items)
	o.items = append(o.items, d)
}

// remove takes the document with id out of the list, keeping the order
// of the others.
func (o *Ordered) remove(id string) bool {
	i, ok := o.byID[id]
	if !ok {
		return false
	}
	o.items = append(o.items[:i], o.items[i+1:]...)
	delete(o.byID, id)
	for j := i; j < len(o.items); j++ {
		o.byID[o.items[j]["id"].(string)] = j
	}
	return true
}

func (o *Ordered) Get(id string) doc {
	if i, ok := o.byID[id]; ok {
		return o.items[i]
	}
	return nil
}

func (o *Ordered) Page(p Page) ([]doc, int) {
	start := min(p.Offset(), len(o.items))
	end := min(start+p.Size, len(o.items))
	// Clipped, so that appending to a page cannot write into the list.
	return slices.Clip(o.items[start:end]), len(o.items)
}
