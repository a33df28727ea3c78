package model

import (
	"bytes"
	"cmp"
	"encoding/json"
	"io"
	"sync/atomic"

	"github.com/omctl/omctl/internal/jsonlex"
	"github.com/omctl/omctl/internal/store/alert"
)

// splitFixtures reads fixture data on the fast path: it reads the file
// once, in blocks it reuses, finds where each item of an array ends by
// its brackets and quotes alone, and gives each alert, a slice of its
// block, to the parser's workers, which check its grammar as they read
// it (alertWire.scan, else the schema). The other items, a few, are
// decoded where they are. Anything out of the ordinary (a key written
// with an escape, an item that is not an object, an alert the workers
// refuse, bytes that are not JSON, a read that fails) ends it with false,
// and the caller reads the data again with the decoder (decodeFixtures),
// which says what is wrong, where: every message is the decoder's.
//
// What it takes, it takes as the decoder does: an item is a value that
// parses whole (a JSON value ends where its brackets close), and between
// items and keys there is only JSON's space and punctuation
// (FuzzSplitFixturesAgreesWithTheDecoder).
func splitFixtures(r io.Reader, blockSize int) (*Fixtures, bool) {
	s := &fixtureSplitter{r: r, blockSize: blockSize}
	f, ok := s.fixtures()
	if s.blk != nil {
		s.blk.Release()
	}
	return f, ok && s.err == nil
}

// readBlockSize is the size of the blocks a fixture is read in (tests
// read in smaller ones); an item larger than a block is read into a
// larger one.
const readBlockSize = 1 << 20

// readBlock is a block of a fixture file (or of a state file's records),
// shared by its reader and the jobs of alerts that point into it; the
// last to let go of it gives it back to its pool to be read into again.
type readBlock struct {
	b    []byte
	refs atomic.Int32
	pool blockPool
}

// Hold counts one more job reading from the block.
func (b *readBlock) Hold() { b.refs.Add(1) }

// Release lets go of the block; the last to let go gives it back.
func (b *readBlock) Release() {
	if b.refs.Add(-1) == 0 {
		select {
		case b.pool <- b:
		default:
		}
	}
}

// blockPool keeps a few blocks let go of, for a reader to take again.
type blockPool chan *readBlock

func newBlockPool() blockPool { return make(blockPool, 8) }

// take is a block of at least size bytes, given back or new, held by the
// caller.
func (p blockPool) take(size int) *readBlock {
	var blk *readBlock
	select {
	case blk = <-p:
	default:
	}
	if blk == nil || len(blk.b) < size {
		blk = &readBlock{b: make([]byte, size), pool: p}
	}
	blk.refs.Store(1)
	return blk
}

// blockCopies copies bytes into blocks for the parser's jobs to point
// into, for a reader whose bytes are its own only while it is called (a
// state file's records): a copy of each record was an object of its own
// for the collector, a million at a restart.
type blockCopies struct {
	blk  *readBlock
	used int
	pool blockPool
}

// copy copies v into the current block, or a new one when it has no room
// left; c.blk is then the block it is in.
func (c *blockCopies) copy(v []byte) []byte {
	if c.blk == nil || len(c.blk.b)-c.used < len(v) {
		if c.pool == nil {
			c.pool = newBlockPool()
		}
		c.close()
		c.blk, c.used = c.pool.take(max(readBlockSize, len(v))), 0
	}
	kept := c.blk.b[c.used : c.used+len(v) : c.used+len(v)]
	copy(kept, v)
	c.used += len(v)
	return kept
}

// close lets go of the current block.
func (c *blockCopies) close() {
	if c.blk != nil {
		c.blk.Release()
		c.blk = nil
	}
}

// fixtureSplitter walks fixture data: blk.b[pos:end] is what is read and
// not yet taken.
type fixtureSplitter struct {
	r         io.Reader
	blockSize int
	blk       *readBlock
	pos, end  int
	eof       bool
	err       error
	pool      blockPool
}

func (s *fixtureSplitter) fixtures() (*Fixtures, bool) {
	if !s.eat('{') {
		return nil, false
	}
	f := &Fixtures{}
	lists := f.lists()
	alertLists := map[string]*[]*alert.Doc{"alerts": &f.Alerts, "globalAlerts": &f.GlobalAlerts}
	if s.eat('}') {
		return f, s.atEnd()
	}
	for {
		key, ok := s.key()
		if !ok || !s.eat('[') {
			return nil, false
		}
		if dst, isAlert := alertLists[key]; isAlert {
			alerts, ok := s.alerts()
			if !ok {
				return nil, false
			}
			*dst = append(*dst, alerts...)
		} else if dst, isDoc := lists[key]; !isDoc || !s.docs(dst) {
			return nil, false
		}
		if s.eat('}') {
			return f, s.atEnd()
		}
		if !s.eat(',') {
			return nil, false
		}
	}
}

