package server

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/store"
	"github.com/omctl/omctl/internal/store/fixture"
)

// fuzzServer is one server for a whole fuzz run, and a way to sign
// requests to it without a network.
type fuzzServer struct {
	s  *Server
	nc atomic.Int64
}

func newFuzzServer(f *testing.F) *fuzzServer {
	fx, err := fixture.ParseFixtures("fixture", []byte(fixtureJSON))
	if err != nil {
		f.Fatal(err)
	}
	s, err := New(Options{Fixtures: fx, Clock: store.VirtualClock(start)})
	if err != nil {
		f.Fatal(err)
	}
	return &fuzzServer{s: s}
}

// serve sends one request as the owner and checks the answer is never a
// 5xx and always carries the error body when it is an error.
func (z *fuzzServer) serve(t *testing.T, req *http.Request) *httptest.ResponseRecorder {
	t.Helper()
	nonce := z.s.digest.Nonce()
	req.Header.Set("Authorization", signed("owner", "owner-secret", req.Method, req.URL.RequestURI(), nonce, int(z.nc.Add(1))))
	rec := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		z.s.ServeHTTP(rec, req)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s %s: no answer", req.Method, req.URL)
	}
	if rec.Code >= 500 {
		t.Fatalf("%s %s answered %d: %s", req.Method, req.URL, rec.Code, rec.Body)
	}
	if rec.Code >= 400 && rec.Code != 401 && !bytes.Contains(rec.Body.Bytes(), []byte(`"errorCode"`)) {
		t.Fatalf("%s %s: %d without the error body: %s", req.Method, req.URL, rec.Code, rec.Body)
	}
	return rec
}

// pick maps any fuzzed number to an index below n.
func pick(which, n int) int { return int(uint(which) % uint(n)) }

func FuzzListQuery(f *testing.F) {
	for _, q := range []string{"pageNum=4611686018427387905&itemsPerPage=2", "pageNum=0", "itemsPerPage=501", "status=OPEN&pageNum=2",
		"createdOnOrAfter=2025-12-01&createdOnOrBefore=2025-12-31", "pretty=true&envelope=maybe", "pageNum=-1&status=x", "%zz"} {
		for i := range listPaths {
			f.Add(i, q)
		}
	}
	z := newFuzzServer(f)
	f.Fuzz(func(t *testing.T, which int, query string) {
		req, err := http.NewRequest("GET", apiBase+listPaths[pick(which, len(listPaths))]+"?"+query, nil)
		if err != nil {
			return
		}
		z.serve(t, req)
	})
}

// writePaths are the endpoints that read a body.
var writePaths = []struct{ method, path string }{
	{"PATCH", "/groups/" + projA + "/alerts/" + alertHost},
	{"PUT", "/groups/" + projA + "/alertConfigs/" + cfgHost},
	{"PATCH", "/groups/" + projA + "/alertConfigs/" + cfgHost},
	{"PUT", "/globalAlertConfigs/" + gcfg},
	{"PATCH", "/groups/" + projA + "/backupConfigs/" + clusterA},
	{"PATCH", "/groups/" + projA + "/clusters/" + clusterA + "/snapshots/" + snapOK},
	{"POST", "/admin/backup/oplog/s3Configs"},
	{"PUT", "/admin/backup/snapshot/s3Configs/blocks1"},
	{"POST", "/groups/" + projA + "/apiKeys"},
	{"POST", "/orgs/" + orgA + "/apiKeys/" + keyListed + "/accessList"},
}

func FuzzRequestBody(f *testing.F) {
	for _, b := range []string{`{"acknowledgedUntil": "2026-02-01T00:00:00Z"}`, `{"enabled": null}`, `{"enabled": true}`,
		`{"eventTypeName": "HOST_DOWN", "notifications": [{"typeName": "EMAIL", "delayMin": 153722867280913}]}`,
		`[{"ipAddress": "::ffff:127.0.0.1"}, {"cidrBlock": "10.0.0.0/8"}]`, `{"desc": "k", "roles": ["GROUP_OWNER"]}`,
		`{"expires": "2026-03-01T00:00:00Z"}`, `{"statusName": null, "deploymentConfigs": [{}]}`, `[]`, `null`, `{"a":`, "\x00",
		`{"id": "x", "acceptedTos": true, "pathStyleAccessEnabled": true, "s3BucketEndpoint": "e", "s3BucketName": "b", "s3MaxConnections": 1e300, "sseEnabled": false, "uri": "u"}`} {
		for i := range writePaths {
			f.Add(i, b)
		}
	}
	z := newFuzzServer(f)
	f.Fuzz(func(t *testing.T, which int, body string) {
		w := writePaths[pick(which, len(writePaths))]
		req := httptest.NewRequest(w.method, apiBase+w.path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		z.serve(t, req)
	})
}

func FuzzDigestHeader(f *testing.F) {
	for _, h := range []string{`Digest username="owner", realm="MMS Public API", nonce="x", uri="/", qop=auth, nc=00000001, cnonce="c", response="r"`,
		`Digest `, `Digest username=`, `Basic b3duZXI6c2VjcmV0`, `Digest username="owner", nc=ffffffffffffffff, qop=auth, response="", nonce=""`,
		`Digest algorithm=SHA-256, username="owner"`, strings.Repeat(`Digest a="b", `, 100)} {
		f.Add(h)
	}
	z := newFuzzServer(f)
	f.Fuzz(func(t *testing.T, header string) {
		req := httptest.NewRequest("GET", apiBase+"/globalAlerts", nil)
		req.Header.Set("Authorization", header)
		rec := httptest.NewRecorder()
		z.s.ServeHTTP(rec, req)
		if rec.Code != 401 {
			t.Fatalf("header %q let a request in: %d", header, rec.Code)
		}
	})
}

func FuzzFixtures(f *testing.F) {
	f.Add([]byte(fixtureJSON))
	f.Add([]byte(`{"apiKeys": [{"publicKey": "k", "privateKey": "p", "accessList": {"ipAddress": "1.2.3.4"}}]}`))
	f.Add([]byte(`{"alerts": [{"id": "5f1a00000000000000000001", "groupId": "x"}]}`))
	f.Add([]byte(`{"projects": [{"id": "5e2b00000000000000000001", "orgId": 7}]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fx, err := fixture.ParseFixtures("f.json", data)
		if err != nil {
			if strings.Contains(err.Error(), "goroutine") {
				t.Fatalf("internal error text: %v", err)
			}
			return
		}
		// What is accepted must start.
		if _, err := New(Options{Fixtures: fx, Clock: store.VirtualClock(start)}); err != nil {
			t.Fatalf("accepted fixtures do not start: %v", err)
		}
	})
}
