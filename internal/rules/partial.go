package rules

// Partial is a copy of s with nothing required: a document that changes
// some fields of a resource leaves the others as the server has them. A
// value Refuse settles (acceptedTos false) is still refused.
func (s Schema) Partial() Schema {
	out := make(Schema, len(s))
	for k, f := range s {
		c := *f
		c.required = false
		out[k] = &c
	}
	return out
}
