package handlers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/server/httpx"
	"github.com/omctl/omctl/internal/store/model"
)

// ReadRequestBody reads the whole body, at most maxBodyBytes of it, so
// that handlers never wait on the network.
func (c *Ctx) ReadRequestBody(w http.ResponseWriter) {
	if c.R.Body == nil || c.R.Body == http.NoBody {
		return
	}
	data, err := httpx.ReadBody(http.MaxBytesReader(w, c.R.Body, maxBodyBytes), c.R.ContentLength)
	c.Body = data
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			c.bodyErr = httpx.New(http.StatusRequestEntityTooLarge, "REQUEST_TOO_LARGE",
				fmt.Sprintf("The request body is larger than the %d bytes the server accepts.", tooBig.Limit), tooBig.Limit)
			return
		}
		c.bodyErr = httpx.BadRequest("INVALID_JSON", "The request body could not be read.")
	}
}

// Decoded reports whether the body was decoded already (before the data
// lock, for a change).
func (c *Ctx) Decoded() bool { return c.decoded != nil }

// decodedBody is what readBody answers.
type decodedBody struct {
	v   any
	err error
}

// ReadBody decodes the request body as JSON, keeping numbers exact. A
// body must say it is JSON: another Content-Type, or a Content-Encoding
// the server does not decode, is 415. The body is decoded once: a
// handler gets the value to change as it likes, as its only reader.
func (c *Ctx) ReadBody() (any, error) {
	if c.decoded == nil {
		v, err := c.decodeBody()
		c.decoded = &decodedBody{v, err}
	}
	return c.decoded.v, c.decoded.err
}

func (c *Ctx) decodeBody() (any, error) {
	if c.bodyErr != nil {
		return nil, c.bodyErr
	}
	data := c.Body
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, httpx.BadRequest("INVALID_JSON", "Received JSON is malformed: the body is empty.")
	}
	if err := checkJSONContent(c.R.Header); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, httpx.BadRequest("INVALID_JSON", "Received JSON is malformed: "+jsonProblem(err)+".")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, httpx.BadRequest("INVALID_JSON", "Received JSON is malformed: unexpected data after the JSON value.")
	}
	return v, nil
}

// checkJSONContent refuses a body that is not declared as plain JSON.
func checkJSONContent(h http.Header) error {
	if enc := h.Get("Content-Encoding"); enc != "" && !strings.EqualFold(enc, "identity") {
		return httpx.New(http.StatusUnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE",
			fmt.Sprintf("Content-Encoding %s is not supported: send the JSON body uncompressed.", enc), enc)
	}
	ct := h.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		if ct == "" {
			ct = "(none)"
		}
		return httpx.New(http.StatusUnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE",
			fmt.Sprintf("Content-Type %s is not supported: the body must be sent as application/json.", ct), ct)
	}
	return nil
}

// jsonProblem says what is wrong with a JSON text without Go's own words.
func jsonProblem(err error) string {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Sprintf("syntax error near byte %d", syn.Offset)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return "the JSON text ends early"
	}
	return "not a valid JSON text"
}

// ReadObject reads a body that must be one JSON object.
func (c *Ctx) ReadObject() (doc, error) {
	v, err := c.ReadBody()
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, httpx.BadRequest("INVALID_JSON", "Received JSON is malformed: the body must be a JSON object.")
	}
	return m, nil
}

// Page reads the paging of a list request.
func (c *Ctx) Page() (model.Page, error) {
	q := c.R.URL.Query()
	p := model.Page{Num: 1, Size: api.DefaultItemsPerPage}
	if v := q.Get("pageNum"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return p, httpx.InvalidQuery("pageNum", v, "pageNum must be a whole number from 1")
		}
		p.Num = n
	}
	if v := q.Get("itemsPerPage"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxItemsPerPage {
			return p, httpx.InvalidQuery("itemsPerPage", v, fmt.Sprintf("itemsPerPage must be a whole number from 1 to %d", maxItemsPerPage))
		}
		p.Size = n
	}
	return p, nil
}

// BoolQuery reads an optional boolean query parameter.
func (c *Ctx) BoolQuery(name string, def bool) (bool, error) {
	if c.R.URL.RawQuery == "" {
		return def, nil // as most requests come: no map to parse it into
	}
	v := c.R.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return def, httpx.InvalidQuery(name, v, name+" must be true or false")
	}
	return b, nil
}

// strictBool reads an optional boolean query parameter of the real
// service's lists: true or false, nothing else; empty is none.
func (c *Ctx) strictBool(name string, def bool) (bool, error) {
	switch v := c.R.URL.Query().Get(name); v {
	case "":
		return def, nil
	case "true":
		return true, nil
	case "false":
		return false, nil
	default:
		return def, httpx.InvalidQuery(name, v, name+" must be true or false")
	}
}

// listQuery checks the query of a list: its boolean parameters, then
// its paging (includeCount is accepted on every list).
func (c *Ctx) listQuery(bools ...string) (model.Page, map[string]bool, error) {
	flags := map[string]bool{}
	for _, name := range append(bools, "includeCount") {
		v, err := c.strictBool(name, true)
		if err != nil {
			return model.Page{}, nil, err
		}
		flags[name] = v
	}
	p, err := c.Page()
	return p, flags, err
}

// pageOf is one page of items, and how many there are in all.
func pageOf[T any](items []T, p model.Page) ([]T, int) {
	start := min(p.Offset(), len(items))
	end := min(start+p.Size, len(items))
	return items[start:end], len(items)
}
