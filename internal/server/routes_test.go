package server

import (
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unicode"

	"github.com/omctl/omctl/internal/api"
)

// TestEveryEndpointHasAHandlerOfItsName: a newcomer greps an endpoint's
// name (AckAlert) and finds its command, client call, route and handler
// (ackAlert), so every endpoint of internal/api is served by a handler
// bearing its name.
func TestEveryEndpointHasAHandlerOfItsName(t *testing.T) {
	handlers := newEnv(t).s.endpointHandlers()
	if len(handlers) != len(api.Endpoints) {
		t.Errorf("%d handlers for %d endpoints", len(handlers), len(api.Endpoints))
	}
	for _, e := range api.Endpoints {
		h, ok := handlers[e]
		if !ok {
			t.Errorf("%s (%s %s) has no handler", e.Name, e.Method, e.Pattern)
			continue
		}
		name := runtime.FuncForPC(reflect.ValueOf(h).Pointer()).Name()
		name = strings.TrimSuffix(name[strings.LastIndexByte(name, '.')+1:], "-fm")
		if want := string(unicode.ToLower(rune(e.Name[0]))) + e.Name[1:]; name != want {
			t.Errorf("%s is served by %s, want %s", e.Name, name, want)
		}
	}
}
