package rules

import (
	"math/rand/v2"
	"testing"
	"time"
)

// formatTimeByLayout is what FormatTime writes, by time.Format.
func formatTimeByLayout(t time.Time) string {
	return t.UTC().Truncate(time.Second).Format(timeLayout)
}

func TestFormatTime(t *testing.T) {
	tm := time.Date(2024, 2, 29, 10, 5, 7, 999999999, time.FixedZone("CET", 3600))
	if got, want := FormatTime(tm), "2024-02-29T09:05:07Z"; got != want {
		t.Errorf("FormatTime(%v) = %q, want %q", tm, got, want)
	}
}

func TestFormatTimeWritesWhatTheLayoutWrites(t *testing.T) {
	east := time.FixedZone("UTC+14", 14*3600)
	west := time.FixedZone("UTC-12", -12*3600)
	times := []time.Time{
		{},
		time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC),
		time.Date(0, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(-1, 6, 1, 12, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2024, 2, 29, 9, 5, 7, 500000000, time.UTC),
		time.Date(2026, 1, 1, 0, 30, 0, 0, east), // the day before in UTC
		time.Date(2026, 12, 31, 13, 0, 0, 0, west),
		time.Unix(-1, 999999999),
		time.Unix(0, -1),
		time.Unix(1<<40, 0),
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		times = append(times, time.Unix(r.Int64N(400*365*86400)-200*365*86400, r.Int64N(1e9)))
	}
	for _, tm := range times {
		if got, want := FormatTime(tm), formatTimeByLayout(tm); got != want {
			t.Fatalf("FormatTime(%v) = %q, want %q", tm, got, want)
		}
	}
}

func FuzzFormatTime(f *testing.F) {
	f.Add(int64(0), int64(0))
	f.Add(int64(-62135596800), int64(0)) // year 1
	f.Add(int64(253402300799), int64(999999999))
	f.Add(int64(-1), int64(1))
	f.Fuzz(func(t *testing.T, sec, nsec int64) {
		tm := time.Unix(sec, nsec)
		if got, want := FormatTime(tm), formatTimeByLayout(tm); got != want {
			t.Fatalf("FormatTime(time.Unix(%d, %d)) = %q, want %q", sec, nsec, got, want)
		}
	})
}

func BenchmarkFormatTime(b *testing.B) {
	tm := time.Date(2026, 11, 26, 5, 10, 9, 123456789, time.UTC)
	b.Run("digits", func(b *testing.B) {
		for b.Loop() {
			FormatTime(tm)
		}
	})
	b.Run("layout", func(b *testing.B) {
		for b.Loop() {
			formatTimeByLayout(tm)
		}
	})
}
