package server

import (
	"runtime/debug"
	"testing"
)

func TestLoadingCollectsMoreOftenThenAsBefore(t *testing.T) {
	for _, c := range []struct{ before, loading int }{
		{100, loadingGCPercent},
		{400, loadingGCPercent},
		{20, 20}, // set lower by GOGC: kept
		{-1, -1}, // GOGC=off: kept
	} {
		prev := debug.SetGCPercent(c.before)
		restore := collectOftenWhileLoading()
		if got := debug.SetGCPercent(c.loading); got != c.loading {
			t.Errorf("GOGC %d: %d while loading, want %d", c.before, got, c.loading)
		}
		restore()
		if got := debug.SetGCPercent(prev); got != c.before {
			t.Errorf("GOGC %d: %d after loading", c.before, got)
		}
	}
}
