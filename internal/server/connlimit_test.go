package server

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/server/faults"
)

// rawGet sends a GET of /_omctl/health on c and reads the answer.
func rawGet(t *testing.T, c net.Conn, br *bufio.Reader) *http.Response {
	t.Helper()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Write([]byte("GET /_omctl/health HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp
}

func TestConnectionsBeyondTheCapAreAnswered503AndClosed(t *testing.T) {
	s := newEnv(t).s
	ts := httptest.NewUnstartedServer(s)
	ts.Listener = faults.LimitConnections(ts.Listener, 2, nil)
	ts.Start()
	t.Cleanup(ts.Close)
	addr := ts.Listener.Addr().String()
	dial := func() (net.Conn, *bufio.Reader) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c, bufio.NewReader(c)
	}
	kept := make([]net.Conn, 2)
	readers := make([]*bufio.Reader, 2)
	for i := range kept {
		kept[i], readers[i] = dial()
		if r := rawGet(t, kept[i], readers[i]); r.StatusCode != 200 {
			t.Fatalf("connection %d: %s", i, r.Status)
		}
	}
	extra, br := dial()
	r := rawGet(t, extra, br)
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if r.StatusCode != 503 || r.Header.Get("Retry-After") != "1" || body["errorCode"] != "SERVICE_UNAVAILABLE" || body["error"] != float64(503) {
		t.Errorf("beyond the cap: %s %v %v", r.Status, r.Header, body)
	}
	if n, err := br.Read(make([]byte, 1)); n != 0 || err == nil {
		t.Errorf("the refused connection stayed open: %d %v", n, err)
	}
	for i := range kept {
		if r := rawGet(t, kept[i], readers[i]); r.StatusCode != 200 {
			t.Errorf("an open connection was not served again: %s", r.Status)
		}
	}
	// A connection closed gives its place back.
	kept[0].Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, br := dial()
		r := rawGet(t, c, br)
		if r.StatusCode == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a closed connection's place was not given back: %s", r.Status)
		}
		c.Close()
		time.Sleep(10 * time.Millisecond)
	}
}

// With TLS the cap is beneath it: served connections are TLS as net/http
// knows them, and a refused one gets its 503 over TLS.
func TestConnectionCapOverTLS(t *testing.T) {
	cert, _, err := SelfSignedCert("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	conf := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := NewHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS == nil {
			w.WriteHeader(500)
		}
	}))
	go hs.Serve(tls.NewListener(faults.LimitConnections(raw, 1, conf), conf))
	t.Cleanup(func() { hs.Close() })
	dial := func() (net.Conn, *bufio.Reader) {
		c, err := tls.Dial("tcp", raw.Addr().String(), &tls.Config{InsecureSkipVerify: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c, bufio.NewReader(c)
	}
	first, br := dial()
	if r := rawGet(t, first, br); r.StatusCode != 200 {
		t.Fatalf("the first connection: %s", r.Status)
	}
	second, br2 := dial()
	if r := rawGet(t, second, br2); r.StatusCode != 503 || r.Header.Get("Retry-After") != "1" {
		t.Errorf("beyond the cap: %s %v", r.Status, r.Header)
	}
	if r := rawGet(t, first, br); r.StatusCode != 200 {
		t.Errorf("the first connection again: %s", r.Status)
	}
}
