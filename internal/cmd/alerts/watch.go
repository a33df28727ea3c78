package alerts

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
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
					return nil
				}
				return err
			}
			items = append(items, item)
		}
		if opts.IO.IsStdoutTTY() {
			fmt.Fprintf(opts.IO.Out, "\x1b[H\x1b[2JEvery %s: omctl alerts list%s    %s\n\n", opts.Interval, describeFilter(opts), time.Now().Format("15:04:05"))
			if err := printer.List(client.SinglePage(listBody(items)), false, Table); err != nil {
				return err
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
			return nil
		case <-tick.C:
		}
	}
}

func describeFilter(opts *ListOptions) string {
	if opts.Status == "" {
		return ""
	}
	return " --status " + opts.Status
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
