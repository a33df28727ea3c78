package notify

import (
	"fmt"
	"testing"

	"github.com/omctl/omctl/internal/store/engine"
)

func TestTheNotificationLogCopiesOnlyItsPage(t *testing.T) {
	l := NewLog(100)
	for i := range 10 {
		kind := "EMAIL"
		if i%2 == 1 {
			kind = "WEBHOOK"
		}
		l.Add([]*engine.Notification{{ID: fmt.Sprint(i), TypeName: kind}})
	}
	ids := func(ns []engine.Notification) (out []string) {
		for _, n := range ns {
			out = append(out, n.ID)
		}
		return out
	}
	if page, total, _ := l.Page(nil, 8, 5); total != 10 || fmt.Sprint(ids(page)) != "[8 9]" {
		t.Errorf("unfiltered: %v of %d", ids(page), total)
	}
	hooks := func(n *engine.Notification) bool { return n.TypeName == "WEBHOOK" }
	if page, total, _ := l.Page(hooks, 1, 2); total != 5 || fmt.Sprint(ids(page)) != "[3 5]" {
		t.Errorf("webhooks, second and third: %v of %d", ids(page), total)
	}
	if page, total, _ := l.Page(hooks, 1<<40, 500); total != 5 || len(page) != 0 {
		t.Errorf("past the end: %v of %d", ids(page), total)
	}
}

// The log keeps its last entries, oldest first, and counts the others;
// a log of size 0 keeps none.
func TestTheNotificationLogKeepsItsLastEntries(t *testing.T) {
	ids := func(ns []engine.Notification) (out []string) {
		for _, n := range ns {
			out = append(out, n.ID)
		}
		return out
	}
	l := NewLog(3)
	for i := range 8 {
		l.Add([]*engine.Notification{{ID: fmt.Sprint(i)}})
	}
	if page, total, dropped := l.Page(nil, 0, 10); total != 3 || dropped != 5 || fmt.Sprint(ids(page)) != "[5 6 7]" {
		t.Errorf("after 8 entries in a log of 3: %v of %d, %d dropped", ids(page), total, dropped)
	}
	if page, total, _ := l.Page(func(n *engine.Notification) bool { return n.ID != "6" }, 1, 10); total != 2 || fmt.Sprint(ids(page)) != "[7]" {
		t.Errorf("filtered, from the second: %v of %d", ids(page), total)
	}
	l.Clear()
	if page, total, dropped := l.Page(nil, 0, 10); total != 0 || dropped != 0 || len(page) != 0 {
		t.Errorf("after a reset: %v of %d, %d dropped", ids(page), total, dropped)
	}
	none := NewLog(0)
	none.Add([]*engine.Notification{{ID: "a"}, {ID: "b"}})
	if _, total, dropped := none.Page(nil, 0, 10); total != 0 || dropped != 2 {
		t.Errorf("a log of size 0: %d kept, %d dropped", total, dropped)
	}
}
