package handlers

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

// Ctx is what every handler knows about its request.
type Ctx struct {
	R      *http.Request
	s      *Handlers
	Caller *model.Principal
	// St is the data while the handler runs under the store's lock; Tx,
	// for a change, the write with the alert engine's commands.
	St       *model.State
	Tx       *engine.Tx
	Pretty   bool
	Envelope bool

	// Body is the request Body, read in full before the data lock is
	// taken; bodyErr says why it could not be.
	Body    []byte
	bodyErr error
	// decoded is Body decoded as JSON (ReadBody), once; a change decodes
	// it before the data lock is taken (the server's data lock).
	decoded *decodedBody
	// checked is what a check before the data lock found (BeforeLock).
	checked *checkedBody

	// W is where the answer goes, for a handler that works longer than
	// the server's write timeout allows (KeepWriting).
	W http.ResponseWriter

	// The answer is built here and sent by Flush, after the lock is gone.
	Header http.Header
	Status int
	Out    []byte
	// spare is a buffer of answerBuffer the answer was built in, given
	// back once sent.
	spare []byte
	// Sent: the handler wrote its answer itself (a stream); flush
	// has nothing to send.
	Sent bool
}

func (c *Ctx) scheme() string {
	if c.R.TLS != nil {
		return "https"
	}
	return "http"
}

// BaseURL is scheme://host/api/public/v1.0 as the client reached us.
func (c *Ctx) BaseURL() string { return c.scheme() + "://" + c.R.Host + apiBase }

func (c *Ctx) selfHref() string {
	u := url.URL{Scheme: c.scheme(), Host: c.R.Host, Path: c.R.URL.Path, RawQuery: c.R.URL.RawQuery}
	return u.String()
}

func link(href, rel string) map[string]any { return map[string]any{"href": href, "rel": rel} }

func (c *Ctx) WriteJSON(status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if c.Pretty {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		c.s.logf("encoding response: %v", err)
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"error":500,"reason":"Internal Server Error","detail":"response could not be encoded"}`)
	}
	c.Header["Content-Type"] = jsonContentType
	c.Status, c.Out = status, buf.Bytes()
}

// KeepWriting gives the answer the server's whole write timeout again,
// from now: a handler that works long but is still making progress (a
// clock move of a year) must not find its connection cut when it
// answers. (A Ctx made without its writer, in tests, has no deadline
// to move.) The request's context is cancelled by the read timeout during
// such a handler: nothing on its path may depend on it.
func (c *Ctx) KeepWriting() {
	if c.W != nil {
		http.NewResponseController(c.W).SetWriteDeadline(time.Now().Add(httpx.WriteTimeout))
	}
}

// Flush sends the answer built by the handler.
func (c *Ctx) Flush(w http.ResponseWriter) {
	if c.Sent {
		return
	}
	if c.Status == 0 {
		c.Fail(httpx.Unexpected())
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(c.Out)))
	w.WriteHeader(c.Status)
	w.Write(c.Out)
	c.giveBackBuffer()
}

// ok writes one resource, in an envelope when asked.
func (c *Ctx) ok(doc map[string]any) {
	if c.Envelope {
		c.WriteJSON(http.StatusOK, map[string]any{"status": http.StatusOK, "content": doc})
		return
	}
	c.WriteJSON(http.StatusOK, doc)
}

// Fail writes an error answer.
func (c *Ctx) Fail(err error) {
	a, expected := httpx.Answer(err)
	if !expected {
		c.s.logf("%s %s: %v", c.R.Method, c.R.URL.Path, err)
	}
	c.WriteJSON(a.Status(), a.Body())
}

// list writes a list envelope: items are the page's items, total the size
// of the whole result, and the links carry every query parameter.
func (c *Ctx) list(items []map[string]any, total int, p model.Page) {
	raws := make([][]byte, len(items))
	for i, d := range items {
		raws[i] = rules.EncodeJSON(d)
	}
	c.ListRaw(raws, total, p)
}

// ListRaw writes a list of items already encoded, copying their bytes once.
func (c *Ctx) ListRaw(items [][]byte, total int, p model.Page) {
	size := 0
	for _, it := range items {
		size += len(it) + 1
	}
	c.listAppend(len(items), size, total, p, func(b []byte, i int) []byte { return append(b, items[i]...) })
}

// listAppend writes a list of n items that appendItem writes straight into
// the answer, about size bytes in all.
func (c *Ctx) listAppend(n, size, total int, p model.Page, appendItem func(b []byte, i int) []byte) {
	links := []any{link(c.selfHref(), "self")}
	pageLink := func(n int) string {
		q := c.R.URL.Query()
		q.Set("pageNum", strconv.Itoa(n))
		q.Set("itemsPerPage", strconv.Itoa(p.Size))
		return c.scheme() + "://" + c.R.Host + c.R.URL.Path + "?" + q.Encode() // the API's lists and the controls' alike
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
	if c.Envelope {
		buf = append(buf, `"status":200,`...)
	}
	buf = append(buf, `"totalCount":`...)
	buf = strconv.AppendInt(buf, int64(total), 10)
	buf = append(buf, '}')
	c.spare = buf
	c.WriteRaw(http.StatusOK, buf)
}

// jsonContentType is the Content-Type of every answer, made once and
// shared, as the server's other fixed headers are (serveAPI).
var jsonContentType = []string{"application/json"}

// okRaw writes one resource already encoded, in an envelope when asked.
func (c *Ctx) okRaw(b []byte) {
	if c.Envelope {
		b = slices.Concat([]byte(`{"content":`), b, []byte(`,"status":200}`))
	}
	c.WriteRaw(http.StatusOK, b)
}

// WriteRaw answers with JSON already encoded (compact), indented when asked.
func (c *Ctx) WriteRaw(status int, b []byte) {
	if c.Pretty {
		var out bytes.Buffer
		json.Indent(&out, b, "", "  ")
		b = out.Bytes()
	}
	c.Header["Content-Type"] = jsonContentType
	c.Status, c.Out = status, append(b, '\n')
}

// LastBase remembers the base URL clients reach the server at, for the
// links of alerts sent by webhook.
func (c *Ctx) LastBase() { c.s.base.Store(c.BaseURL()) }
