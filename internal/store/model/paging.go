package model

// Page is the paging of a list request.
type Page struct {
	Num, Size int
}

// maxOffset is past the end of any list the server can hold; offsets
// saturate there, so a huge pageNum is an empty page, never an overflow.
const maxOffset = 1 << 40

// Offset is where the page starts. A page of no items starts at 0: an
// empty list asked for whole (Size 0) is as valid as any other.
func (p Page) Offset() int {
	if p.Size <= 0 || p.Num <= 1 {
		return 0
	}
	if p.Num-1 > maxOffset/p.Size {
		return maxOffset
	}
	return (p.Num - 1) * p.Size
}
