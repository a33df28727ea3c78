package model

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// splitSeeds are fixture data the fast path takes, and data it must
// leave to the decoder.
var splitSeeds = []string{
	fixturesWith(`"alerts": [` + checkedAlert + `, ` + withMember("id", `"5f1a0000000000000000000a"`) + `]`),
	fixturesWith(`"globalAlerts": [`+withMember("groupId", `""`)+"]", `"alerts": []`, `"users": [{"username": "u", "x": [1, {"y": "]}\"\\"}]}]`),
	" \n{\t\"orgs\" : [ {\"id\":\"5e2b0c2e8f9d4b0012340001\",\"name\":\"o\\\"}]\"} ] } \r\n",
	fixturesWith(`"alerts": [` + withMember("hostId", `"h\"]}\\"`) + `]`),
	`{}`, `{"orgs":[]}`, `{"orgs":[1]}`, `{"orgs":[{},]}`, `{"orgs":[{}]} x`, `{"\u006frgs":[]}`, `{"orgs":[{"a":1}}`,
	`{"orgs":[{"a":"\"}]`, `{"alerts":[{"id":1},{"id":2}]}`, `{"orgs":[{"a":1}],"orgs":[{"b":2}]}`, `[]`, `{"orgs":{}}`,
	`{"orgs":[{"a":1]]}`, `{"orgs":[{"a":tru}]}`, `{"orgs":[{"a":1}]`, "\ufeff{}",
}

// FuzzSplitFixturesAgreesWithTheDecoder: what the fast path takes, read
// in blocks of any size and by reads of any length, is what the decoder
// reads from the same data, alert for alert and byte for byte.
func FuzzSplitFixturesAgreesWithTheDecoder(f *testing.F) {
	for _, s := range splitSeeds {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(7))
	}
	f.Fuzz(func(t *testing.T, data []byte, size uint8) {
		var r io.Reader = bytes.NewReader(data)
		if size%2 == 1 {
			r = iotest.OneByteReader(r)
		}
		split, ok := splitFixtures(r, 1+int(size)%64)
		if !ok {
			return // read again by the decoder
		}
		again := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
		decoded, err := decodeFixtures("f.json", bytes.NewReader(data), again)
		if err != nil {
			t.Fatalf("%q: the fast path takes it, the decoder says %v", data, err)
		}
		if !reflect.DeepEqual(split, decoded) {
			t.Fatalf("%q: the fast path reads\n%+v\nthe decoder\n%+v", data, split, decoded)
		}
	})
}

// The fast path takes fixtures as files hold them, spaced or not, in
// blocks smaller than an alert or larger than the file; what it leaves,
// the decoder reads, naming what is wrong.
func TestSplitFixturesTakesWhatFilesHold(t *testing.T) {
	for i, data := range splitSeeds[:4] {
		for _, size := range []int{1, 5, 64, readBlockSize} {
			if _, ok := splitFixtures(strings.NewReader(data), size); !ok {
				t.Errorf("seed %d in blocks of %d: left to the decoder", i, size)
			}
		}
	}
	data := generatedFixture(3000)
	f, ok := splitFixtures(iotest.HalfReader(bytes.NewReader(data)), 4096)
	if !ok || len(f.Alerts) != 3000 || f.Alerts[2999].ID != "5f1a00000000000000000bb7" {
		t.Fatalf("a generated fixture: taken %v", ok)
	}
	// An alert a rule refuses is named by the decoder's reading.
	bad := bytes.Replace(data, []byte(`"id":"5f1a000000000000000009c4","groupId":"`+projA+`","eventTypeName":"HOST_DOWN","status":"OPEN"`),
		[]byte(`"id":"5f1a000000000000000009c4","groupId":"`+projA+`","eventTypeName":"HOST_DOWN","status":"OPENED"`), 1)
	if _, err := ParseFixtures("f.json", bad); err == nil || !strings.HasPrefix(err.Error(), "f.json: alerts[2500]: ") {
		t.Errorf("an alert of a wrong status: %v", err)
	}
}
