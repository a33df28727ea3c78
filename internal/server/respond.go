package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store"
)

// reqCtx is what every handler knows about its request.
type reqCtx struct {
	r      *http.Request
	s      *Server
	caller *store.Principal
	// st is the data while the handler runs under the store's lock.
	st       *store.State
	pretty   bool
	envelope bool

	// body is the request body, read in full before the data lock is
	// taken; bodyErr says why it could not be.
	body    []byte
	bodyErr *apiError

	// The answer is built here and sent by flush, after the lock is gone.
	header http.Header
	status int
	out    []byte
}

func (c *reqCtx) scheme() string {
	if c.r.TLS != nil {
		return "https"
	}
	return "http"
}

// baseURL is scheme://host/api/public/v1.0 as the client reached us.
func (c *reqCtx) baseURL() string { return c.scheme() + "://" + c.r.Host + apiBase }

func (c *reqCtx) selfHref() string {
	u := url.URL{Scheme: c.scheme(), Host: c.r.Host, Path: c.r.URL.Path, RawQuery: c.r.URL.RawQuery}
	return u.String()
}

func link(href, rel string) map[string]any { return map[string]any{"href": href, "rel": rel} }

func (c *reqCtx) writeJSON(status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if c.pretty {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		c.s.logf("encoding response: %v", err)
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"error":500,"reason":"Internal Server Error","detail":"response could not be encoded"}`)
	}
	c.header.Set("Content-Type", "application/json")
	c.status, c.out = status, buf.Bytes()
}

// flush sends the answer built by the handler.
func (c *reqCtx) flush(w http.ResponseWriter) {
	if c.status == 0 {
		c.fail(errUnexpected())
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(c.out)))
	w.WriteHeader(c.status)
	w.Write(c.out)
}

// ok writes one resource, in an envelope when asked.
func (c *reqCtx) ok(doc map[string]any) {
	if c.envelope {
		c.writeJSON(http.StatusOK, map[string]any{"status": http.StatusOK, "content": doc})
		return
	}
	c.writeJSON(http.StatusOK, doc)
}

// fail writes an error answer.
func (c *reqCtx) fail(err *apiError) {
	c.writeJSON(err.status, err.body())
}

// list writes a list envelope: items are the page's items, total the size
// of the whole result, and the links carry every query parameter.
func (c *reqCtx) list(items []map[string]any, total int, p store.Page) {
	raws := make([][]byte, len(items))
	for i, d := range items {
		raws[i] = rules.EncodeJSON(d)
	}
	c.listRaw(raws, total, p)
}

// listRaw writes a list of items already encoded, copying their bytes once.
func (c *reqCtx) listRaw(items [][]byte, total int, p store.Page) {
	links := []any{link(c.selfHref(), "self")}
	pageLink := func(n int) string {
		q := c.r.URL.Query()
		q.Set("pageNum", strconv.Itoa(n))
		q.Set("itemsPerPage", strconv.Itoa(p.Size))
		return c.scheme() + "://" + c.r.Host + c.r.URL.Path + "?" + q.Encode() // the API's lists and the controls' alike
	}
	if p.Num > 1 {
		links = append(links, link(pageLink(p.Num-1), "previous"))
	}
	if p.Offset()+len(items) < total && len(items) > 0 {
		links = append(links, link(pageLink(p.Num+1), "next"))
	}
	size := 64
	for _, it := range items {
		size += len(it) + 1
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+512))
	buf.WriteString(`{"links":`)
	buf.Write(rules.EncodeJSON(links))
	buf.WriteString(`,"results":[`)
	for i, it := range items {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(it)
	}
	buf.WriteString(`],`)
	if c.envelope {
		buf.WriteString(`"status":200,`)
	}
	buf.WriteString(`"totalCount":`)
	buf.WriteString(strconv.Itoa(total))
	buf.WriteByte('}')
	c.writeRaw(http.StatusOK, buf.Bytes())
}

// okRaw writes one resource already encoded, in an envelope when asked.
func (c *reqCtx) okRaw(b []byte) {
	if c.envelope {
		b = slices.Concat([]byte(`{"content":`), b, []byte(`,"status":200}`))
	}
	c.writeRaw(http.StatusOK, b)
}

// writeRaw answers with JSON already encoded (compact), indented when asked.
func (c *reqCtx) writeRaw(status int, b []byte) {
	if c.pretty {
		var out bytes.Buffer
		json.Indent(&out, b, "", "  ")
		b = out.Bytes()
	}
	c.header.Set("Content-Type", "application/json")
	c.status, c.out = status, append(b, '\n')
}