// key reads a member name written without escapes, and its colon.
func (s *fixtureSplitter) key() (string, bool) {
	v, ok := s.value()
	if !ok || len(v) < 2 || v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 || !s.eat(':') {
		return "", false
	}
	return string(v[1 : len(v)-1]), true
}

// items reads the items of an array, its '[' taken, giving each to item.
func (s *fixtureSplitter) items(item func([]byte) bool) bool {
	if s.eat(']') {
		return true
	}
	for {
		v, ok := s.value()
		if !ok || v[0] != '{' || !item(v) {
			return false
		}
		if s.eat(']') {
			return true
		}
		if !s.eat(',') {
			return false
		}
	}
}

// alerts reads an array of alerts, parsed by the parser's workers.
func (s *fixtureSplitter) alerts() ([]*alert.Doc, bool) {
	p := alert.NewParser()
	ok := s.items(func(raw []byte) bool {
		p.AddFrom(raw, s.blk)
		return true
	})
	alerts, err := p.Finish() // even when !ok: it stops the workers
	return alerts, ok && err == nil
}

// docs reads an array of other items, each an object the decoder reads
// whole.
func (s *fixtureSplitter) docs(dst *[]doc) bool {
	return s.items(func(raw []byte) bool {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var d doc
		if dec.Decode(&d) != nil || d == nil || dec.InputOffset() != int64(len(raw)) {
			return false
		}
		*dst = append(*dst, d)
		return true
	})
}

// atEnd reports whether nothing but space is left.
func (s *fixtureSplitter) atEnd() bool {
	_, more := s.peek()
	return !more && s.err == nil
}

// eat takes c when it comes next, after space.
func (s *fixtureSplitter) eat(c byte) bool {
	if next, ok := s.peek(); ok && next == c {
		s.pos++
		return true
	}
	return false
}

// peek is the next byte after space; false at the end of the data.
func (s *fixtureSplitter) peek() (byte, bool) {
	for {
		for s.pos < s.end {
			if c := s.blk.b[s.pos]; !jsonlex.IsSpace(c) {
				return c, true
			}
			s.pos++
		}
		if !s.more() {
			return 0, false
		}
	}
}

// value takes the value that comes next, after space, as its brackets
// and quotes delimit it: a slice of the current block.
func (s *fixtureSplitter) value() ([]byte, bool) {
	if _, ok := s.peek(); !ok {
		return nil, false
	}
	for {
		e := valueEnd(s.blk.b[s.pos:s.end])
		if e > 0 {
			v := s.blk.b[s.pos : s.pos+e]
			s.pos += e
			return v, true
		}
		if e < 0 || !s.more() {
			return nil, false
		}
	}
}

// more reads more of the data, moving what is not taken yet to the start
// of another block when the block is full; false at the end of the data
// or when the read fails.
func (s *fixtureSplitter) more() bool {
	if s.eof || s.err != nil {
		return false
	}
	if s.blk == nil || s.end == len(s.blk.b) {
		s.nextBlock()
	}
	n, err := s.r.Read(s.blk.b[s.end:])
	s.end += n
	switch {
	case err == io.EOF:
		s.eof = true
	case err != nil:
		s.err = err
	}
	return n > 0 || !s.eof && s.err == nil
}

// nextBlock takes a block to read into, free or new, large enough for
// twice what is left of the current one, and moves that there.
func (s *fixtureSplitter) nextBlock() {
	if s.pool == nil {
		s.pool = newBlockPool()
	}
	left := 0
	if s.blk != nil {
		left = s.end - s.pos
	}
	blk := s.pool.take(max(s.blockSize, 2*left))
	if s.blk != nil {
		copy(blk.b, s.blk.b[s.pos:s.end])
		s.blk.Release()
	}
	s.blk, s.pos, s.end = blk, 0, left
}

// valueEnd is the length of the value b starts with, as its brackets and
// quotes delimit it (its grammar is not checked): an object or array ends
// where its brackets close, a string at its closing quote, anything else
// before the next comma, bracket, brace or space; 0 when b ends first,
// -1 when no value starts there.
func valueEnd(b []byte) int {
	switch b[0] {
	case '"':
		return jsonlex.StringEnd(b, 0)
	case '{', '[':
	default:
		for i, c := range b {
			if valueStops[c] {
				return cmp.Or(i, -1)
			}
		}
		return 0
	}
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1
			}
		case '"':
			e := jsonlex.StringEnd(b, i)
			if e == 0 {
				return 0
			}
			i = e - 1
		}
	}
	return 0
}

// valueStops end a number or a literal.
var valueStops = func() (t [256]bool) {
	for _, c := range []byte(",]}[{\" \t\r\n:") {
		t[c] = true
	}
	return t
}()
