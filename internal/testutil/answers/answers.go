// Package answers reads, in tests, what every GET list and read endpoint
// of internal/api answers over a server's data, so that two servers can be
// compared: the one a fixture file was made from and the one that loaded it.
package answers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/rules"
)

// PerList bounds how many items of each list are read one by one: every
// read endpoint is asked, not every item, so a test stays fast.
const PerList = 8

// Answers are what a server answered, by request (method, path and
// query), normalized: links name no host and secrets read "<secret>",
// since a copy serves other hosts and generated secrets.
type Answers struct {
	ByRequest map[string]string
	// Endpoints are the endpoints that answered 200 at least once.
	Endpoints map[string]bool
}

// Collect GETs every list (every page) and read endpoint over what the
// lists show. hosts are config-server host ids, which no list names.
func Collect(t testing.TB, c *client.Client, hosts []string) *Answers {
	t.Helper()
	w := &walker{t: t, c: c, a: &Answers{ByRequest: map[string]string{}, Endpoints: map[string]bool{}}}
	for _, org := range w.list(api.ListOrgs, nil) {
		id := str(org, "id")
		w.read(api.GetOrg, id)
		w.list(api.ListOrgProjects, nil, id)
		for _, key := range w.list(api.ListAPIKeys, nil, id) {
			kid := str(key, "id")
			w.read(api.GetAPIKey, id, kid)
			for _, e := range w.list(api.ListAccessList, nil, id, kid) {
				entry := str(e, "ipAddress")
				if entry == "" {
					entry = str(e, "cidrBlock")
				}
				w.read(api.GetAccessListEntry, id, kid, entry)
			}
		}
	}
	for _, p := range w.list(api.ListProjects, nil) {
		w.project(p, hosts)
	}
	w.list(api.ListGlobalAlerts, nil)
	for _, cfg := range w.list(api.ListGlobalAlertConfigs, nil) {
		w.read(api.GetGlobalAlertConfig, str(cfg, "id"))
	}
	all := url.Values{"assignableOnly": {"false"}}
	for _, s := range w.list(api.ListOplogStores, all) {
		w.read(api.GetOplogStore, str(s, "id"))
	}
	for _, s := range w.list(api.ListSnapshotStores, all) {
		w.read(api.GetSnapshotStore, str(s, "id"))
	}
	return w.a
}

func (w *walker) project(p map[string]any, hosts []string) {
	id := str(p, "id")
	w.read(api.GetProject, id)
	w.read(api.GetProjectByName, str(p, "name"))
	w.read(api.GetBackupJobConfig, id)
	for _, cl := range w.list(api.ListClusters, nil, id) {
		cid := str(cl, "id")
		w.read(api.GetCluster, id, cid)
		for _, s := range w.list(api.ListSnapshots, nil, id, cid) {
			w.read(api.GetSnapshot, id, cid, str(s, "id"))
		}
	}
	for _, a := range w.list(api.ListAlerts, nil, id) {
		w.read(api.GetAlert, id, str(a, "id"))
	}
	for _, cfg := range w.list(api.ListAlertConfigs, nil, id) {
		w.read(api.GetAlertConfig, id, str(cfg, "id"))
	}
	for _, b := range w.list(api.ListBackupConfigs, nil, id) {
		w.read(api.GetBackupConfig, id, str(b, "clusterId"))
		w.read(api.GetBackupConfigMembers, id, str(b, "clusterId"))
	}
	for _, h := range hosts {
		for _, s := range w.list(api.ListConfigServerSnapshots, nil, id, h) {
			w.read(api.GetConfigServerSnapshot, id, h, str(s, "id"))
		}
	}
}

// Diff lists, sorted, the requests whose answers differ between a and b.
func Diff(a, b *Answers) []string {
	var out []string
	for k, v := range a.ByRequest {
		if w, ok := b.ByRequest[k]; !ok {
			out = append(out, k+": missing from the second")
		} else if v != w {
			out = append(out, fmt.Sprintf("%s:\n  first:  %s\n  second: %s", k, v, w))
		}
	}
	for k := range b.ByRequest {
		if _, ok := a.ByRequest[k]; !ok {
			out = append(out, k+": missing from the first")
		}
	}
	sort.Strings(out)
	return out
}

// Missing lists the GET endpoints of internal/api that never answered 200.
func (a *Answers) Missing() []string {
	var out []string
	for _, e := range api.Endpoints {
		if e.Method == "GET" && !a.Endpoints[e.Name] {
			out = append(out, e.Name)
		}
	}
	return out
}

type walker struct {
	t testing.TB
	c *client.Client
	a *Answers
}

// list reads every page of a list, and returns up to PerList items.
func (w *walker) list(e api.Endpoint, q url.Values, values ...string) []map[string]any {
	path := e.Path(values...)
	var items []map[string]any
	for p, err := range w.c.Pages(context.Background(), path, client.ListOptions{All: true, ItemsPerPage: api.MaxItemsPerPage, Parallel: 1, Query: q}) {
		if err != nil {
			w.record(e, fmt.Sprintf("GET %s?%s failed", path, q.Encode()), nil, err)
			return items
		}
		key := fmt.Sprintf("GET %s?%s page %d", path, q.Encode(), p.Number)
		w.record(e, key, p.Body, nil)
		for _, r := range p.Results {
			var m map[string]any
			if json.Unmarshal(r, &m) == nil && len(items) < PerList {
				items = append(items, m)
			}
		}
	}
	return items
}

func (w *walker) read(e api.Endpoint, values ...string) {
	path := e.Path(values...)
	body, err := w.c.Get(context.Background(), path, nil)
	w.record(e, "GET "+path, body, err)
}

func (w *walker) record(e api.Endpoint, key string, body []byte, err error) {
	if err != nil {
		var ae *client.APIError
		if !errors.As(err, &ae) {
			w.t.Fatalf("%s: %v", key, err)
		}
		w.a.ByRequest[key] = fmt.Sprintf("error %d %s", ae.StatusCode, ae.ErrorCode)
		return
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		w.t.Fatalf("%s: %v", key, err)
	}
	out, _ := json.Marshal(normalize(v, ""))
	w.a.ByRequest[key] = string(out)
	w.a.Endpoints[e.Name] = true
}

// normalize takes the host out of links and hides secrets' values.
func normalize(v any, key string) any {
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range t {
			out[k] = normalize(e, k)
		}
		if href, ok := t["href"].(string); ok && key == "links" {
			if u, err := url.Parse(href); err == nil {
				out["href"] = u.RequestURI()
			}
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = normalize(e, key)
		}
		return out
	case string:
		if rules.SecretFields[key] && t != "" {
			return "<secret>"
		}
		return t
	}
	return v
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return strings.TrimSpace(s)
}
