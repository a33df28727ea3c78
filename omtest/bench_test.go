package omtest_test

import (
	"testing"

	"github.com/omctl/omctl/omtest"
)

// BenchmarkNewServer is the cost of a server to a test: started, signed
// in, and closed.
func BenchmarkNewServer(b *testing.B) {
	for name, opts := range map[string][]omtest.Option{
		"default":  nil,
		"demo":     {omtest.WithDemo(), omtest.WithClock(start)},
		"demo+key": {omtest.WithDemo(), omtest.WithClock(start), omtest.WithKey("benchowner", "bench-secret")},
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				omtest.NewServer(b, opts...).Close()
			}
		})
	}
}
