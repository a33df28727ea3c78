package client

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/url"
	"strconv"
)

// MaxItemsPerPage is the largest page the API serves (docs/api.md, Lists).
const MaxItemsPerPage = 500

// ListOptions are the query parameters every list endpoint shares.
type ListOptions struct {
	PageNum      int // 1-based; 0 means the server's default
	ItemsPerPage int // 0 means the server's default (100)
	// All walks every page from PageNum on.
	All bool
	// BackupJobsEnabledOnly is sent only when set, so the server's
	// per-endpoint default applies otherwise.
	BackupJobsEnabledOnly *bool
	// Query holds the endpoint's own parameters (status, dates, ...).
	Query url.Values
}

// Validate checks the page bounds before anything is sent.
func (o ListOptions) Validate() error {
	if o.PageNum < 0 {
		return fmt.Errorf("invalid page %d: pages start at 1", o.PageNum)
	}
	if o.ItemsPerPage < 0 || o.ItemsPerPage > MaxItemsPerPage {
		return fmt.Errorf("invalid limit %d: must be between 1 and %d", o.ItemsPerPage, MaxItemsPerPage)
	}
	return nil
}

func (o ListOptions) values(page int) url.Values {
	q := url.Values{}
	for k, v := range o.Query {
		q[k] = v
	}
	if page > 0 {
		q.Set("pageNum", strconv.Itoa(page))
	}
	if o.ItemsPerPage > 0 {
		q.Set("itemsPerPage", strconv.Itoa(o.ItemsPerPage))
	}
	if o.BackupJobsEnabledOnly != nil {
		q.Set("backupJobsEnabledOnly", strconv.FormatBool(*o.BackupJobsEnabledOnly))
	}
	return q
}

// Page is one page of a list as the server sent it.
type Page struct {
	Number     int
	Body       []byte
	Results    []json.RawMessage
	TotalCount int
	HasNext    bool
}

// Pages yields the pages of a list: one page, or with All every page until
// a page comes back empty, or the server offers no `next` link and every
// counted item has arrived.
func (c *Client) Pages(ctx context.Context, path string, opts ListOptions) iter.Seq2[*Page, error] {
	return func(yield func(*Page, error) bool) {
		if err := opts.Validate(); err != nil {
			yield(nil, err)
			return
		}
		page := opts.PageNum
		seen := 0
		for {
			body, err := c.Get(ctx, path, opts.values(page))
			if err != nil {
				yield(nil, err)
				return
			}
			p, err := ParsePage(body)
			if err != nil {
				yield(nil, fmt.Errorf("GET %s: %w", path, err))
				return
			}
			if page == 0 {
				page = 1
			}
			p.Number = page
			if !yield(p, nil) {
				return
			}
			seen += len(p.Results)
			if !opts.All || len(p.Results) == 0 || (!p.HasNext && seen >= p.TotalCount) {
				return
			}
			page++
		}
	}
}

// Items yields every item of the pages Pages would fetch.
func (c *Client) Items(ctx context.Context, path string, opts ListOptions) iter.Seq2[json.RawMessage, error] {
	return func(yield func(json.RawMessage, error) bool) {
		for p, err := range c.Pages(ctx, path, opts) {
			if err != nil {
				yield(nil, err)
				return
			}
			for _, item := range p.Results {
				if !yield(item, nil) {
					return
				}
			}
		}
	}
}

// ParsePage reads a list body.
func ParsePage(body []byte) (*Page, error) {
	var env struct {
		Results    []json.RawMessage `json:"results"`
		TotalCount *int              `json:"totalCount"`
		Links      []struct {
			Rel string `json:"rel"`
		} `json:"links"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, fmt.Errorf("the answer is not a list: %w", err)
	}
	p := &Page{Body: body, Results: env.Results}
	if env.TotalCount != nil {
		p.TotalCount = *env.TotalCount
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

// SinglePage yields a list body that came as the answer of a write call.
func SinglePage(body []byte) iter.Seq2[*Page, error] {
	return func(yield func(*Page, error) bool) {
		p, err := ParsePage(body)
		if p != nil {
			p.Number = 1
		}
		yield(p, err)
	}
}
