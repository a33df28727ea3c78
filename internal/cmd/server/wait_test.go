package server

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/config"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
)

func TestNewCmdWait(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		check   func(*WaitOptions) bool
	}{
		{nil, "", func(o *WaitOptions) bool { return o.URL == "" && o.Timeout == 30*time.Second }},
		{[]string{"--url", "http://127.0.0.1:8080", "--timeout", "2s"}, "", func(o *WaitOptions) bool {
			return o.URL == "http://127.0.0.1:8080" && o.Timeout == 2*time.Second
		}},
		{[]string{"--timeout", "0s"}, "invalid --timeout 0s: want a positive duration", nil},
		{[]string{"http://x"}, "unknown command", nil},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *WaitOptions
		cmd := NewCmdWait(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *WaitOptions) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || got != nil {
				t.Errorf("%v: %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got == nil || !tt.check(got) {
			t.Errorf("%v: %v %+v", tt.args, err, got)
		}
	}
}

func waitOpts(url string, timeout time.Duration, settings *config.Settings) *WaitOptions {
	ios, _, _, _ := iostreams.Test()
	if settings == nil {
		settings = &config.Settings{}
	}
	return &WaitOptions{IO: ios, URL: url, Timeout: timeout, Every: 20 * time.Millisecond,
		Settings: func() (*config.Settings, error) { return settings, nil }}
}

// Nothing listens, or what listens never answers, or answers 503: wait
// gives up at its timeout, not before, and says why.
func TestWaitGivesUpAtItsTimeout(t *testing.T) {
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	refused := "http://" + closed.Addr().String()
	closed.Close()
	silent, _ := net.Listen("tcp", "127.0.0.1:0") // accepts, never answers
	defer silent.Close()
	busy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) }))
	defer busy.Close()
	var asked atomic.Int32
	stalling := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if asked.Add(1) > 1 {
			<-r.Context().Done() // then answers no more
			return
		}
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer stalling.Close()
	for _, tt := range []struct {
		url     string
		timeout time.Duration
		want    string
	}{
		{refused, 300 * time.Millisecond, refused + "/_omctl/health did not answer 200 within 300ms: connection refused: nothing listens there"},
		{"http://" + silent.Addr().String() + "/api/public/v1.0", 300 * time.Millisecond, "/_omctl/health did not answer 200 within 300ms: it did not answer"},
		// A try cut short by the timeout does not hide the 503 of an
		// earlier one (the second lets the first answer on a loaded machine).
		{busy.URL, time.Second, "/_omctl/health did not answer 200 within 1s: it answered 503"},
		{stalling.URL, time.Second, "/_omctl/health did not answer 200 within 1s: it answered 503"},
	} {
		began := time.Now()
		err := waitRun(context.Background(), waitOpts(tt.url, tt.timeout, nil))
		took := time.Since(began)
		if err == nil || !strings.Contains(err.Error(), tt.want) || cmdutil.ExitCode(err) != cmdutil.ExitError {
			t.Errorf("%s: %v, want %q", tt.url, err, tt.want)
		}
		if took < tt.timeout || took > tt.timeout+5*time.Second {
			t.Errorf("%s: gave up after %s, want the timeout", tt.url, took)
		}
	}
}

// wait returns once health answers 200, at the profile's base URL when
// no --url is given (its API path left out), and stops at Ctrl-C.
func TestWaitReturnsOnceTheServerIsReady(t *testing.T) {
	var asks atomic.Int32
	var path atomic.Value
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path.Store(r.URL.Path)
		if asks.Add(1) < 3 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte(`{"status":"ok"}`))
	}))
	defer ts.Close()
	opts := waitOpts("", 10*time.Second, &config.Settings{Values: config.Values{BaseURL: ts.URL + "/api/public/v1.0"}})
	if err := waitRun(context.Background(), opts); err != nil || asks.Load() != 3 || path.Load() != "/_omctl/health" {
		t.Errorf("wait: %v after %d tries at %v", err, asks.Load(), path.Load())
	}

	t.Setenv("OMCTL_SERVER_LISTEN", "127.0.0.1:0")
	err := waitRun(context.Background(), waitOpts("", time.Second, nil))
	if err == nil || !strings.Contains(err.Error(), "no server to wait for: give --url (OMCTL_SERVER_LISTEN=127.0.0.1:0 names no fixed address)") || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("no URL: %v", err)
	}
	err = waitRun(context.Background(), waitOpts("ftp://x", time.Second, nil))
	if err == nil || !strings.Contains(err.Error(), "invalid --url") {
		t.Errorf("bad URL: %v", err)
	}

	ctx, cancel := context.WithCancelCause(context.Background())
	time.AfterFunc(100*time.Millisecond, func() { cancel(cmdutil.ErrInterrupted) })
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	closed.Close()
	if err := waitRun(ctx, waitOpts("http://"+closed.Addr().String(), time.Minute, nil)); !errors.Is(err, cmdutil.ErrInterrupted) {
		t.Errorf("Ctrl-C: %v", err)
	}
}

// Without --url or a profile, wait asks where omctl server listens in the
// same environment: the image's health check follows its port.
func TestWaitFindsTheServerOfItsEnvironment(t *testing.T) {
	for _, tt := range []struct {
		env      map[string]string
		url      string
		insecure bool
	}{
		{nil, "http://127.0.0.1:8080", false},
		{map[string]string{"OMCTL_SERVER_LISTEN": "0.0.0.0:9090"}, "http://127.0.0.1:9090", false},
		{map[string]string{"OMCTL_SERVER_LISTEN": "[::]:9090"}, "http://127.0.0.1:9090", false},
		{map[string]string{"OMCTL_SERVER_LISTEN": ":9090"}, "http://127.0.0.1:9090", false},
		{map[string]string{"OMCTL_SERVER_LISTEN": "10.0.0.5:9090", "OMCTL_SERVER_TLS_SELF_SIGNED": "true"}, "https://10.0.0.5:9090", true},
		{map[string]string{"OMCTL_SERVER_TLS_CERT": "/certs/c.pem"}, "https://127.0.0.1:8080", true},
	} {
		url, insecure, err := localServer(func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok })
		if err != nil || url != tt.url || insecure != tt.insecure {
			t.Errorf("%v: %s %v %v, want %s %v", tt.env, url, insecure, err, tt.url, tt.insecure)
		}
	}
	if _, _, err := localServer(func(string) (string, bool) { return "nonsense", true }); err == nil {
		t.Error("a listen address without a port")
	}
}
