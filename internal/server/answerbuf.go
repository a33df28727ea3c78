package server

import "sync"

// answerBuffers keeps the buffers of list answers once sent, for the next
// ones: a page of 500 alerts is about 250 KB, and a new one for each page
// made the collector run every thousand pages or so among a million
// alerts, each run a large share of a second of CPU (docs/performance.md).
var answerBuffers sync.Pool // of *[]byte

// maxSpare bounds the buffers kept for reuse: a rare huge answer is left
// to the collector rather than held.
const maxSpare = 4 << 20

// answerBuffer is an empty buffer of at least size bytes for the answer,
// reused when one is spare; flush gives it back.
func (c *reqCtx) answerBuffer(size int) []byte {
	if kept, _ := answerBuffers.Get().(*[]byte); kept != nil {
		if cap(*kept) >= size {
			return (*kept)[:0]
		}
		answerBuffers.Put(kept)
	}
	return make([]byte, 0, size)
}

// giveBackBuffer keeps the buffer the answer was built in for another,
// once the answer is written: an http.ResponseWriter keeps nothing of what
// it is given.
func (c *reqCtx) giveBackBuffer() {
	if spare := c.spare; cap(spare) > 0 && cap(spare) <= maxSpare {
		c.spare, c.out = nil, nil
		spare = spare[:0]
		answerBuffers.Put(&spare)
	}
}
