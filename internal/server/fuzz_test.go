package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
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
	nonce := z.s.nonces.issue()
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

// FuzzRedactBody: a body is kept when it is one JSON value, as valid JSON
// meaning the same with every secret field's value redacted, and written
// byte for byte as redactByTokens writes it.
func FuzzRedactBody(f *testing.F) {
	for _, b := range []string{`{"privateKey": "k", "a": [1, {"PrivateKey": 2}]}`, `{"priv\u0061teKey": "k"}`,
		`[{"webhookUrl": {"x": ["y"]}}, "z", 1.5e3, true, null]`, `{"a": "\"password\": 1"}`, `{"a":`, ` `, `{} {}`,
		// Escaped quotes and backslashes, in keys and values, around
		// the eight bytes the scanner reads at a time.
		`{"a\"b": "c\\", "d\\\"": "\"", "password": "x\\\"y", "1234567\"": "12345678\\"}`,
		`{"passw\\ord": 1, "password\\": 2, "\\password": 3, "pass\"word": 4}`,
		`["0123456789abcdef0123456789\\", "\u00e9\u00E9\/\b\f\n\r\t", "\ud83d\ude00"]`,
		// Secrets in arrays of objects, and secrets whose value is a
		// container holding brackets, quotes and secrets of its own.
		`[{"a": [{"apiKey": "k"}, {"b": {"webhookSecret": "s"}}]}, [{"serviceKey": [{"apiKey": 1}]}]]`,
		`{"privateKey": {"password": "p", "a": [1, {"b": "}]\"{["}]}, "apiKey": [], "password": -1.5e-3, "webhookSecret": null, "serviceKey": true, "x": 0}`,
		// Keys spelled with escapes, or with other letters that fold
		// to a secret's: the Kelvin sign folds to a k.
		`{"\u0070assword": 1, "p\u0061sswor\u0064x": 2, "\u0050ASSWORD": 3, "pass\u0077ord": {"x": 1}}`,
		`{"\u00e9": 1, "passw\u00f6rd": 2, "private\u212aey": 3, "private\u004bey": 5}`,
		"{\"private\u212aey\": 4, \"PRIVATE\u212aEY\": [1]}",
		// Secrets' names as values, not keys.
		`{"a": "password", "b": ["apiKey", {"c": "privateKey"}], "password": "privateKey", "d": ["password", 1]}`,
		strings.Repeat(`[{"a": `, 64) + `{"password": [[[1]]]}` + strings.Repeat(`}]`, 64),
		"\t{ \"password\" :\n \"p\" ,\r\n \"a\" : [ 1 , { } , [ ] ] }\n ",
		`[0, -0, 1.5e+10, 2E-3, -12.0e5, 1e1, 0.0]`, `"\u12G4"`, `"\x"`, "\"a\x01\"", `01`, `1.`, `-`, `1e`, `.5`,
		`{"a" 1}`, `{"a":1,}`, `[1,]`, `tru`, `nul`, `{"password":}`, `{"password": 1 2}`, `["a"]]`, `[}`, `{]`, "\xef\xbb\xbf{}",
		"\"\xff\xfe\"", `{"password": "unterminated}`, `{"password`, `1E700`, `{"password": 1e400, "n": -1E700}`} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, body string) {
		out := redactBody([]byte(body))
		if valid := json.Valid([]byte(body)) && strings.TrimSpace(body) != ""; valid != (out != nil) {
			t.Fatalf("redactBody(%q) = %q", body, out)
		}
		if want := redactByTokens([]byte(body)); !bytes.Equal(out, want) {
			t.Fatalf("redactBody(%q) = %q, want %q", body, out, want)
		}
		if out == nil {
			return
		}
		want, err := decodeNumbers([]byte(body))
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeNumbers(out)
		if err != nil {
			t.Fatalf("redactBody(%q) = %q: %v", body, out, err)
		}
		if !reflect.DeepEqual(redactDecoded(want), got) {
			t.Fatalf("redactBody(%q) = %q", body, out)
		}
	})
}

// decodeNumbers decodes a JSON value keeping its numbers' text: a number
// too large for a float64 is still JSON.
func decodeNumbers(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	return v, dec.Decode(&v)
}

// redactByTokens is what redactBody writes, built on encoding/json's
// compactor and decoder: slow, an allocation per token, but plain. It
// was redactBody until make bench-soak found it costly, but for numbers,
// now kept as text: it lost a body holding both a secret and a number
// too large for a float64.
func redactByTokens(data []byte) json.RawMessage {
	var compact bytes.Buffer
	compact.Grow(len(data))
	if len(bytes.TrimSpace(data)) == 0 || json.Compact(&compact, data) != nil {
		return nil
	}
	type container struct {
		object  bool
		members int  // written so far
		wantKey bool // an object's next token is a key
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	out := make([]byte, 0, len(data))
	var open []container
	var at int64 // where the bytes of the next token start
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil
		}
		raw := bytes.TrimLeft(data[at:dec.InputOffset()], " \t\r\n,:")
		at = dec.InputOffset()
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			open = open[:len(open)-1]
			out = append(out, byte(d))
			continue
		}
		if n := len(open); n > 0 {
			c := &open[n-1]
			switch {
			case c.wantKey:
				if c.members > 0 {
					out = append(out, ',')
				}
				c.members++
				out = append(out, raw...)
				if key, _ := tok.(string); secretFields[strings.ToLower(key)] {
					var skipped json.RawMessage
					if dec.Decode(&skipped) != nil {
						return nil
					}
					at = dec.InputOffset()
					out = append(out, `:"`+redacted+`"`...)
					continue
				}
				c.wantKey = false
				continue
			case c.object:
				out = append(out, ':')
				c.wantKey = true
			default:
				if c.members > 0 {
					out = append(out, ',')
				}
				c.members++
			}
		}
		if d, ok := tok.(json.Delim); ok {
			open = append(open, container{object: d == '{', wantKey: d == '{'})
			out = append(out, byte(d))
			continue
		}
		out = append(out, raw...)
	}
	return bytes.Clone(out)
}

// redactDecoded is what redactBody means, on a decoded value. Of members
// named twice the last wins, as when decoding.
func redactDecoded(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if secretFields[strings.ToLower(k)] {
				t[k] = redacted
			} else {
				t[k] = redactDecoded(e)
			}
		}
	case []any:
		for i, e := range t {
			t[i] = redactDecoded(e)
		}
	}
	return v
}
