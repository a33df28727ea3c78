package server

// page is the paging of a list request.
type page struct {
	num, size int
}

// maxOffset is past the end of any list the server can hold; offsets
// saturate there, so a huge pageNum is an empty page, never an overflow.
const maxOffset = 1 << 40

func (p page) offset() int {
	if p.num-1 > maxOffset/p.size {
		return maxOffset
	}
	return (p.num - 1) * p.size
}
