package jsonlex

import (
	"encoding/json"
	"testing"
)

func TestNumberEnd(t *testing.T) {
	for in, want := range map[string]int{
		"0": 1, "-0": 2, "12": 2, "1.5": 3, "-1.5e+10": 8, "1E5": 3, "0.0e-0": 6,
		"12,": 2, "1.5]": 3, "0123": 1, // a number ends where its grammar does
		"": -1, "-": -1, "+1": -1, ".5": -1, "1.": -1, "1e": -1, "1e+": -1, "-x": -1, "x": -1,
	} {
		if got := NumberEnd([]byte(in), 0); got != want {
			t.Errorf("NumberEnd(%q) = %d, want %d", in, got, want)
		}
	}
	if got := NumberEnd([]byte(`[1, 20]`), 4); got != 6 {
		t.Errorf("NumberEnd from 4 = %d, want 6", got)
	}
}

func TestEscapeLen(t *testing.T) {
	for in, want := range map[string]int{
		`\"`: 2, `\\`: 2, `\/`: 2, `\b`: 2, `\f`: 2, `\n`: 2, `\r`: 2, `\t`: 2, `\u00e9x`: 6, `\uABCD`: 6,
		`\`: 0, `\x`: 0, `\u12`: 0, `\u12g4`: 0, `\U0041`: 0, `\'`: 0,
	} {
		if got := EscapeLen([]byte(in)); got != want {
			t.Errorf("EscapeLen(%q) = %d, want %d", in, got, want)
		}
	}
}

// What NumberEnd reads whole is a number to encoding/json, and the
// other way round.
func FuzzNumberEnd(f *testing.F) {
	for _, s := range []string{"0", "-1.5e+10", "01", "1.", ".5", "-", "1e5x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		whole := NumberEnd([]byte(s), 0) == len(s)
		isDigit := func(c byte) bool { return '0' <= c && c <= '9' }
		// Starting with a sign or digit and ending with a digit, valid
		// JSON can only be one number, with no space around it.
		valid := len(s) > 0 && (s[0] == '-' || isDigit(s[0])) && isDigit(s[len(s)-1]) && json.Valid([]byte(s))
		if whole != valid {
			t.Errorf("NumberEnd(%q) whole: %t; encoding/json: %t", s, whole, valid)
		}
	})
}
