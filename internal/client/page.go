package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Page is one page of a list as the server sent it.
type Page struct {
	Number int
	Body   []byte
	// Results are the items, each exactly as the server sent it.
	Results []json.RawMessage
	// TotalCount is the server's `totalCount`, or len(Results) when the
	// answer has none (HasTotal false).
	TotalCount int
	HasTotal   bool
	// HasNext says the answer links a `next` page.
	HasNext bool
	// IsList is false for an answer that is not a list (no `results`),
	// such as a single resource fetched with `omctl api --paginate`.
	IsList bool
}

type pageShape struct {
	Results    []json.RawMessage `json:"results"`
	TotalCount *int              `json:"totalCount"`
	Links      []struct {
		Rel string `json:"rel"`
	} `json:"links"`
	// Content is set when the server wraps answers (envelope=true).
	Content json.RawMessage `json:"content"`
}

// ParsePage splits a list body into its items, total count and links. The
// items keep the server's bytes. An answer wrapped in an envelope is
// unwrapped. A JSON object without `results` is a page with no items and
// IsList false.
func ParsePage(body []byte) (*Page, error) {
	if t := bytes.TrimLeft(body, " \t\r\n"); len(t) > 0 && t[0] != '{' && json.Valid(body) {
		return &Page{Body: body}, nil // an array or a scalar: not a list page
	}
	var env pageShape
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, errNotList(err)
	}
	if env.Results == nil && len(env.Content) > 0 && env.Content[0] == '{' {
		var inner pageShape
		if err := json.Unmarshal(env.Content, &inner); err != nil {
			return nil, errNotList(err)
		}
		inner.Content = nil
		env = inner
	}
	p := &Page{Body: body, Results: env.Results, IsList: env.Results != nil}
	if env.TotalCount != nil {
		p.TotalCount, p.HasTotal = *env.TotalCount, true
	} else {
		p.TotalCount = len(env.Results)
	}
	for _, l := range env.Links {
		if l.Rel == "next" {
			p.HasNext = true
		}
	}
	return p, nil
}

func errNotList(err error) error {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return fmt.Errorf("the answer is not a list: its %q is a JSON %s", typeErr.Field, typeErr.Value)
	}
	return fmt.Errorf("the server sent invalid JSON: %v", err)
}
