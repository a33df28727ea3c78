package client

import (
	"context"
	"net/http"
)

type headersKey struct{}

// WithHeaders returns ctx carrying headers to add to every request made
// with it (omctl api -H); they replace the client's own of the same name.
func WithHeaders(ctx context.Context, h http.Header) context.Context {
	return context.WithValue(ctx, headersKey{}, h)
}

func addHeaders(req *http.Request) {
	h, _ := req.Context().Value(headersKey{}).(http.Header)
	for k, v := range h {
		req.Header[k] = v
	}
}
