package handlers

import (
	"math/bits"
	"sync"
)

// answerBuffers keeps the buffers of list answers once sent, for the next
// ones: a page of 500 alerts is about 250 KB, and a new one for each page
// made the collector run every thousand pages or so among a million
// alerts, each run a large share of a second of CPU (docs/performance.md).
// Buffers are kept by size, a pool for each power of two: with one pool, a
// list of large stores (a megabyte) mostly found a page's buffer too
// small and made a new one, which under load let the heap swing by
// hundreds of megabytes.
var answerBuffers [bits.UintSize]sync.Pool // of *[]byte, by bits.Len of their capacity

// maxSpare bounds the buffers kept for reuse: a rare huge answer is left
// to the collector rather than held.
const maxSpare = 4 << 20

// answerBuffer is an empty buffer of at least size bytes for the answer,
// reused when one is spare; flush gives it back.
func (c *Ctx) answerBuffer(size int) []byte {
	class := bits.Len(uint(max(size, 1) - 1)) // capacity 1<<class holds size
	if size <= maxSpare {
		if kept, _ := answerBuffers[class].Get().(*[]byte); kept != nil {
			return (*kept)[:0]
		}
		return make([]byte, 0, 1<<class)
	}
	return make([]byte, 0, size)
}

// giveBackBuffer keeps the buffer the answer was built in for another,
// once the answer is written: an http.ResponseWriter keeps nothing of what
// it is given.
func (c *Ctx) giveBackBuffer() {
	if spare := c.spare; cap(spare) > 0 && cap(spare) <= maxSpare {
		c.spare, c.Out = nil, nil
		spare = spare[:0]
		// In the class whose every buffer holds 1<<class bytes: a capacity
		// grown past a power of two goes to the class below.
		answerBuffers[bits.Len(uint(cap(spare)))-1].Put(&spare)
	}
}
