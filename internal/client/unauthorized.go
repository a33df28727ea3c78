package client

import (
	"bytes"
	"context"
	"io"
	"net/http"

	"github.com/icholy/digest"
)

// DigestTransport authenticates requests over next with HTTP digest
// credentials, reusing one challenge with an increasing nonce count and
// repeating a request once when the server answers 401 (stale=true).
func DigestTransport(user, secret string, next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return &restore401Body{next: &digest.Transport{Username: user, Password: secret, Transport: &keep401Body{next: next}}}
}

// The digest transport drains and closes the body of every 401 before it
// looks for a challenge, and returns that spent response when there is none
// (a 401 USER_UNAUTHORIZED for a missing role carries no challenge). These
// two transports keep a copy of each 401 body and put it back on top, so
// the caller still reads the API's error.

type unauthorizedBodyKey struct{}

type unauthorizedBody struct{ data []byte }

// keep401Body sits below the digest transport.
type keep401Body struct{ next http.RoundTripper }

func (t *keep401Body) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := t.next.RoundTrip(req)
	if err != nil || res.StatusCode != http.StatusUnauthorized {
		return res, err
	}
	data, readErr := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	res.Body.Close()
	if readErr != nil {
		return nil, readErr
	}
	if holder, ok := req.Context().Value(unauthorizedBodyKey{}).(*unauthorizedBody); ok {
		holder.data = data
	}
	res.Body = io.NopCloser(bytes.NewReader(data))
	return res, nil
}

// restore401Body sits above the digest transport.
type restore401Body struct{ next http.RoundTripper }

func (t *restore401Body) RoundTrip(req *http.Request) (*http.Response, error) {
	holder := &unauthorizedBody{}
	req = req.WithContext(context.WithValue(req.Context(), unauthorizedBodyKey{}, holder))
	res, err := t.next.RoundTrip(req)
	if err == nil && res.StatusCode == http.StatusUnauthorized && holder.data != nil {
		res.Body = io.NopCloser(bytes.NewReader(holder.data))
	}
	return res, err
}
