package server

import (
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/omctl/omctl/internal/api"
)

// screenshot, when set, is where TestThePageInARealBrowser saves a
// picture of the page (make screenshot: docs/ui.png, in the README).
var screenshot = flag.String("screenshot", "", "save a PNG of the page to this file")

// findChromium is the browser the page is tested in: $OMCTL_CHROMIUM, or
// Debian's chromium on the PATH.
func findChromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("OMCTL_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium to test the page in: install Debian's chromium (make test-browser does) or set OMCTL_CHROMIUM")
	return ""
}

// browser is a headless Chromium driving one tab, with what the tab
// asked for and what its scripts complained of.
type browser struct {
	ctx      context.Context
	mu       sync.Mutex // guards what follows: the browser's goroutines add to it
	requests []string   // URLs the tab requested
	problems []string   // console errors and uncaught exceptions
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	exe := findChromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1200, 900),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("no-first-run", true), chromedp.Flag("disable-quic", true))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	b := &browser{}
	ctx, cancelTab := chromedp.NewContext(allocCtx, chromedp.WithListener(func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			b.mu.Lock()
			b.requests = append(b.requests, e.Request.URL)
			b.mu.Unlock()
		}
	}))
	t.Cleanup(func() { cancelTab(); cancelAlloc() })
	b.ctx = ctx
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Skipf("Chromium at %s does not start here (%v): the page is not tested", exe, err)
	}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == "error" || m.IsException() {
				b.mu.Lock()
				b.problems = append(b.problems, m.String())
				b.mu.Unlock()
			}
		}
	}()
	return b
}

func (b *browser) run(t *testing.T, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.mu.Lock()
		defer b.mu.Unlock()
		t.Fatalf("%s: %v\nthe page's errors: %q", what, err, b.problems)
	}
}

