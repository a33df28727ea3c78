package server

import (
	"strings"
	"testing"
)

func TestNotificationsShowOnlyTheirFieldsRedacted(t *testing.T) {
	e := newEnv(t)
	r := e.do("owner", "GET", "/groups/"+projA+"/alertConfigs", nil)
	e.expect(r, 200, "")
	cfg := r.get("results", "0").(map[string]any)
	notes := cfg["notifications"].([]any)
	email := notes[0].(map[string]any)
	if email["serviceKey"] != nil || email["emailAddress"] != "a@example.com" {
		t.Errorf("EMAIL notification = %v", email)
	}
	if !strings.Contains(string(r.raw), `"delayMin":3,`) {
		t.Errorf("delayMin 3.0 not written as an integer: %s", r.raw)
	}
	chat := notes[1].(map[string]any)
	if chat["apiToken"] != "***********7890" || chat["channelName"] != "#a" {
		t.Errorf("CHAT_A = %v", chat)
	}
	hook := notes[2].(map[string]any)
	if hook["webhookUrl"] != "https://hooks.example.com/****" || hook["webhookSecret"] != "******" {
		t.Errorf("WEBHOOK = %v", hook)
	}
	if strings.Contains(string(r.raw), "s3cret") || strings.Contains(string(r.raw), "xoxb-1234567890") {
		t.Errorf("a secret leaked: %s", r.raw)
	}
	// HOST_DOWN is not a metric event: threshold shown, metricThreshold not.
	if cfg["threshold"] == nil || cfg["metricThreshold"] != nil {
		t.Errorf("thresholds = %v / %v", cfg["threshold"], cfg["metricThreshold"])
	}
}

func TestPutReplacesAndOmittedEnabledDisables(t *testing.T) {
	e := newEnv(t)
	path := "/groups/" + projA + "/alertConfigs/" + cfgHost
	body := map[string]any{"eventTypeName": "HOST_DOWN", "notifications": []any{map[string]any{"typeName": "SMS", "mobileNumber": "+1555", "delayMin": 1}}}
	r := e.do("monitor", "PUT", path, body)
	e.expect(r, 200, "")
	if r.get("enabled") != false || len(r.get("notifications").([]any)) != 1 || r.body["threshold"] != nil {
		t.Errorf("replaced = %s", r.raw)
	}
	r = e.do("monitor", "PATCH", path, map[string]any{"enabled": true})
	e.expect(r, 200, "")
	if r.get("enabled") != true || r.str("notifications", "0", "typeName") != "SMS" {
		t.Errorf("patched = %s", r.raw)
	}
	e.expect(e.do("monitor", "PATCH", path, map[string]any{}), 400, "MISSING_ATTRIBUTE")
	e.expect(e.do("monitor", "PATCH", path, map[string]any{"enabled": "yes"}), 400, "INVALID_JSON_ATTRIBUTE")
}

func TestPutKeepsSecretsSentBackRedacted(t *testing.T) {
	e := newEnv(t)
	path := "/groups/" + projA + "/alertConfigs/" + cfgHost
	cur := e.do("owner", "GET", path, nil)
	body := map[string]any{}
	for k, v := range cur.body {
		body[k] = v
	}
	body["enabled"] = false
	e.expect(e.do("monitor", "PUT", path, body), 200, "")
	cfgs := e.s.Fixtures().AlertConfigs
	var stored map[string]any
	for _, c := range cfgs {
		if c["id"] == cfgHost {
			stored = c
		}
	}
	notes := stored["notifications"].([]any)
	if notes[1].(map[string]any)["apiToken"] != "xoxb-1234567890" || notes[2].(map[string]any)["webhookSecret"] != "s3cret" {
		t.Errorf("secrets replaced by their redaction: %v", notes)
	}
}

func TestPutChecksItsBody(t *testing.T) {
	e := newEnv(t)
	path := "/groups/" + projA + "/alertConfigs/" + cfgHost
	n := func(m map[string]any) map[string]any {
		b := map[string]any{"eventTypeName": "HOST_DOWN", "notifications": []any{map[string]any{"typeName": "EMAIL", "emailAddress": "a@b"}}}
		for k, v := range m {
			b[k] = v
		}
		return b
	}
	for _, c := range []struct {
		body map[string]any
		code string
	}{
		{map[string]any{"notifications": []any{}}, "MISSING_ATTRIBUTE"},
		{map[string]any{"eventTypeName": "HOST_DOWN"}, "MISSING_ATTRIBUTE"},
		{n(map[string]any{"eventTypeName": "host down"}), "INVALID_ENUM_VALUE"},
		{n(map[string]any{"eventTypeName": "OUTSIDE_METRIC_THRESHOLD"}), "MISSING_ATTRIBUTE"},
		{n(map[string]any{"notifications": []any{map[string]any{"typeName": "CARRIER_PIGEON"}}}), "INVALID_ENUM_VALUE"},
		{n(map[string]any{"notifications": []any{map[string]any{"typeName": "WEBHOOK", "webhookSecret": "x"}}}), "MISSING_ATTRIBUTE"},
		{n(map[string]any{"notifications": []any{map[string]any{"typeName": "EMAIL", "delayMin": 1.5}}}), "INVALID_JSON_ATTRIBUTE"},
		{n(map[string]any{"metricThreshold": map[string]any{"metricName": "NOPE"}}), "INVALID_ENUM_VALUE"},
		{n(map[string]any{"threshold": map[string]any{"units": "FURLONGS"}}), "INVALID_ENUM_VALUE"},
		{n(map[string]any{"id": "5f2a0000000000000000ffff"}), "ATTRIBUTE_READ_ONLY"},
		{n(map[string]any{"enabled": 1}), "INVALID_JSON_ATTRIBUTE"},
		{n(map[string]any{"colour": "red"}), "INVALID_ATTRIBUTE"},
	} {
		r := e.do("monitor", "PUT", path, c.body)
		e.expect(r, 400, c.code)
	}
	// Sending its own id and groupId, links, created and typeName is fine.
	e.expect(e.do("monitor", "PUT", path, n(map[string]any{"id": cfgHost, "groupId": projA, "links": []any{}, "created": "x", "typeName": "HOST"})), 200, "")
	e.expect(e.do("monitor", "PUT", "/groups/"+projA+"/alertConfigs/5f2a0000000000000000ffff", n(nil)), 404, "ALERT_CONFIG_NOT_FOUND")
	e.expect(e.do("monitor", "PUT", "/groups/"+projA+"/alertConfigs/bad", n(nil)), 404, "INVALID_ALERT_CONFIG_ID")
}

func TestGlobalAlertConfigEnable(t *testing.T) {
	e := newEnv(t)
	r := e.do("owner", "PUT", "/globalAlertConfigs/"+gcfg, map[string]any{"enabled": false})
	e.expect(r, 200, "")
	if r.get("enabled") != false || r.get("forAllGroups") != true {
		t.Errorf("global config = %s", r.raw)
	}
	if r := e.do("owner", "GET", "/globalAlertConfigs", nil); r.get("results", "0", "enabled") != false {
		t.Errorf("not kept: %s", r.raw)
	}
	e.expect(e.do("owner", "PUT", "/globalAlertConfigs/"+gcfg, map[string]any{}), 400, "MISSING_ATTRIBUTE")
	e.expect(e.do("owner", "PUT", "/globalAlertConfigs/5f2b0000000000000000ffff", map[string]any{"enabled": true}), 404, "GLOBAL_ALERT_CONFIG_NOT_FOUND")
}
