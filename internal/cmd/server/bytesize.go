package server

import (
	"fmt"
	"strconv"
	"strings"
)

// byteSize is a flag holding a number of bytes, written plain (65536) or
// with a binary unit (64KiB, 64MiB, 1GiB).
type byteSize int64

var byteUnits = []struct {
	suffix string
	scale  int64
}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}}

func (b *byteSize) Set(s string) error {
	num, scale := strings.TrimSpace(s), int64(1)
	for _, u := range byteUnits {
		if trimmed, ok := strings.CutSuffix(num, u.suffix); ok {
			num, scale = strings.TrimSpace(trimmed), u.scale
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/scale {
		return fmt.Errorf("want a positive number of bytes, such as 65536, or one with KiB, MiB or GiB, such as 64MiB")
	}
	*b = byteSize(n * scale)
	return nil
}

func (b *byteSize) String() string {
	for _, u := range byteUnits[:3] {
		if *b != 0 && int64(*b)%u.scale == 0 {
			return strconv.FormatInt(int64(*b)/u.scale, 10) + u.suffix
		}
	}
	return strconv.FormatInt(int64(*b), 10)
}

func (b *byteSize) Type() string { return "size" }
