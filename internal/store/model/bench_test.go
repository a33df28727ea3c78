package model

import (
	"testing"

	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/fixture/fixturetest"
)

// BenchmarkLoadFixtures reads a fixture file of 20,000 alerts as omctl
// server reads one at its start (docs/performance.md).
func BenchmarkLoadFixtures(b *testing.B) {
	path := generatedFixtureFile(b, 20000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fixture.LoadFixtures(path); err != nil {
			b.Fatal(err)
		}
	}
}

// generatedFixtureFile writes a fixture of n alerts of projA shaped as
// the benchmarks' generator writes them (bench/internal/benchdata) to a
// file: no resolved on CLOSED alerts, and a host and replica set on every
// alert, which most event types do not show.
func generatedFixtureFile(b *testing.B, n int) string {
	return fixturetest.GeneratedFile(b, n, projA, start)
}
