package server

import (
	"context"
	"encoding/json"
	"iter"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
)

// addControlCommands puts the commands that drive a running server under
// `omctl server`, with the usage of every other client command.
func addControlCommands(server *cobra.Command, usage string, cmds ...*cobra.Command) {
	for _, c := range cmds {
		c.SetUsageTemplate(usage)
		server.AddCommand(c)
	}
}

// control sends one request to a test control of internal/api
// (docs/server.md), its placeholders filled with values.
func control(ctx context.Context, d cmdutil.Deps, e api.Endpoint, body any, values ...string) ([]byte, error) {
	c, err := d.Client()
	if err != nil {
		return nil, err
	}
	res, err := c.Do(ctx, e.Method, e.Path(values...), nil, body)
	if err != nil {
		return nil, err
	}
	return res.Body, nil
}

// onePage shows a body holding a list under key as a list of one page.
func onePage(body []byte, key string) iter.Seq2[*client.Page, error] {
	return func(yield func(*client.Page, error) bool) {
		var m map[string]json.RawMessage
		var items []json.RawMessage
		if err := json.Unmarshal(body, &m); err == nil {
			json.Unmarshal(m[key], &items)
		}
		yield(&client.Page{Number: 1, Body: body, Results: items, TotalCount: len(items)}, nil)
	}
}
