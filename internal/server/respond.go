package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/store/engine"
	"github.com/omctl/omctl/internal/store/model"
)

// reqCtx is what every handler knows about its request.
type reqCtx struct {
	r      *http.Request
	s      *Server
	caller *model.Principal
	// st is the data while the handler runs under the store's lock; tx,
	// for a change, the write with the alert engine's commands.
	st       *model.State
	tx       *engine.Tx
	pretty   bool
	envelope bool

	// body is the request body, read in full before the data lock is
	// taken; bodyErr says why it could not be.
	body    []byte
	bodyErr error
	// decoded is body decoded as JSON (readBody), once; a change decodes
	// it before the data lock is taken (Server.locked).
	decoded *decodedBody
	// checked is what a check before the data lock found (beforeLock).
	checked *checkedBody

	// w is where the answer goes, for a handler that works longer than
	// the server's write timeout allows (keepWriting).
	w http.ResponseWriter

	// The answer is built here and sent by flush, after the lock is gone.
	header http.Header
	status int
	out    []byte
	// spare is a buffer of answerBuffer the answer was built in, given
	// back once sent.
	spare []byte
	// sent: the handler wrote its answer itself (a stream); flush
	// has nothing to send.
	sent bool
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
	c.header["Content-Type"] = jsonContentType
	c.status, c.out = status, buf.Bytes()
}

// keepWriting gives the answer the server's whole write timeout again,
// from now: a handler that works long but is still making progress (a
// clock move of a year) must not find its connection cut when it
// answers. (A reqCtx made without its writer, in tests, has no deadline
// to move.) The request's context is cancelled by the read timeout during
// such a handler: nothing on its path may depend on it.
func (c *reqCtx) keepWriting() {
	if c.w != nil {
		http.NewResponseController(c.w).SetWriteDeadline(time.Now().Add(writeTimeout))
	}
}

// flush sends the answer built by the handler.
func (c *reqCtx) flush(w http.ResponseWriter) {
	if c.sent {
		return
	}
	if c.status == 0 {
		c.fail(httpx.Unexpected())
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(c.out)))
	w.WriteHeader(c.status)
	w.Write(c.out)
	c.giveBackBuffer()
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
func (c *reqCtx) fail(err error) {
	a, expected := httpx.Answer(err)
	if !expected {
		c.s.logf("%s %s: %v", c.r.Method, c.r.URL.Path, err)
	}
	c.writeJSON(a.Status(), a.Body())
}

// list writes a list envelope: items are the page's items, total the size
// of the whole result, and the links carry every query parameter.
func (c *reqCtx) list(items []map[string]any, total int, p model.Page) {
	raws := make([][]byte, len(items))
	for i, d := range items {
		raws[i] = rules.EncodeJSON(d)
	}
	c.listRaw(raws, total, p)
}

// listRaw writes a list of items already encoded, copying their bytes once.
func (c *reqCtx) listRaw(items [][]byte, total int, p model.Page) {
	size := 0
	for _, it := range items {
		size += len(it) + 1
	}
	c.listAppend(len(items), size, total, p, func(b []byte, i int) []byte { return append(b, items[i]...) })
}

// listAppend writes a list of n items that appendItem writes straight into
// the answer, about size bytes in all.
func (c *reqCtx) listAppend(n, size, total int, p model.Page, appendItem func(b []byte, i int) []byte) {
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
	if p.Offset()+n < total && n > 0 {
		links = append(links, link(pageLink(p.Num+1), "next"))
	}
	buf := c.answerBuffer(size + n + 576)
	buf = append(buf, `{"links":`...)
	buf = append(buf, rules.EncodeJSON(links)...)
	buf = append(buf, `,"results":[`...)
	for i := range n {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendItem(buf, i)
	}
	buf = append(buf, `],`...)
	if c.envelope {
		buf = append(buf, `"status":200,`...)
	}
	buf = append(buf, `"totalCount":`...)
	buf = strconv.AppendInt(buf, int64(total), 10)
	buf = append(buf, '}')
	c.spare = buf
	c.writeRaw(http.StatusOK, buf)
}

// jsonContentType is the Content-Type of every answer, made once and
// shared, as the server's other fixed headers are (serveAPI).
var jsonContentType = []string{"application/json"}

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
	c.header["Content-Type"] = jsonContentType
	c.status, c.out = status, append(b, '\n')
}
