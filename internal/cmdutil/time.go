package cmdutil

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseTime reads a point in time the way users write one: RFC 3339
// (`2026-12-01T10:00:00Z`), a date (`2026-12-01`, midnight UTC), or a
// duration from now (`4h`, `90m`, `7d`, `2w`).
func ParseTime(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC(), nil
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t.UTC(), nil
	}
	if d, err := ParseDuration(s); err == nil {
		return now.Add(d).UTC(), nil
	}
	return time.Time{}, fmt.Errorf("invalid time %q: want RFC 3339 (2026-12-01T10:00:00Z), a date (2026-12-01) or a duration from now (4h, 30m, 7d, 2w)", s)
}

// CheckTime says whether s is a time ParseTime reads, before the time it
// counts from is known (the server's, learned from its first answer).
func CheckTime(s string) error {
	_, err := ParseTime(s, time.Time{})
	return err
}

// ParseDuration is time.ParseDuration plus whole days (d) and weeks (w).
func ParseDuration(s string) (time.Duration, error) {
	for suffix, unit := range map[string]time.Duration{"d": 24 * time.Hour, "w": 7 * 24 * time.Hour} {
		if n, ok := strings.CutSuffix(s, suffix); ok {
			v, err := strconv.Atoi(n)
			if err != nil || v < 0 {
				return 0, fmt.Errorf("invalid duration %q", s)
			}
			return time.Duration(v) * unit, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("invalid duration %q", s)
	}
	return d, nil
}

// FormatTime writes t as the API does: RFC 3339 in UTC with a Z.
func FormatTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// ParsePastTime is ParseTime for bounds in the past: a duration counts back
// from now (`--since 7d` is seven days ago).
func ParsePastTime(s string, now time.Time) (time.Time, error) {
	if d, err := ParseDuration(s); err == nil {
		return now.Add(-d).UTC(), nil
	}
	if t, err := ParseTime(s, now); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("invalid time %q: want RFC 3339 (2026-12-01T10:00:00Z), a date (2026-12-01) or a duration back from now (12h, 7d, 2w)", s)
}
