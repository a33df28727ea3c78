package store

// Ordered is a list of documents kept in insertion order with an index.
type Ordered struct {
	Items []doc
	byID  map[string]int
}

func NewOrdered() *Ordered { return &Ordered{byID: map[string]int{}} }

func (o *Ordered) add(id string, d doc) {
	if i, ok := o.byID[id]; ok {
		o.Items[i] = d
		return
	}
	o.byID[id] = len(o.Items)
	o.Items = append(o.Items, d)
}

// remove takes the document with id out of the list, keeping the order
// of the others.
func (o *Ordered) remove(id string) bool {
	i, ok := o.byID[id]
	if !ok {
		return false
	}
	o.Items = append(o.Items[:i], o.Items[i+1:]...)
	delete(o.byID, id)
	for j := i; j < len(o.Items); j++ {
		o.byID[o.Items[j]["id"].(string)] = j
	}
	return true
}

func (o *Ordered) Get(id string) doc {
	if i, ok := o.byID[id]; ok {
		return o.Items[i]
	}
	return nil
}

func (o *Ordered) Page(p Page) ([]doc, int) {
	start := min(p.Offset(), len(o.Items))
	end := min(start+p.Size, len(o.Items))
	return o.Items[start:end], len(o.Items)
}
