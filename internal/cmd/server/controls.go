package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"

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
		return nil, notOmctlServer(e, err)
	}
	return res.Body, nil
}

// notOmctlServer is err, or, when the answer to a test control shows that
// the base URL's server is not omctl server (a real service answers the
// unknown path without the API's error body: 404, 405 or 501, an HTML
// page), an error that says so: only omctl server has test controls.
func notOmctlServer(e api.Endpoint, err error) error {
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) || apiErr.ErrorCode != "" {
		return err
	}
	switch apiErr.StatusCode {
	case http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusNotImplemented:
		return fmt.Errorf("the base URL's server is not omctl server: it answered %s %s with %d %s, not as omctl server's test controls do; `omctl server` trigger, clock, reset, dump, requests, faults and notifications work only against omctl server (omctl server --demo, or the server of omctl server --env-file)",
			e.Method, e.Pattern, apiErr.StatusCode, http.StatusText(apiErr.StatusCode))
	}
	return err
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
