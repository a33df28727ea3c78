package bulk

import (
	"context"
	"fmt"
	"net/url"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/prompt"
)

// MaxPick bounds the choices of a picker: past it a list is no longer
// read by eye, and --status, --event or ids say better what to act on.
const MaxPick = 500

// Options reads every item of a list endpoint and makes the options of a
// picker of those option keeps, in the server's order.
// It stops reading at the first option past MaxPick.
func Options[T any](ctx context.Context, c *client.Client, path string, q url.Values, what string, option func(T) (prompt.Option, bool)) ([]prompt.Option, error) {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	var options []prompt.Option
	_, _, err := Select(ctx, c, path, q, what, func(v T) (string, bool) {
		if o, ok := option(v); ok && len(options) <= MaxPick {
			options = append(options, o)
			if len(options) > MaxPick {
				stop()
			}
		}
		return "", false
	})
	if len(options) > MaxPick {
		return nil, cmdutil.FlagErrorf("more than %d to choose from, more than a picker shows: give ids or filters instead", MaxPick)
	}
	if err != nil {
		return nil, err
	}
	return options, nil
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
