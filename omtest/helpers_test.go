package omtest_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// answer is what a request got back.
type answer struct {
	status int
	header http.Header
	body   map[string]any
	raw    string
}

// call sends a request with client and reads its JSON answer; a transport
// error fails the test.
func call(t testing.TB, client *http.Client, method, url, body string) answer {
	t.Helper()
	var payload io.Reader
	if body != "" {
		payload = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, payload)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	a := answer{status: res.StatusCode, header: res.Header, raw: string(data)}
	json.Unmarshal(data, &a.body)
	return a
}

// must is call that fails the test unless the answer has the status want.
func must(t testing.TB, client *http.Client, want int, method, url, body string) answer {
	t.Helper()
	a := call(t, client, method, url, body)
	if a.status != want {
		t.Fatalf("%s %s answered %d, want %d: %s", method, url, a.status, want, a.raw)
	}
	return a
}

// failure runs fn with a testing.TB that records what fails the test
// instead of failing it, runs the cleanups fn registered, and returns the
// message of Fatalf ("" when fn did not fail). Like the real one, Fatalf
// ends fn's goroutine.
func failure(t *testing.T, fn func(tb testing.TB)) string {
	t.Helper()
	tb := &recordingTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(tb)
	}()
	<-done
	for i := len(tb.cleanups) - 1; i >= 0; i-- {
		tb.cleanups[i]()
	}
	return tb.fatal
}

type recordingTB struct {
	testing.TB
	mu       sync.Mutex
	fatal    string
	cleanups []func()
}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Fatalf(format string, args ...any) {
	r.mu.Lock()
	r.fatal = fmt.Sprintf(format, args...)
	r.mu.Unlock()
	runtime.Goexit()
}

func (r *recordingTB) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }

func (r *recordingTB) Cleanup(f func()) {
	r.mu.Lock()
	r.cleanups = append(r.cleanups, f)
	r.mu.Unlock()
}
