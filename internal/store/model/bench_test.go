package model

import (
	"os"
	"path/filepath"
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

// generatedFixture is a fixture of n alerts of one project shaped as
// the benchmarks' generator writes them (bench/internal/benchdata): no
// resolved on CLOSED alerts, and a host and replica set on every alert,
// which most event types do not show.
func generatedFixture(n int) []byte { return fixturetest.Generated(n, projA, start) }

// generatedFixtureFile writes generatedFixture(n) to a file, whose size
// is the benchmark's bytes an op.
func generatedFixtureFile(b *testing.B, n int) string {
	data := generatedFixture(n)
	path := filepath.Join(b.TempDir(), "fixture.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	return path
}
