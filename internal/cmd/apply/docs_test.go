package apply

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
)

// docs/apply.md says which exit code a document that cannot be applied
// gives, in each step of apply's first check; every code it states there
// is the one apply exits with (README.md says 1 as well).
func TestApplyMdStatesTheExitCodeOfAnInvalidDocument(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "apply.md"))
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(string(text), "## What apply checks before sending anything")
	end := strings.Index(string(text), "Only then are the writes sent")
	if start < 0 || end < start {
		t.Fatal("docs/apply.md has no section on what apply checks before sending anything")
	}
	stated := regexp.MustCompile(`exit\s+code\s+is\s+(\d)`).FindAllStringSubmatch(string(text[start:end]), -1)
	if len(stated) == 0 {
		t.Fatal("docs/apply.md no longer states the exit code of an invalid document")
	}
	ios, _, _, _ := iostreams.Test()
	opts := &Options{Deps: cmdutil.Deps{IO: ios}, Files: []string{write(t, "bad.yaml", "kind: OplogStore\nid: o1\nssl: 'no'\n")}}
	got := cmdutil.ExitCode(applyRun(context.Background(), opts))
	for _, m := range stated {
		if want, _ := strconv.Atoi(m[1]); want != got {
			t.Errorf("docs/apply.md says an invalid document exits %d; apply exits %d", want, got)
		}
	}
}
