package server

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// oplogStoreBody is a body like those bench-soak's writers PUT: an oplog
// store naming its S3 secret key, with a uri of about uriBytes.
func oplogStoreBody(uriBytes int) []byte {
	return []byte(`{"id": "soak-w1-s1", "acceptedTos": true, "pathStyleAccessEnabled": true, ` +
		`"s3BucketEndpoint": "https://s3.example.com", "s3BucketName": "b", "s3MaxConnections": 42, ` +
		`"sseEnabled": false, "uri": "mongodb://` + strings.Repeat("m", uriBytes) + `", "awsSecretKey": "k"}`)
}

func BenchmarkRedactBody(b *testing.B) {
	for _, c := range []struct {
		name string
		body []byte
	}{
		{"oplogStore60KB", oplogStoreBody(60 << 10)},
		{"oplogStoreSmall", oplogStoreBody(20)},
		{"noSecret", []byte(`{"acknowledgedUntil": "2026-02-01T00:00:00Z", "acknowledgementComment": "looking"}`)},
		{"keysBeyondASCII", []byte(`{` + strings.Repeat(`"é": 1, "\u00e9": 2, `, 10000) + `"a": 0}`)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.body)))
			b.ReportAllocs()
			for b.Loop() {
				if redactBody(c.body) == nil {
					b.Fatal("not redacted")
				}
			}
		})
	}
}

// TestRedactBodyOfLargeStrings: a string is skipped in one pass, however
// long it is and however many escapes it holds; the figures of
// BenchmarkRedactBody say how fast.
func TestRedactBodyOfLargeStrings(t *testing.T) {
	long := strings.Repeat("m", 1<<20)
	quotes := strings.Repeat(`\"`, 100000)
	backslashes := strings.Repeat(`\\`, 100000)
	escapedKey := strings.Repeat(`\u0061`, 100000)
	for _, c := range []struct{ in, want string }{
		{`{"uri": "` + long + `", "awsSecretKey": "k"}`, `{"uri":"` + long + `","awsSecretKey":"<redacted>"}`},
		{`{"awsSecretKey": "` + long + `", "uri": "u"}`, `{"awsSecretKey":"<redacted>","uri":"u"}`},
		{`{"a": "` + quotes + `", "password": "` + quotes + `"}`, `{"a":"` + quotes + `","password":"<redacted>"}`},
		{`{"a": "` + backslashes + `", "password": "` + backslashes + `"}`, `{"a":"` + backslashes + `","password":"<redacted>"}`},
		{`{"` + quotes + `": 1, "apiKey": [1]}`, `{"` + quotes + `":1,"apiKey":"<redacted>"}`},
		{`{"` + escapedKey + `": 1, "apiKey": 2}`, `{"` + escapedKey + `":1,"apiKey":"<redacted>"}`},
	} {
		got := string(redactBody([]byte(c.in)))
		if got != c.want {
			t.Errorf("redactBody(%.60s…) = %.80s…, want %.80s…", c.in, got, c.want)
		}
	}
}

// TestRedactBodyOfDeepNesting: secrets are found at any depth the JSON
// decoder accepts, and values nested as deep are skipped whole.
func TestRedactBodyOfDeepNesting(t *testing.T) {
	const depth = 4000 // 8000 levels: the decoder refuses over 10,000
	deep := strings.Repeat(`[{"a": `, depth) + `{"password": "p"}` + strings.Repeat(`}]`, depth)
	want := strings.Repeat(`[{"a":`, depth) + `{"password":"<redacted>"}` + strings.Repeat(`}]`, depth)
	if got := string(redactBody([]byte(deep))); got != want {
		t.Errorf("a deep secret: got %.80s…", got)
	}
	hidden := `{"privateKey": ` + strings.Repeat(`[{"x": "]}"}, `, depth) + `0` + strings.Repeat(`]`, depth) + `, "b": 1}`
	if got := string(redactBody([]byte(hidden))); got != `{"privateKey":"<redacted>","b":1}` {
		t.Errorf("a deep secret value: got %.80s…", got)
	}
	if !json.Valid([]byte(deep)) || !json.Valid([]byte(hidden)) {
		t.Fatal("the test's bodies are not JSON")
	}
}

// TestRedactBodyAllocatesAFewTimes: however large the body and however
// many tokens or escapes it holds, redacting it allocates the result and
// at most a scratch buffer, grown when redactions lengthen the body. The
// pool mostly lends one grown already, but the race detector makes it
// drop some, and then the buffer grows again: a few times, not a time a
// token. The count is the process's, and a collection empties the pool:
// the least of three rounds is taken, so that what the other tests'
// goroutines allocate meanwhile, and the collections it brings, do not
// count.
func TestRedactBodyAllocatesAFewTimes(t *testing.T) {
	for _, body := range [][]byte{
		oplogStoreBody(1 << 20),
		[]byte(`{"a": "` + strings.Repeat(`\"`, 100000) + `", "password": "p"}`),
		[]byte(`[` + strings.Repeat(`{"a": 1, "apiKey": 2}, `, 10000) + `0]`),
		// Keys beyond ASCII, or escaped, are folded without decoding them.
		[]byte(`{` + strings.Repeat(`"é": 1, "\u00e9": 2, "prİvateKey": 3, `, 10000) + `"a": 0}`),
	} {
		if n := fewestAllocs(8, func() { redactBody(body) }); n > 8 {
			t.Errorf("redactBody(%.40s…) allocates %v times", body, n)
		}
	}
}

// fewestAllocs is the fewest allocations f made in a run, tried again (up to
// five times) while over limit: AllocsPerRun counts the whole process, so
// goroutines of other tests still winding down (a server's engine loop, a
// closing connection) can only add to a try, never take from it.
func fewestAllocs(limit float64, f func()) float64 {
	fewest := testing.AllocsPerRun(20, f)
	for try := 1; try < 5 && fewest > limit; try++ {
		fewest = min(fewest, testing.AllocsPerRun(20, f))
	}
	return fewest
}

// TestRedactBodyNestsAsDeepAsEncodingJSON: a body is JSON to the journal
// exactly when it is to encoding/json, which refuses containers nested
// over 10,000 deep.
func TestRedactBodyNestsAsDeepAsEncodingJSON(t *testing.T) {
	for _, depth := range []int{maxJSONDepth - 1, maxJSONDepth, maxJSONDepth + 1} {
		for _, body := range []string{
			strings.Repeat("[", depth) + strings.Repeat("]", depth),
			strings.Repeat(`{"a":`, depth-1) + `{}` + strings.Repeat("}", depth-1),
			strings.Repeat(`{"password":[`, depth/2) + strings.Repeat("]}", depth/2) + strings.Repeat(" ", depth%2),
		} {
			if got, want := redactBody([]byte(body)) != nil, json.Valid([]byte(body)); got != want {
				t.Errorf("depth %d, %.20s…: kept %v, encoding/json reads it %v", depth, body, got, want)
			}
		}
	}
}

// TestSecretFieldsFitTheRedactor: isSecretKey folds only ASCII in place,
// and stops at maxSecretName bytes.
func TestSecretFieldsFitTheRedactor(t *testing.T) {
	for f := range secretFields {
		if len(f) > maxSecretName || strings.IndexFunc(f, func(r rune) bool { return r >= utf8.RuneSelf }) >= 0 {
			t.Errorf("secret field %q is longer than %d or not ASCII", f, maxSecretName)
		}
		if !isSecretKey([]byte(`"` + strings.ToUpper(f) + `"`)) {
			t.Errorf("%q is not found a secret", strings.ToUpper(f))
		}
	}
}
