package journal

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestRedactBody(t *testing.T) {
	for in, want := range map[string]string{
		`{"privateKey": "k", "a": [1, {"PrivateKey": 2}], "n": 1.50}`:        `{"privateKey":"<redacted>","a":[1,{"PrivateKey":"<redacted>"}],"n":1.50}`,
		`{"z": "\u00e9\n", "a": {"password": {"x": [1]}, "b": []}, "c": {}}`: `{"z":"\u00e9\n","a":{"password":"<redacted>","b":[]},"c":{}}`,
		`[{"webhookSecret": null}]`:                                          `[{"webhookSecret":"<redacted>"}]`,
		`"plain"`:                                                            `"plain"`,
		`{"a": 1} {"b": 2}`:                                                  ``,
		`{`:                                                                  ``,
		``:                                                                   ``,
		// A URL's password, its @ written as it is or escaped; an escaped
		// backslash before u0040 writes no @.
		`{"uri": "mongodb://u:p@h", "u": "x:\/\/u:p\u0040h"}`: `{"uri":"mongodb://u:<redacted>@h","u":"x://u:<redacted>@h"}`,
		`{"uri": "u:p\\u0040h"}`:                              `{"uri":"u:p\\u0040h"}`,
		// A number too large for a float64 is still JSON.
		`{"apiKey": "k", "n": 1E400}`: `{"apiKey":"<redacted>","n":1E400}`,
		// Keys are folded as decoded: an escape, or the Kelvin sign.
		"{\"private\u212aey\": 1, \"p\\u0061ssword\": 2}": "{\"private\u212aey\":\"<redacted>\",\"p\\u0061ssword\":\"<redacted>\"}",
		// As strings.ToLower folds them: U+0130 to an i, escaped or not;
		// an escape that is half a surrogate pair, or é, is no secret's.
		"{\"pr\u0130vateKey\": 1, \"pr\\u0130vateKey\": 2, \"pr\\ud800vateKey\": 3, \"pr\u00e9vateKey\": 4}": "{\"pr\u0130vateKey\":\"<redacted>\",\"pr\\u0130vateKey\":\"<redacted>\",\"pr\\ud800vateKey\":3,\"pr\u00e9vateKey\":4}",
	} {
		if got := string(RedactBody([]byte(in))); got != want {
			t.Errorf("RedactBody(%s) = %s, want %s", in, got, want)
		}
	}
	var v any
	if err := json.Unmarshal(RedactBody([]byte(`{"x": {"serviceKey": "s"}}`)), &v); err != nil {
		t.Error(err)
	}
}

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
				if RedactBody(c.body) == nil {
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
		got := string(RedactBody([]byte(c.in)))
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
	if got := string(RedactBody([]byte(deep))); got != want {
		t.Errorf("a deep secret: got %.80s…", got)
	}
	hidden := `{"privateKey": ` + strings.Repeat(`[{"x": "]}"}, `, depth) + `0` + strings.Repeat(`]`, depth) + `, "b": 1}`
	if got := string(RedactBody([]byte(hidden))); got != `{"privateKey":"<redacted>","b":1}` {
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
		if n := fewestAllocs(8, func() { RedactBody(body) }); n > 8 {
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
			if got, want := RedactBody([]byte(body)) != nil, json.Valid([]byte(body)); got != want {
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
		out := RedactBody([]byte(body))
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

// redactByTokens is what RedactBody writes, built on encoding/json's
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
					out = append(out, `:"`+Redacted+`"`...)
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

// redactDecoded is what RedactBody means, on a decoded value. Of members
// named twice the last wins, as when decoding.
func redactDecoded(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if secretFields[strings.ToLower(k)] {
				t[k] = Redacted
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
