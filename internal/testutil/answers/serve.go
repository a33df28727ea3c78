package answers

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/server"
	"github.com/omctl/omctl/internal/store"
	"github.com/omctl/omctl/internal/store/demo"
	"github.com/omctl/omctl/internal/store/fixture"
)

// DemoOwner is the demo data's GLOBAL_OWNER key.
const (
	DemoOwner        = "demoowner"
	DemoOwnerPrivate = "11111111-aaaa-4bbb-8ccc-000000000001"
)

// Clock is when the servers of these tests stand, so that alerts that
// open with time answer the same on both.
var Clock = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

// Serve starts an in-process server on f with its clock at Clock and
// returns its URL and a client signed in with the key given.
func Serve(t testing.TB, f *fixture.Fixtures, public, private string) (string, *client.Client) {
	t.Helper()
	s, err := server.New(server.Options{Fixtures: f, Clock: store.VirtualClock(Clock)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	c, err := client.New(client.Options{BaseURL: ts.URL, PublicKey: public, PrivateKey: private, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return ts.URL, c
}

// DemoHosts are the config-server hosts of the demo data, which no list
// names.
func DemoHosts() []string {
	var hosts []string
	for _, s := range demo.Fixtures(Clock).ConfigServerSnapshots {
		parts, _ := s["parts"].([]any)
		if len(parts) > 0 {
			if p, ok := parts[0].(map[string]any); ok {
				if h, ok := p["hostId"].(string); ok && !contains(hosts, h) {
					hosts = append(hosts, h)
				}
			}
		}
	}
	return hosts
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
