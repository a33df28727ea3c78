package omtest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAConsumerModule runs the tests of testdata/consumer, a module of its
// own that requires this one and uses omtest alone, as a program's module
// would: two servers in parallel under the race detector, each with the
// demo data, an acknowledgement, the journal, a fault, a configuration, a
// Report, Advance and a 401.
//
// It runs on a copy, whose replace directive names this repository's
// directory and whose go.sum adds this module's: with GOFLAGS=-mod=mod,
// go completes the copy's go.mod from this module's requirements, and
// with GOPROXY=off it finds every module in the module cache, where
// building this module's own tests put them, and reaches no network.
func TestAConsumerModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs another module's tests with the race detector")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to build the consumer module with")
	}
	root, err := filepath.Abs(filepath.Join("..")) // this module's directory
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src := filepath.Join("testdata", "consumer")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		switch e.Name() {
		case "go.mod":
			data = []byte(strings.Replace(string(data), "=> ../../..", "=> "+root, 1))
			if !strings.Contains(string(data), "=> "+root) {
				t.Fatalf("testdata/consumer/go.mod has no replace directive for this module:\n%s", data)
			}
		case "go.sum":
			own, err := os.ReadFile(filepath.Join(root, "go.sum"))
			if err != nil {
				t.Fatal(err)
			}
			data = append(data, own...)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(goTool, "test", "-race", "-count=1", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test -race ./... in the consumer module: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "ok  \texample.com/omtest-consumer") {
		t.Fatalf("the consumer module's tests did not pass:\n%s", out)
	}
}
