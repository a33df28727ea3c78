package server

// ordered is a list of documents kept in insertion order with an index.
type ordered struct {
	items []doc
	byID  map[string]int
}

func newOrdered() *ordered { return &ordered{byID: map[string]int{}} }

func (o *ordered) add(id string, d doc) {
	if i, ok := o.byID[id]; ok {
		o.items[i] = d
		return
	}
	o.byID[id] = len(o.items)
	o.items = append(o.items, d)
}

// remove takes the document with id out of the list, keeping the order
// of the others.
func (o *ordered) remove(id string) bool {
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

func (o *ordered) get(id string) doc {
	if i, ok := o.byID[id]; ok {
		return o.items[i]
	}
	return nil
}

func (o *ordered) page(p page) ([]doc, int) {
	start := min(p.offset(), len(o.items))
	end := min(start+p.size, len(o.items))
	return o.items[start:end], len(o.items)
}
