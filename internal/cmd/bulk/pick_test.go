package bulk

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

type item struct {
	ID string `json:"id"`
}

func itemsPage(from, n, total int) string {
	var items []string
	for i := range n {
		items = append(items, fmt.Sprintf(`{"id":"%024x"}`, from+i))
	}
	return fmt.Sprintf(`{"results":[%s],"totalCount":%d}`, strings.Join(items, ","), total)
}

// A picker shows at most MaxPick options, and stops reading there: the
// pages past the first few of a list of 10,000 are never asked for.
func TestChoicesStopPastMaxPick(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/items", 200, itemsPage(0, 500, 10000))
	srv.Reply("GET", "/items", 200, itemsPage(500, 500, 10000))
	c, _ := srv.Client()()
	keep := func(v item) ([]string, bool) { return []string{v.ID}, true }
	_, err := Choices(context.Background(), c, "/items", nil, "an item", keep)
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), "more than 500") {
		t.Errorf("err = %v", err)
	}
	if n := len(srv.Requests()); n >= 20 { // 20 pages hold all 10,000
		t.Errorf("%d pages read", n)
	}
	srv2 := stubapi.New(t)
	srv2.Reply("GET", "/items", 200, itemsPage(0, 3, 3))
	c2, _ := srv2.Client()()
	got, err := Choices(context.Background(), c2, "/items", nil, "an item", keep)
	if err != nil || len(got) != 3 || got[2][0] != fmt.Sprintf("%024x", 2) {
		t.Errorf("%v %v", got, err)
	}
}
