package client

import (
	"bytes"
	"context"
	"fmt"
	"io"
)

// MaxBodyBytes is the most omctl reads of one response body: 64 MiB. A list
// page of 500 items is well under 1 MiB, so only a broken or hostile server
// reaches it. Lists are read a page at a time, so --all holds at most the
// pages in flight, never this limit times the number of pages.
var MaxBodyBytes int64 = 64 << 20

// BodyTooLargeError is an answer longer than the most omctl reads of it.
type BodyTooLargeError struct{ Limit int64 }

func (e *BodyTooLargeError) Error() string {
	return "the answer is larger than " + byteCount(e.Limit) + ", the most omctl reads of one response"
}

// byteCount writes a size in MiB when it is a whole number of them.
func byteCount(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// bodyLimitKey carries, in a request's context, the most of its answer
// to read when that is less than MaxBodyBytes (a page's share of the
// pages in flight, paginate.go).
type bodyLimitKey struct{}

func withBodyLimit(ctx context.Context, limit int64) context.Context {
	return context.WithValue(ctx, bodyLimitKey{}, limit)
}

// bodyLimit is the most of an answer to read for a request of ctx.
func bodyLimit(ctx context.Context) int64 {
	if limit, ok := ctx.Value(bodyLimitKey{}).(int64); ok && limit < MaxBodyBytes {
		return limit
	}
	return MaxBodyBytes
}

// readBody reads a whole body, refusing one longer than limit rather than
// growing without bound. size is the announced length, or -1: a body
// announced longer than limit is refused unread, one announced within it
// is read into one buffer of its size, and one of unknown size in chunks
// (readChunks), so that an answer over the limit costs no more than the
// limit before it is refused.
func readBody(r io.Reader, size, limit int64) ([]byte, error) {
	if size > limit {
		return nil, &BodyTooLargeError{Limit: limit}
	}
	if size >= 0 {
		buf := make([]byte, size)
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, err
		}
		return buf, nil
	}
	return readChunks(r, limit)
}

// readChunks reads a body of unknown length in chunks that double from
// 64 KiB up to 8 MiB, so that what it holds grows with what came, and
// joins them at the end. Growing one buffer by doubling, as bytes.Buffer
// does, held 275 MiB for an answer refused at 64 MiB: the last buffer of
// twice the limit and the garbage of those before.
func readChunks(r io.Reader, limit int64) ([]byte, error) {
	var chunks [][]byte
	var total int64
	size := int64(64 << 10)
	for {
		chunk := make([]byte, min(size, limit+1-total))
		n, err := io.ReadFull(r, chunk)
		total += int64(n)
		chunks = append(chunks, chunk[:n])
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if total > limit {
			return nil, &BodyTooLargeError{Limit: limit}
		}
		size = min(2*size, 8<<20)
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	return bytes.Join(chunks, nil), nil
}
