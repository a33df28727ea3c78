package handlers

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/jsonlex"
	"github.com/omctl/omctl/internal/server/httpx"
)

// project checks the {project_id} of the path and the caller's right to
// do need there, in the order the API checks them: form, existence, access.
func (c *Ctx) project(need access) (string, error) {
	id := c.R.PathValue("project_id")
	if !api.IsObjectID(id) {
		return "", httpx.NotFound("INVALID_GROUP_ID", fmt.Sprintf("An invalid group ID %s was specified.", id), id)
	}
	if c.St.Project(id) == nil {
		return "", httpx.NotFound("GROUP_NOT_FOUND", fmt.Sprintf("No group with ID %s exists.", id), id)
	}
	if err := authorize(c.Caller, need, id, ""); err != nil {
		return "", err
	}
	return id, nil
}

// global checks the caller's right to do need on a non-project endpoint.
func (c *Ctx) global(need access) error {
	return authorize(c.Caller, need, "", "")
}

// resourceHref is the self link of a resource path under the base URL.
func (c *Ctx) resourceHref(parts ...string) string {
	escaped := make([]string, len(parts))
	for i, p := range parts {
		escaped[i] = url.PathEscape(p)
	}
	return c.BaseURL() + "/" + strings.Join(escaped, "/")
}

// withLinks returns a shallow copy of d with a self link (and extra links).
func withLinks(d doc, self string, extra ...map[string]any) doc {
	out := make(doc, len(d)+1)
	for k, v := range d {
		out[k] = v
	}
	links := []any{link(self, "self")}
	for _, l := range extra {
		links = append(links, l)
	}
	out["links"] = links
	return out
}

// appendWithSelfLink appends an encoded object with a self link added.
func appendWithSelfLink(dst, raw []byte, self string) []byte {
	dst = jsonlex.AppendString(openSelfLink(dst, raw), self)
	return append(dst, closeSelfLink...)
}

// openSelfLink appends an encoded object but its closing brace, then its
// self link up to the href's value: the caller appends the href as a JSON
// string, then closeSelfLink.
func openSelfLink(dst, raw []byte) []byte {
	dst = append(dst, raw[:len(raw)-1]...)
	if len(raw) > 2 {
		dst = append(dst, ',')
	}
	return append(dst, `"links":[{"href":`...)
}

// closeSelfLink ends what openSelfLink began, after the href.
const closeSelfLink = `,"rel":"self"}]}`
