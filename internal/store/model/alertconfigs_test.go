package model

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/demo"
)

func TestAlertConfigReadsItsFieldsOnce(t *testing.T) {
	cfg := newAlertConfig(doc{
		"id": "c1", "groupId": "p1", "eventTypeName": "OUTSIDE_METRIC_THRESHOLD", "enabled": true,
		"forAllGroups": false, "groupIds": []any{"p1", "p2"},
		"matchers": []any{
			map[string]any{"fieldName": "HOSTNAME", "operator": "STARTS_WITH", "value": "db"},
			map[string]any{"field": "REPLICA_SET_NAME", "operator": "REGEX", "value": "rs[0-9]"},
		},
		"metricThreshold": map[string]any{"metricName": "CONNECTIONS", "operator": "GREATER_THAN", "threshold": json.Number("2.5"), "units": "RAW"},
		"notifications": []any{
			map[string]any{"typeName": "WEBHOOK", "delayMin": int64(5), "intervalMin": json.Number("60"), "webhookUrl": "http://h/x", "webhookSecret": "s"},
			map[string]any{"typeName": "EMAIL", "delayMin": int64(2)},
		},
	})
	if cfg.ID != "c1" || cfg.GroupID != "p1" || !cfg.Enabled || cfg.EventTypeName != "OUTSIDE_METRIC_THRESHOLD" {
		t.Errorf("identity: %+v", cfg)
	}
	if !cfg.Covers("p2") || cfg.Covers("p3") {
		t.Errorf("groupIds [p1 p2] cover p2 and not p3: %v", cfg.GroupIDs)
	}
	if len(cfg.Matchers) != 2 || cfg.Matchers[0].Field != "HOSTNAME" || cfg.Matchers[1].Field != "REPLICA_SET_NAME" {
		t.Fatalf("matchers by fieldName and by field: %+v", cfg.Matchers)
	}
	if !cfg.MatchersHold(alert.Target{HostnameAndPort: "db1:27017", ReplicaSetName: "rs1"}) ||
		cfg.MatchersHold(alert.Target{HostnameAndPort: "db1:27017", ReplicaSetName: "rs1x"}) {
		t.Error("a REGEX matcher must match the whole value")
	}
	if mt := cfg.MetricThreshold; mt == nil || mt.Threshold != 2.5 || mt.Operator != "GREATER_THAN" || mt.Units != "RAW" {
		t.Errorf("metric threshold: %+v", cfg.MetricThreshold)
	}
	n := cfg.Notifications
	if len(n) != 2 || n[0].Delay != 5*time.Minute || n[0].Interval != time.Hour || n[0].WebhookSecret != "s" || n[1].TypeName != "EMAIL" {
		t.Fatalf("notifications: %+v", n)
	}
	if cfg.SmallestDelay() != 2*time.Minute {
		t.Errorf("its alerts track for the smallest delay, 2m, not %v", cfg.SmallestDelay())
	}
	if newAlertConfig(doc{"id": "c2"}).SmallestDelay() != 0 {
		t.Error("a configuration without notifications opens its alerts at once")
	}
}

func TestAMatcherThatDoesNotCompileMatchesNothing(t *testing.T) {
	cfg := newAlertConfig(doc{"matchers": []any{map[string]any{"fieldName": "HOSTNAME", "operator": "REGEX", "value": "("}}})
	if cfg.MatchersHold(alert.Target{HostnameAndPort: "(:1"}) {
		t.Error("a pattern that does not compile matched")
	}
}

func TestSetConfigEnabledKeepsAGlobalConfigurationGlobal(t *testing.T) {
	st := NewState(demo.Fixtures(start), start)
	old := st.GlobalAlertConfigs().All()[0]
	changed := st.SetConfigEnabled(old, !old.Enabled, start)
	if st.GlobalAlertConfigs().Get(old.ID) != changed || changed.Enabled == old.Enabled {
		t.Fatalf("the global list does not hold the change")
	}
	if len(st.alertConfigs[""].All()) != 0 {
		t.Error("a global configuration was filed as a project's")
	}
	recs, _ := st.ch.take() // the configuration, then any alert its disabling cancelled
	if len(recs) == 0 || recs[0].Kind != "globalAlertConfigs" || recs[0].Key != old.ID {
		t.Fatalf("written as %+v, want the globalAlertConfigs record %s first", recs, old.ID)
	}
	for _, r := range recs[1:] {
		if r.Kind != "globalAlerts" {
			t.Errorf("a global configuration's change wrote %s %s", r.Kind, r.Key)
		}
	}
}

func TestBadAlertConfigsAreRefused(t *testing.T) {
	cfg := func(group, event string) string {
		return `{"id": "` + testOther + `", "groupId": "` + group + `", "eventTypeName": "` + event + `", "enabled": true, "notifications": []}`
	}
	refusedFixtures(t, map[string]string{
		fixturesWith(`"alertConfigs": [` + cfg(testOther, "HOST_DOWN") + `]`):             "alertConfigs[0]: groupId " + testOther + " is not a project of the fixtures",
		fixturesWith(`"alertConfigs": [` + cfg(testProject, "host down") + `]`):           `alertConfigs[0]: eventTypeName "host down" is not an event type name`,
		fixturesWith(`"globalAlertConfigs": [{"id": "x", "eventTypeName": "HOST_DOWN"}]`): "globalAlertConfigs[0]: id x must be 24 hexadecimal digits",
	})
}

// A configuration's notifications are redacted once, when it is stored
// (created, replaced, enabled or loaded), not at each use.
func TestANotificationIsRedactedWhenItsConfigurationIsStored(t *testing.T) {
	hook := map[string]any{"typeName": "WEBHOOK", "webhookUrl": "https://user:pw@hooks.example.com/x", "webhookSecret": "s3cret", "delayMin": int64(0)}
	st := NewState(demo.Fixtures(start), start)
	st.Begin()
	created := st.CreateAlertConfig(demo.ProjectID, doc{"eventTypeName": "HOST_DOWN", "enabled": true, "notifications": []any{hook}}, start)
	replaced := st.ReplaceAlertConfig(created, created.Members(), start)
	enabled := st.SetConfigEnabled(replaced, true, start)
	loaded := newAlertConfig(created.Members())
	for name, cfg := range map[string]*AlertConfig{"created": created, "replaced": replaced, "enabled": enabled, "loaded": loaded} {
		shown := cfg.Notifications[0].Shown
		if shown == nil || shown["webhookSecret"] == "s3cret" || strings.Contains(fmt.Sprint(shown["webhookUrl"]), "pw") {
			t.Errorf("%s: shown as %v", name, shown)
		}
		if cfg.Notifications[0].WebhookSecret != "s3cret" {
			t.Errorf("%s: the secret to sign with is gone", name)
		}
	}
}
