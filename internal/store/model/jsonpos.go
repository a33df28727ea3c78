package model

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
)

// jsonError says where JSON went wrong, as a person finds it in an
// editor: "line 12, column 5: the JSON ends early". start is where the
// decoder stood before the call that failed (Decoder.InputOffset); src
// reads the same bytes again from the start, since a file is not held
// whole. A stream decoder's own offsets count only part of what it read,
// so the failing value is scanned again from start on its own.
func jsonError(src func() (io.ReadCloser, error), start int64, err error) string {
	var syn *json.SyntaxError
	what := "not valid JSON"
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		what = "the JSON ends early (is the file cut short?)"
	case errors.As(err, &syn):
		what = syn.Error()
	case err != nil:
		what = plainJSON(err)
	}
	r, openErr := src()
	if openErr != nil {
		return what
	}
	defer r.Close()
	br := bufio.NewReader(r)
	var line, col int
	if syn == nil {
		line, col = lineCol(br, math.MaxInt64) // an early end is at the end
	} else {
		line, col = lineCol(br, start)
		// Past the separators before the value, then to the bad byte.
		for {
			b, err := br.ReadByte()
			if err != nil {
				break
			}
			if !strings.ContainsRune(" \t\r\n,:", rune(b)) {
				br.UnreadByte()
				break
			}
			line, col = advance(line, col, b)
		}
		var raw json.RawMessage
		var again *json.SyntaxError
		var value bytes.Buffer
		if err := json.NewDecoder(io.TeeReader(br, &value)).Decode(&raw); errors.As(err, &again) && again.Offset > 0 {
			for _, b := range value.Bytes()[:min(int(again.Offset-1), value.Len())] {
				line, col = advance(line, col, b)
			}
		}
	}
	return fmt.Sprintf("line %d, column %d: %s", line, col, what)
}

func advance(line, col int, b byte) (int, int) {
	if b == '\n' {
		return line + 1, 1
	}
	return line, col + 1
}

// lineCol reads offset bytes of br and returns the line and column (from
// 1, in bytes) where they end.
func lineCol(br *bufio.Reader, offset int64) (line, col int) {
	line, col = 1, 1
	for ; offset > 0; offset-- {
		b, err := br.ReadByte()
		if err != nil {
			return line, col
		}
		line, col = advance(line, col, b)
	}
	return line, col
}

func plainJSON(err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return fmt.Sprintf("got a JSON %s where another kind of value belongs", typeErr.Value)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}
