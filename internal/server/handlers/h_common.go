package handlers

import (
	"net/url"
	"strings"
)

// resourceHref is the self link of a resource path under the base URL.
func (c *Ctx) resourceHref(parts ...string) string {
	escaped := make([]string, len(parts))
	for i, p := range parts {
		escaped[i] = url.PathEscape(p)
	}
	return c.BaseURL() + "/" + strings.Join(escaped, "/")
}
