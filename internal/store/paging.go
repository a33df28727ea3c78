package store

// Page is the paging of a list request.
type Page struct {
	Num, Size int
}

// maxOffset is past the end of any list the server can hold; offsets
// saturate there, so a huge pageNum is an empty page, never an overflow.
const maxOffset = 1 << 40

func (p Page) Offset() int {
	if p.Num-1 > maxOffset/p.Size {
		return maxOffset
	}
	return (p.Num - 1) * p.Size
}
