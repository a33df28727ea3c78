package server

import (
	"embed"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/omctl/omctl/internal/server/handlers"
	"github.com/omctl/omctl/internal/server/httpx"
)

// The page of omctl server (GET /_omctl/ui/, docs/server.md): plain HTML,
// CSS and a small script, embedded in the binary. It reads the API and
// the controls from the browser, with the credentials the browser was
// given for the page, and follows GET /_omctl/stream to update itself.
//
//go:embed ui
var uiFiles embed.FS

// uiPolicy keeps the page to what it was served with: its own script and
// style, requests to its own origin, nothing from another host, and no
// inline script that injected text could add.
const uiPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

var uiTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
}

// getUI serves the page and its assets (api.GetUI).
func (s *Server) getUI(c *handlers.Ctx) error {
	if err := onlyQuery(c); err != nil {
		return err
	}
	asset := c.R.PathValue("asset")
	if asset == "" {
		asset = "index.html"
	}
	data, err := fs.ReadFile(uiFiles, path.Join("ui", asset))
	kind, known := uiTypes[path.Ext(asset)]
	if err != nil || !known || strings.HasPrefix(asset, ".") {
		return httpx.ResourceNotFound(c.R.URL.Path)
	}
	h := c.Header
	h.Set("Content-Type", kind)
	h.Set("Content-Security-Policy", uiPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
	c.Status, c.Out = http.StatusOK, data
	return nil
}
