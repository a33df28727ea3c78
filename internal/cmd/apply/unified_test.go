package apply

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
)

func TestMaskPairNeverPrintsSecrets(t *testing.T) {
	before := map[string]any{"cloudSecretKey": "old-secret-1", "notifications": []any{map[string]any{"webhookUrl": "https://h.example.com/a/b"}}}
	after := map[string]any{"cloudSecretKey": "new-secret-1", "notifications": []any{map[string]any{"webhookUrl": "https://h.example.com/a/b"}}}
	b, a := cmdutil.MaskPair("", before, after)
	text := strings.Join(append(yamlLines(b), yamlLines(a)...), "\n")
	if strings.Contains(text, "secret-1") || strings.Contains(text, "/a/b") {
		t.Fatalf("secrets printed:\n%s", text)
	}
	if a.(map[string]any)["cloudSecretKey"] != "******** (changed)" {
		t.Errorf("a changed secret should say so: %v", a)
	}
}

func TestLineDiff(t *testing.T) {
	got := lineDiff([]string{"a", "b", "c"}, []string{"a", "x", "c", "d"})
	want := []string{" a", "-b", "+x", " c", "+d"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestWriteDiffColoursOnATerminal(t *testing.T) {
	pl := &Plan{Doc: &Document{Source: "f.yaml#1"}, Label: "OplogStore o1",
		Before: map[string]any{"a": 1, "b": 2}, After: map[string]any{"a": 1, "b": 3}}
	var plain, coloured strings.Builder
	WriteDiff(&plain, pl, false)
	WriteDiff(&coloured, pl, true)
	if want := "--- server/OplogStore o1\n+++ documents/OplogStore o1 (f.yaml#1)\n@@ -1,2 +1,2 @@\n a: 1\n-b: 2\n+b: 3\n"; plain.String() != want {
		t.Errorf("plain diff:\n%s\nwant:\n%s", plain.String(), want)
	}
	for _, want := range []string{"\x1b[31m-b: 2\x1b[0m\n", "\x1b[32m+b: 3\x1b[0m\n", "\x1b[36m@@ -1,2 +1,2 @@\x1b[0m\n"} {
		if !strings.Contains(coloured.String(), want) {
			t.Errorf("coloured diff lacks %q:\n%q", want, coloured.String())
		}
	}
}

// A change in a long resource is shown with 3 lines of context around
// it, in hunks numbered as diff -u numbers them.
func TestWriteDiffShowsContextNotTheWholeResource(t *testing.T) {
	before, after := map[string]any{}, map[string]any{}
	for i := 0; i < 20; i++ {
		k := fmt.Sprintf("f%02d", i)
		before[k], after[k] = i, i
	}
	after["f05"], after["f17"] = "changed", "changed too"
	pl := &Plan{Doc: &Document{Source: "f.yaml#1"}, Label: "X x", Before: before, After: after}
	var b strings.Builder
	WriteDiff(&b, pl, false)
	want := "--- server/X x\n+++ documents/X x (f.yaml#1)\n" +
		"@@ -3,7 +3,7 @@\n f02: 2\n f03: 3\n f04: 4\n-f05: 5\n+f05: changed\n f06: 6\n f07: 7\n f08: 8\n" +
		"@@ -15,6 +15,6 @@\n f14: 14\n f15: 15\n f16: 16\n-f17: 17\n+f17: changed too\n f18: 18\n f19: 19\n"
	if b.String() != want {
		t.Errorf("diff:\n%s\nwant:\n%s", b.String(), want)
	}
}
