package alerts

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/output"
)

// watchRun re-polls the list until ctx ends. On a terminal it redraws one
// screen each time, newest alerts first; piped, it prints each alert once
// as it appears and again whenever its status changes, so `-o jsonl`
// makes an event stream.
func watchRun(ctx context.Context, opts *ListOptions, c *client.Client, printer *output.Printer, path string, lo client.ListOptions) error {
	seen := map[string]string{}
	tick := time.NewTicker(opts.Interval)
	defer tick.Stop()
	for redraws := 0; ; redraws++ {
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
		items = newestFirst(Filter{Status: opts.Status, Event: opts.Event}.Keep(items))
		if opts.List.LimitGiven() {
			items = items[:min(len(items), opts.List.Limit)] // the newest --limit
		}
		if opts.IO.IsStdoutTTY() {
			opts.IO.Remeasure()
			frame, err := watchFrame(opts, printer, items)
			if err != nil {
				return err
			}
			// The first frame clears the screen; later ones write over
			// it from its top, line by line, and erase what is left below:
			// no frame scrolls, so none piles up in the scrollback.
			start := "\x1b[H"
			if redraws == 0 {
				start = "\x1b[H\x1b[2J"
			}
			fmt.Fprint(opts.IO.Out, start+strings.Join(frame, "\x1b[K\n")+"\x1b[K\n\x1b[J")
		} else {
			for _, item := range slices.Backward(items) { // in the order they came
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

// newestFirst orders alerts by their creation, newest first, so an alert
// raised now is at the top of the screen; the list is oldest first.
func newestFirst(items []json.RawMessage) []json.RawMessage {
	created := make([]time.Time, len(items))
	for i, item := range items {
		var a api.Alert
		if json.Unmarshal(item, &a) == nil {
			created[i], _ = time.Parse(time.RFC3339, a.Created)
		}
	}
	order := make([]int, len(items))
	for i := range order {
		order[i] = len(items) - 1 - i // later in the list first among equals
	}
	slices.SortStableFunc(order, func(a, b int) int { return created[b].Compare(created[a]) })
	out := make([]json.RawMessage, len(items))
	for i, j := range order {
		out[i] = items[j]
	}
	return out
}

// watchFrame is one screen of the watch: a title with the time, a blank
// line, the table of the newest alerts that fit, and a last line counting
// those left out. It keeps to the terminal's width, and to its height
// less one line, so that drawing it never scrolls.
func watchFrame(opts *ListOptions, printer *output.Printer, items []json.RawMessage) ([]string, error) {
	width, height := opts.IO.TerminalWidth(), opts.IO.TerminalHeight()
	clock := watchNow(opts).UTC().Format("15:04:05Z")
	title := fmt.Sprintf("Every %s: omctl alerts list%s", opts.Interval, describeFilter(opts))
	title = cutTo(title, width-len(clock)-2)
	title += strings.Repeat(" ", max(width-twwidth.Width(title)-len(clock), 2)) + clock
	frame := []string{title, ""}
	if len(items) == 0 {
		return append(frame, "No alerts."), nil
	}
	table, hidden, err := fitScreen(printer, items, height-len(frame)-1)
	if err != nil {
		return nil, err
	}
	frame = append(frame, table...)
	if hidden > 0 {
		frame = append(frame, footer(opts, hidden, width))
	}
	return frame, nil
}

// fitScreen is the table of the newest alerts that fit in room lines
// (any number when room is unknown), with the header and a line for the
// count of the others, and that count. The screen also holds the title, a
// blank line and the line the cursor rests on: a redraw taller than the
// screen would scroll, and each redraw would pile up in the terminal's
// scrollback.
func fitScreen(printer *output.Printer, items []json.RawMessage, room int) ([]string, int, error) {
	if room <= 0 {
		room = len(items) + 1
	}
	shown := items[:min(len(items), room)]
	lines, err := printer.TableLines(Table, shown)
	if err != nil || len(lines) <= room && len(shown) == len(items) {
		return lines, 0, err
	}
	header := len(lines) - len(shown)
	n := max(room-header-1, 0)
	lines, err = printer.TableLines(Table, items[:n])
	return lines, len(items) - n, err
}

// footer counts the alerts left off the screen and says how to see them,
// in the words that fit width: a filter not given yet, or a pipe.
func footer(opts *ListOptions, hidden, width int) string {
	var narrow []string
	if opts.Status == "" {
		narrow = append(narrow, "--status OPEN")
	}
	if opts.Event == "" {
		narrow = append(narrow, "--event TYPE")
	}
	count := fmt.Sprintf("… and %d older alerts below", hidden)
	var hints []string
	if len(narrow) > 0 {
		hints = append(hints,
			count+" the screen (narrow with "+strings.Join(narrow, " or ")+", or pipe with -o jsonl)",
			count+" (narrow with "+narrow[0]+", or pipe with -o jsonl)",
			count+" (narrow with "+narrow[0]+")")
	} else {
		hints = append(hints, count+" the screen (pipe with -o jsonl for all)", count+" (-o jsonl for all)")
	}
	hints = append(hints, count, fmt.Sprintf("+%d", hidden))
	for _, h := range hints {
		if twwidth.Width(h) <= width {
			return h
		}
	}
	return ""
}

// cutTo cuts s to n columns, ending in "…" when cut.
func cutTo(s string, n int) string {
	if twwidth.Width(s) <= n {
		return s
	}
	return twwidth.Truncate(s, max(n-1, 0)) + "…"
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
