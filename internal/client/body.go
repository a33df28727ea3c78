package client

import (
	"bytes"
	"fmt"
	"io"
)

// MaxBodyBytes is the most omctl reads of one response body: 64 MiB. A list
// page of 500 items is well under 1 MiB, so only a broken or hostile server
// reaches it. Lists are read a page at a time, so --all holds at most the
// pages in flight, never this limit times the number of pages.
var MaxBodyBytes int64 = 64 << 20

// BodyTooLargeError is an answer longer than MaxBodyBytes.
type BodyTooLargeError struct{ Limit int64 }

func (e *BodyTooLargeError) Error() string {
	size := fmt.Sprintf("%d bytes", e.Limit)
	if e.Limit%(1<<20) == 0 {
		size = fmt.Sprintf("%d MiB", e.Limit>>20)
	}
	return "the answer is larger than " + size + ", the most omctl reads of one response"
}

// readBody reads a whole body, refusing one longer than MaxBodyBytes
// rather than growing without bound. size is the announced length, or -1.
func readBody(r io.Reader, size int64) ([]byte, error) {
	limit := MaxBodyBytes
	var buf bytes.Buffer
	if size > 0 && size <= limit {
		buf.Grow(int(size) + bytes.MinRead) // one allocation, no regrowth
	}
	n, err := buf.ReadFrom(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if n > limit {
		return nil, &BodyTooLargeError{Limit: limit}
	}
	return buf.Bytes(), nil
}
