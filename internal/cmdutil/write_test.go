package cmdutil

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestMergeUpdateKeepsWhatChangesDoNotName(t *testing.T) {
	current := map[string]any{"id": "p", "labelFilter": []any{"us"}, "kmipClientCertPath": "/k", "links": []any{"self"}, "updated": "t"}
	body, err := MergeUpdate(current, map[string]any{"labelFilter": []string{"eu"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(body)
	if want := `{"id":"p","kmipClientCertPath":"/k","labelFilter":["eu"]}`; string(got) != want {
		t.Errorf("body = %s, want %s", got, want)
	}
	if current["labelFilter"].([]any)[0] != "us" {
		t.Error("MergeUpdate changed the resource as read")
	}
}

func TestMergeUpdateRefusesRedactedSecrets(t *testing.T) {
	current := map[string]any{"cloudSecretKey": "********", "notifications": []any{map[string]any{"typeName": "WEBHOOK", "webhookUrl": "https://h.example.com/****"}}}
	_, err := MergeUpdate(current, map[string]any{"labels": []any{"x"}}, map[string]string{"cloudSecretKey": "--secret-key"})
	var fe *FlagError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "cloudSecretKey, notifications[0].webhookUrl only redacted") || !strings.Contains(err.Error(), "give --secret-key") {
		t.Errorf("err = %v", err)
	}
	// A secret the changes give in full is sent.
	body, err := MergeUpdate(map[string]any{"cloudSecretKey": "********"}, map[string]any{"cloudSecretKey": "real"}, nil)
	if err != nil || body["cloudSecretKey"] != "real" {
		t.Errorf("body = %v, err = %v", body, err)
	}
}

func TestMaskPair(t *testing.T) {
	before := map[string]any{"webhookUrl": "https://h.example.com/a/b", "webhookSecret": "one", "n": 1.0}
	after := map[string]any{"webhookUrl": "https://h.example.com/a/c", "webhookSecret": "one", "n": 2.0}
	mb, ma := MaskPair("", before, after)
	b, a := mb.(map[string]any), ma.(map[string]any)
	if b["webhookUrl"] != "https://h.example.com/****" || a["webhookUrl"] != "https://h.example.com/**** (changed)" {
		t.Errorf("urls %v %v", b["webhookUrl"], a["webhookUrl"])
	}
	if b["webhookSecret"] != "********" || a["webhookSecret"] != "********" || a["n"] != 2.0 {
		t.Errorf("masked %v %v", b, a)
	}
	if before["webhookSecret"] != "one" {
		t.Error("MaskPair changed its input")
	}
	if _, ma := MaskPair("", nil, map[string]any{"privateKey": "k"}); ma.(map[string]any)["privateKey"] != "********" {
		t.Errorf("creation: %v", ma)
	}
}

func TestChangedFieldsAndUnapplied(t *testing.T) {
	before := map[string]any{"a": 1, "b": []any{"x"}, "links": 1, "gone": true}
	after := map[string]any{"a": 1.0, "b": []any{"y"}, "links": 2, "new": "v"}
	if got := strings.Join(ChangedFields(before, after), ","); got != "b,gone,new" {
		t.Errorf("changed %s", got)
	}
	// A field the answer shows otherwise was not applied; one it does
	// not show at all is no sign either way (the API's object for the
	// answer need not hold it).
	sent := map[string]any{"b": []string{"y"}, "a": 2, "cloudSecretKey": "s", "labels": []string{"us"}}
	differ, unshown := Unapplied(sent, after)
	if got := strings.Join(differ, ","); got != "a" {
		t.Errorf("unapplied %s", got)
	}
	if got := strings.Join(unshown, ","); got != "labels" {
		t.Errorf("unshown %s", got)
	}
}

func TestPreview(t *testing.T) {
	w := Write{Method: "PUT", Path: "/x", Body: map[string]any{"cloudSecretKey": "new-secret", "n": 2},
		Before: json.RawMessage(`{"cloudSecretKey":"old-secret","n":1,"links":[]}`), After: map[string]any{"cloudSecretKey": "new-secret", "n": 2}}
	var text, js bytes.Buffer
	if err := w.Preview(&text, "table"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"PUT /x\n", "--- current\n+++ after\n", `-  "n": 1`, `+  "n": 2`, `+  "cloudSecretKey": "******** (changed)",`} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("no %q in\n%s", want, text.String())
		}
	}
	if err := w.Preview(&js, "json"); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil || doc["dryRun"] != true || doc["method"] != "PUT" || doc["body"].(map[string]any)["cloudSecretKey"] != "********" {
		t.Errorf("json preview %s: %v", js.String(), err)
	}
	for _, out := range []string{text.String(), js.String()} {
		if strings.Contains(out, "secret-") {
			t.Errorf("a secret shows:\n%s", out)
		}
	}
	if got := ResourceDiff(map[string]any{"a": 1}, map[string]any{"a": 1}); got != "No change.\n" {
		t.Errorf("no change: %q", got)
	}
}

func TestPreviewAsYAML(t *testing.T) {
	var out bytes.Buffer
	w := Write{Method: "DELETE", Path: "/x", Before: json.RawMessage(`{"id":"a","serviceKey":"abcdefgh"}`)}
	if err := w.Preview(&out, "yaml"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"---\n", "dryRun: true\n", "method: DELETE\n", "after: null\n", "serviceKey: '********'"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
}