// eval is the value of a script expression in the page.
func eval[T any](t *testing.T, b *browser, expr string) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// waitFor waits until the page's script expression is true.
func (b *browser) waitFor(t *testing.T, what, expr string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !eval[bool](t, b, expr) {
		if time.Now().After(deadline) {
			text := eval[string](t, b, `document.body.innerText`)
			b.mu.Lock()
			defer b.mu.Unlock()
			t.Fatalf("%s: not seen in 20 s\nthe page's errors: %q\nthe page shows:\n%s", what, b.problems, text)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestThePageInARealBrowser opens GET /_omctl/ui/ in headless Chromium
// with the owner's key in the URL, as a person would, and checks what
// docs/server.md promises of it: an alert raised through the controls
// shows without a reload, with its notification and its webhook's
// delivery; the keyboard acknowledges it and the API agrees; nothing is
// asked of another host; and it fits a 400 px window.
func TestThePageInARealBrowser(t *testing.T) {
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer receiver.Close()
	e := newEnv(t)
	cfg := e.do("owner", "POST", "/groups/"+projA+"/alertConfigs", map[string]any{
		"eventTypeName": "MONITORING_AGENT_DOWN", "enabled": true,
		"notifications": []any{
			map[string]any{"typeName": "WEBHOOK", "webhookUrl": receiver.URL + "/hook", "webhookSecret": "browser-secret", "delayMin": 0},
			map[string]any{"typeName": "EMAIL", "emailAddress": "oncall@example.com", "delayMin": 0},
		}})
	e.expect(cfg, 200, "")
	b := newBrowser(t)
	u, _ := url.Parse(e.ts.URL)
	page := fmt.Sprintf("http://owner:owner-secret@%s/_omctl/ui/", u.Host)
	b.run(t, "open the page", chromedp.Navigate(page))
	b.waitFor(t, "the stream is followed", `document.getElementById("live").classList.contains("on")`)
	b.waitFor(t, "the fixture's alerts are listed", fmt.Sprintf(`!!document.querySelector('#alert-list li[data-id=%q]')`, alertHost))

	raised := e.doRaw("owner", "POST", "/_omctl/events",
		`{"groupId": "`+projA+`", "eventTypeName": "MONITORING_AGENT_DOWN", "target": {"hostnameAndPort": "browser:27017"}}`)
	e.expect(raised, 200, "")
	id := raised.str("alerts", "0", "id")
	card := fmt.Sprintf(`document.querySelector('#alert-list li[data-id=%q]')`, id)
	b.waitFor(t, "the raised alert shows without a reload", card+` !== null && `+card+`.innerText.includes("MONITORING_AGENT_DOWN")`)
	b.waitFor(t, "it is the newest alert", `document.querySelector('#alert-list li').dataset.id === `+fmt.Sprintf("%q", id))
	notes := fmt.Sprintf(`[...document.querySelectorAll('#notification-list li')].filter(li => li.innerText.includes(%q))`, id)
	b.waitFor(t, "its notifications show", notes+`.some(li => li.innerText.includes("alert.open") && li.innerText.includes("oncall@example.com"))`)
	b.waitFor(t, "its webhook's delivery shows", notes+`.some(li => li.innerText.includes("WEBHOOK") && li.innerText.includes("DELIVERED") && li.innerText.includes("answered 204"))`)
	b.waitFor(t, "the webhook's payload and signature show", notes+`.some(li => li.querySelector("details pre") &&
		li.querySelector("details pre").textContent.includes(`+fmt.Sprintf("%q", id)+`) && li.querySelector("details code"))`)
	checkSignature(t, e, id, "browser-secret")
	if eval[bool](t, b, `document.documentElement.outerHTML.includes("browser-secret")`) {
		t.Error("the page shows the webhook's secret")
	}

	// The keyboard acknowledges it: focus the button, press Enter.
	ack := fmt.Sprintf(`#alert-list li[data-id=%q] button[data-focus="ack:%s"]`, id, id)
	b.run(t, "acknowledge with the keyboard", chromedp.Focus(chromedp.CSS(ack)), chromedp.KeyEvent("\r"))
	b.waitFor(t, "the page shows the acknowledgement", card+`.innerText.includes("Unacknowledge")`)
	got := e.do("owner", "GET", "/groups/"+projA+"/alerts/"+id, nil)
	if got.str("acknowledgedUntil") == "" || got.str("acknowledgingUsername") != "owner" {
		t.Fatalf("the API does not show the page's acknowledgement: %s", got.raw)
	}
	b.waitFor(t, "the acknowledgement's notification shows", notes+`.some(li => li.innerText.includes("alert.acknowledge"))`)
	b.run(t, "unacknowledge with a click", chromedp.Click(chromedp.CSS(fmt.Sprintf(`#alert-list li[data-id=%q] button[data-focus="unack:%s"]`, id, id))))
	b.waitFor(t, "the page shows it unacknowledged", card+`.innerText.includes("Acknowledge") && !`+card+`.innerText.includes("Unacknowledge")`)
	if got := e.do("owner", "GET", "/groups/"+projA+"/alerts/"+id, nil); got.str("acknowledgedUntil") != "" {
		t.Fatalf("the API still shows the acknowledgement: %s", got.raw)
	}

	// The journal shows the page's own PATCH, redacted as the control is.
	b.waitFor(t, "the journal shows the acknowledgement", `[...document.querySelectorAll('#request-list li')].some(li => li.innerText.includes("PATCH"))`)

	if *screenshot != "" {
		b.run(t, "size the window for the picture", chromedp.EmulateViewport(1000, 640))
		time.Sleep(3500 * time.Millisecond) // the highlight of fresh cards fades
		png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(*screenshot, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// At a phone's width nothing runs off the side.
	b.run(t, "narrow the window", chromedp.EmulateViewport(400, 850))
	b.waitFor(t, "the page fits 400 px", `document.documentElement.scrollWidth <= 400`)
	b.checkOwnHostAndNoErrors(t, u.Host)
}

// checkOwnHostAndNoErrors checks that the tab asked only host, and that
// its scripts reported no error.
func (b *browser) checkOwnHostAndNoErrors(t *testing.T, host string) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, r := range b.requests {
		if ru, err := url.Parse(r); err != nil || ru.Host != host && ru.Scheme != "data" {
			t.Errorf("the page asked another host: %s", r)
		}
	}
	if len(b.problems) > 0 {
		t.Errorf("the page's scripts failed: %q", b.problems)
	}
}

// checkSignature checks that the webhook delivery of an alert shows the
// payload it sent and its signature, the HMAC of that payload by secret.
func checkSignature(t *testing.T, e *env, id, secret string) {
	t.Helper()
	sent := e.doRaw("owner", "GET", "/_omctl/notifications?typeName=WEBHOOK&payloads=true&alertId="+id, "")
	var list struct {
		Results []struct{ Delivery api.DeliveryState }
	}
	if json.Unmarshal(sent.raw, &list) != nil || len(list.Results) != 1 {
		t.Fatalf("the webhook's notification: %s", sent.raw)
	}
	mac := hmac.New(sha1.New, []byte(secret))
	mac.Write(list.Results[0].Delivery.Payload)
	if want := base64.StdEncoding.EncodeToString(mac.Sum(nil)); list.Results[0].Delivery.Signature != want {
		t.Errorf("the delivery's signature is not the HMAC of its payload: %s", sent.raw)
	}
}

// TestThePageNeedsTheOwnersCredentials: without credentials the page is
// the 401 challenge a browser asks for a key with, another key's
// credentials are refused, and the owner's get the page with a policy
// that lets it load nothing from another host.
func TestThePageNeedsTheOwnersCredentials(t *testing.T) {
	e := newEnv(t)
	expectChallenge(t, e.ts.URL+"/_omctl/ui/")
	e.expect(e.doRaw("reader", "GET", "/_omctl/ui/", ""), 401, "USER_UNAUTHORIZED")
	for _, asset := range []string{"", "app.js", "style.css"} {
		r := e.doRaw("owner", "GET", "/_omctl/ui/"+asset, "")
		if r.status != 200 || r.header.Get("Content-Security-Policy") != uiPolicy || r.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Fatalf("GET ui/%s: %d %v", asset, r.status, r.header)
		}
		for _, foreign := range []string{"http://", "https://", "//"} {
			if asset != "" && strings.Contains(string(r.raw), "src=\""+foreign) {
				t.Errorf("ui/%s loads from another host: %s", asset, foreign)
			}
		}
	}
	if ct := e.doRaw("owner", "GET", "/_omctl/ui/", "").header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("the page's Content-Type: %q", ct)
	}
	e.expect(e.doRaw("owner", "GET", "/_omctl/ui/nothing.js", ""), 404, "RESOURCE_NOT_FOUND")
	e.expect(e.doRaw("owner", "GET", "/_omctl/ui/?x=1", ""), 400, "INVALID_QUERY_PARAMETER")
	policy := map[string]string{}
	for _, d := range strings.Split(uiPolicy, ";") {
		f := strings.Fields(d)
		policy[f[0]] = strings.Join(f[1:], " ")
	}
	if policy["default-src"] != "'none'" || policy["script-src"] != "'self'" || policy["connect-src"] != "'self'" {
		t.Errorf("the policy lets the page load from elsewhere: %s", uiPolicy)
	}
}
