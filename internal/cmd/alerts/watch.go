package alerts

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// watchRun re-polls the list until ctx ends. On a terminal it redraws the
// table each time; piped, it prints each alert once as it appears and again
// whenever its status changes, so `-o jsonl` makes an event stream.
func watchRun(ctx context.Context, opts *ListOptions, c *client.Client, printer *output.Printer, path string, lo client.ListOptions) error {
	seen := map[string]string{}
	tick := time.NewTicker(opts.Interval)
	defer tick.Stop()
	for {
		var items []json.RawMessage
		for item, err := range c.Items(ctx, path, lo) {
			if err != nil {
				if ctx.Err() != nil {
					return cmdutil.StopCause(ctx)
				}
				return err
			}
			items = append(items, item)
		}
		items = Filter{Status: opts.Status, Event: opts.Event}.Keep(items)
		if opts.List.LimitGiven() {
			items = items[:min(len(items), opts.List.Limit)] // the first --limit, as a list shows
		}
		if opts.IO.IsStdoutTTY() {
			fmt.Fprintf(opts.IO.Out, "\x1b[H\x1b[2JEvery %s: omctl alerts list%s    %s\n\n", opts.Interval, describeFilter(opts), watchNow(opts).UTC().Format("15:04:05Z"))
			shown, hidden := fitScreen(items, opts.IO.TerminalHeight())
			if err := printer.List(client.SinglePage(listBody(shown)), output.PageAsked, Table); err != nil {
				return err
			}
			if hidden > 0 {
				fmt.Fprintf(opts.IO.Out, "… and %d more alerts below the screen (narrow with --status, or pipe with -o jsonl)\n", hidden)
			}
		} else {
			for _, item := range items {
				var a api.Alert
				if json.Unmarshal(item, &a) != nil || seen[a.ID] == a.Status {
					continue
				}
				seen[a.ID] = a.Status
				if err := printer.Resource(item, Table); err != nil {
					return err
				}
			}
		}
		select {
		case <-ctx.Done():
			return cmdutil.StopCause(ctx)
		case <-tick.C:
		}
	}
}

// fitScreen keeps the alerts that fit a screen of height lines, with the
// title, a blank line, the header and a last line for the count of the
// others: a redraw taller than the screen would scroll, and each redraw
// would pile up in the terminal's scrollback.
func fitScreen(items []json.RawMessage, height int) (shown []json.RawMessage, hidden int) {
	const chrome = 4
	if height <= chrome || len(items) <= height-chrome+1 {
		return items, 0
	}
	n := height - chrome
	return items[:n], len(items) - n
}

func describeFilter(opts *ListOptions) string {
	s := ""
	if opts.Status != "" {
		s += " --status " + opts.Status
	}
	if opts.Event != "" {
		s += " --event " + opts.Event
	}
	if opts.List.LimitGiven() {
		s += fmt.Sprintf(" --limit %d", opts.List.Limit)
	}
	return s
}

func listBody(items []json.RawMessage) []byte {
	var b bytes.Buffer
	b.WriteString(`{"results":[`)
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(it)
	}
	fmt.Fprintf(&b, `],"totalCount":%d}`, len(items))
	return b.Bytes()
}

// watchNow is the time of a redraw, on the server's clock when known.
func watchNow(opts *ListOptions) time.Time {
	if opts.Now != nil {
		return opts.Now()
	}
	return time.Now()
}
