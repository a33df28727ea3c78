package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestOmctlPackagesInitialiseLittle pins what start-up gained
// (docs/performance.md, "Start-up"): omctl's own packages build nothing
// large before main, on every start, whatever the command (regular
// expressions, help texts and maps of what only some commands use are
// built when first used). GODEBUG=inittrace=1 counts what each package's
// initialisation allocated, which, unlike its time, does not depend on
// the machine. internal/build is left out: it reads the build info only
// when -ldflags stamped less than a release does.
func TestOmctlPackagesInitialiseLittle(t *testing.T) {
	cmd := exec.Command(os.Args[0], "--version")
	cmd.Env = append(os.Environ(), asOmctl+"=1", "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("omctl --version: %v\n%s", err, stderr.Bytes())
	}
	var bytesAllocated, allocs int
	var seen []string
	lines := bufio.NewScanner(bytes.NewReader(stderr.Bytes()))
	for lines.Scan() {
		// init github.com/omctl/omctl/internal/api @1.2 ms, 0.016 ms clock, 9352 bytes, 25 allocs
		// is 11 fields.
		f := strings.Fields(lines.Text())
		if len(f) != 11 || f[0] != "init" || !strings.HasPrefix(f[1], "github.com/omctl/omctl/internal/") ||
			strings.HasPrefix(f[1], "github.com/omctl/omctl/internal/testutil") || f[1] == "github.com/omctl/omctl/internal/build" {
			continue
		}
		b, err1 := strconv.Atoi(f[7])
		a, err2 := strconv.Atoi(f[9])
		if err1 != nil || err2 != nil {
			t.Fatalf("cannot read %q", lines.Text())
		}
		bytesAllocated, allocs = bytesAllocated+b, allocs+a
		seen = append(seen, f[1]+" "+f[7]+" bytes "+f[9]+" allocs")
	}
	if len(seen) == 0 {
		t.Fatalf("no initialisation of omctl's packages traced:\n%s", stderr.Bytes())
	}
	// Before the change: 78 KB in 679 allocations, 126 of them config's
	// and 134 secretref's regular expressions; after: 35 KB in 271.
	if bytesAllocated > 48<<10 || allocs > 400 {
		t.Errorf("omctl's packages allocated %d bytes in %d allocations before main, over 48 KiB or 400:\n%s",
			bytesAllocated, allocs, strings.Join(seen, "\n"))
	}
}
