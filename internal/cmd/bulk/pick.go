package bulk

import (
	"context"
	"fmt"
	"net/url"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
)

// MaxPick bounds the choices of a picker: past it a list is no longer
// read by eye, and --status, --event or ids say better what to act on.
const MaxPick = 500

// Choices reads every item of a list endpoint and returns the rows a
// picker shows of those row keeps (each row's cells, its id first; see
// prompt.Rows), in the server's order. It stops reading at the first row
// past MaxPick.
func Choices[T any](ctx context.Context, c *client.Client, path string, q url.Values, what string, row func(T) ([]string, bool)) ([][]string, error) {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	var rows [][]string
	_, _, err := Select(ctx, c, path, q, what, func(v T) (string, bool) {
		if r, ok := row(v); ok && len(rows) <= MaxPick {
			rows = append(rows, r)
			if len(rows) > MaxPick {
				stop()
			}
		}
		return "", false
	})
	if len(rows) > MaxPick {
		return nil, cmdutil.FlagErrorf("more than %d to choose from, more than a picker shows: give ids or filters instead", MaxPick)
	}
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// Confirm asks a person at a terminal before a bulk change of n items;
// without a terminal, or with --yes, it does not ask, as scripts that
// pipe ids in expect.
func Confirm(ctx context.Context, deps cmdutil.Deps, yes bool, question string) error {
	if yes {
		return nil
	}
	p, ok := deps.Prompt()
	if !ok {
		return nil
	}
	sure, err := p.Confirm(ctx, question, "--yes skips this question", true)
	if err != nil {
		return err
	}
	if !sure {
		return fmt.Errorf("nothing changed: not confirmed")
	}
	return nil
}
