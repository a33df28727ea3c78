package server

import (
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/omctl/omctl/internal/api"
)

// TestEveryEndpointHasAHandlerOfItsName: a newcomer greps an endpoint's
// name (AckAlert, AddFault) and finds its command, client call, route and
// handler (ackAlert, addFault), so every endpoint and test control of
// internal/api is served by a handler bearing its name.
func TestEveryEndpointHasAHandlerOfItsName(t *testing.T) {
	s := newEnv(t).s
	handlers := s.h.Endpoints()
	for e, h := range s.controlHandlers() {
		handlers[e] = h.h
	}
	// GetHealth is served without credentials, by an http.HandlerFunc.
	funcName := func(f any) string {
		name := runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
		return strings.TrimSuffix(name[strings.LastIndexByte(name, '.')+1:], "-fm")
	}
	if got := funcName(s.getHealth); got != "getHealth" {
		t.Errorf("GetHealth is served by %s", got)
	}
	all := append(slices.Clone(api.Endpoints), api.Controls...)
	if len(handlers)+1 != len(all) {
		t.Errorf("%d handlers for %d endpoints and controls", len(handlers)+1, len(all))
	}
	for _, e := range all {
		if e == api.GetHealth {
			continue
		}
		h, ok := handlers[e]
		if !ok {
			t.Errorf("%s (%s %s) has no handler", e.Name, e.Method, e.Pattern)
			continue
		}
		if name, want := funcName(h), string(unicode.ToLower(rune(e.Name[0])))+e.Name[1:]; name != want {
			t.Errorf("%s is served by %s, want %s", e.Name, name, want)
		}
	}
}

// TestEveryEndpointIsServed: each endpoint and test control of
// internal/api reaches a handler of the server, by its method and path:
// the answer is neither 405 nor the 404 of a path the server does not
// know. A control answers with the API's error body, and 405 names the
// methods it takes.
func TestEveryEndpointIsServed(t *testing.T) {
	e := newEnv(t)
	const someID = "5e2b0c2e8f9d4b0012349999"
	for _, ep := range append(slices.Clone(api.Endpoints), api.Controls...) {
		var values []string
		for range strings.Count(ep.Pattern, "{") {
			values = append(values, someID)
		}
		if ep == api.StreamEvents {
			continue // it stays open: TestTheStreamSendsAnAlertRaisedWhileItListens reads it
		}
		if ep == api.GetUI {
			values = []string{"app.js"}
		}
		if ep == api.RemoveFault {
			added := e.doRaw("owner", "POST", api.AddFault.Path(), `{"path": "/nothing/here"}`)
			e.expect(added, 200, "")
			values = []string{added.str("id")}
		}
		path := ep.Path(values...)
		if !strings.HasPrefix(path, api.ControlBase+"/") {
			path = api.BasePath + path
		}
		body := ""
		if ep.Method != "GET" && ep.Method != "DELETE" {
			body = "{}"
		}
		r := e.doRaw("owner", ep.Method, path, body)
		if r.status == 405 || r.status == 404 && strings.HasPrefix(r.str("detail"), "Cannot find resource "+path) {
			t.Errorf("%s (%s %s) is not served: %d %s", ep.Name, ep.Method, path, r.status, r.raw)
		}
	}
	r := e.doRaw("owner", "PUT", api.GetClock.Path(), "{}")
	e.expect(r, 405, "METHOD_NOT_ALLOWED")
	if allow := r.header.Get("Allow"); allow != "GET, POST" {
		t.Errorf("Allow: %q", allow)
	}
	if r := e.doRaw("owner", "GET", api.ListFaults.Path()+"?pretty=maybe", ""); r.status != 400 {
		t.Errorf("a control took pretty=maybe: %d %s", r.status, r.raw)
	}
}
