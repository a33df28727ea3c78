package httpx

import (
	"io"

	"github.com/omctl/omctl/internal/api"
)

// bodyRoom is the capacity for a buffer that holds n bytes of a body and
// needs more: what the body's Content-Length (claimed; -1 when unknown)
// says, and a byte to see its end, so that it is read without copies of
// copies; but at most eight times what has come (16 KiB at first), so
// that a client is held memory for what it sends, not for what it says.
func bodyRoom(n int, claimed int64) int {
	room := max(8*n, 16<<10)
	if claimed > int64(n) {
		room = int(min(int64(room), claimed+1))
	}
	return room
}

// GrowBody is b with room for more bytes, made as bodyRoom says.
func GrowBody(b []byte, more int, claimed int64) []byte {
	if cap(b)-len(b) >= more {
		return b
	}
	grown := make([]byte, len(b), max(bodyRoom(len(b), claimed), len(b)+more))
	copy(grown, b)
	return grown
}

// ReadBody reads all of r, a body whose Content-Length is claimed.
func ReadBody(r io.Reader, claimed int64) ([]byte, error) {
	var b []byte
	for {
		b = GrowBody(b, 1, claimed)
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// MaxDrain is as much of a body nobody read as the journal reads before
// the answer: what net/http itself reads and discards at that point.
const MaxDrain = 256 << 10

// MaxHeaderBytes bounds a request's header: the server's and the
// connection cap's reading of a refused connection's request.
const MaxHeaderBytes = 64 << 10

// WriteTimeout is how long the server gives itself to write an answer; it
// bounds a fault's delay too (api.MaxFaultDelay): beyond it no answer
// could be sent.
const WriteTimeout = api.MaxFaultDelay
