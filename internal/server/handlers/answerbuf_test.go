package handlers

import (
	"testing"
)

// A buffer given back is found again by an answer of its size class, and
// never handed to an answer larger than it.
func TestAnswerBuffersAreKeptBySize(t *testing.T) {
	c := &Ctx{}
	for _, size := range []int{0, 1, 100, 4096, 4097, 700 << 10, 1 << 20, maxSpare, maxSpare + 1} {
		b := c.answerBuffer(size)
		if cap(b) < size || len(b) != 0 {
			t.Fatalf("answerBuffer(%d): len %d cap %d", size, len(b), cap(b))
		}
		c.spare = append(b, 'x')
		c.giveBackBuffer()
	}
	// A large buffer given back is not taken for a small answer, nor a
	// small one for a large answer.
	c.spare = make([]byte, 0, 1<<20)
	c.giveBackBuffer()
	if b := c.answerBuffer(1 << 20); cap(b) < 1<<20 {
		t.Errorf("a megabyte answer got a buffer of %d", cap(b))
	}
	if b := c.answerBuffer(10); cap(b) >= 1<<20 {
		t.Errorf("a 10-byte answer took a buffer of %d", cap(b))
	}
}
