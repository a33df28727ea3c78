package store

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/rules"
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
	if !cfg.covers("p2") || cfg.covers("p3") {
		t.Errorf("groupIds [p1 p2] cover p2 and not p3: %v", cfg.GroupIDs)
	}
	if len(cfg.Matchers) != 2 || cfg.Matchers[0].Field != "HOSTNAME" || cfg.Matchers[1].Field != "REPLICA_SET_NAME" {
		t.Fatalf("matchers by fieldName and by field: %+v", cfg.Matchers)
	}
	if !matchersHold(cfg, Target{HostnameAndPort: "db1:27017", ReplicaSetName: "rs1"}) ||
		matchersHold(cfg, Target{HostnameAndPort: "db1:27017", ReplicaSetName: "rs1x"}) {
		t.Error("a REGEX matcher must match the whole value")
	}
	if mt := cfg.MetricThreshold; mt == nil || mt.Threshold != 2.5 || mt.Operator != "GREATER_THAN" || mt.Units != "RAW" {
		t.Errorf("metric threshold: %+v", cfg.MetricThreshold)
	}
	n := cfg.Notifications
	if len(n) != 2 || n[0].Delay != 5*time.Minute || n[0].Interval != time.Hour || n[0].WebhookSecret != "s" || n[1].TypeName != "EMAIL" {
		t.Fatalf("notifications: %+v", n)
	}
	if cfg.smallestDelay() != 2*time.Minute {
		t.Errorf("its alerts track for the smallest delay, 2m, not %v", cfg.smallestDelay())
	}
	if newAlertConfig(doc{"id": "c2"}).smallestDelay() != 0 {
		t.Error("a configuration without notifications opens its alerts at once")
	}
}

func TestAMatcherThatDoesNotCompileMatchesNothing(t *testing.T) {
	cfg := newAlertConfig(doc{"matchers": []any{map[string]any{"fieldName": "HOSTNAME", "operator": "REGEX", "value": "("}}})
	if matchersHold(cfg, Target{HostnameAndPort: "(:1"}) {
		t.Error("a pattern that does not compile matched")
	}
}

// An operation puts a new record in place: the record a handler found
// still says what it said, and the state holds the new one.
func TestOperationsLeaveTheRecordsFoundAsTheyWere(t *testing.T) {
	f := DefaultFixtures()
	project := f.Projects[0]["id"].(string)
	f.AlertConfigs = append(f.AlertConfigs, doc{"id": "c1", "groupId": project, "eventTypeName": "HOST_DOWN", "enabled": true, "x-team": "dba"})
	st := newState(f.Clone(), start)
	old := st.AlertConfigs(project).Get("c1")
	changed := st.SetConfigEnabled(old, false, start.Add(time.Minute))
	if !old.Enabled || old.raw()["enabled"] != true {
		t.Errorf("the record found changed: %+v", old.Members())
	}
	if changed.Enabled || st.AlertConfigs(project).Get("c1") != changed {
		t.Errorf("the state does not hold the disabled configuration")
	}
	if changed.raw()["x-team"] != "dba" || changed.raw()["updated"] != "2026-01-01T00:01:00Z" {
		t.Errorf("members kept and updated: %v", changed.Members())
	}
	if got := st.Fixtures().AlertConfigs; !slices.ContainsFunc(got, func(d doc) bool { return d["id"] == "c1" && d["x-team"] == "dba" }) {
		t.Errorf("a member the API does not name is not written out: %v", got)
	}
	m := changed.Members()
	m["enabled"] = true
	if changed.raw()["enabled"] != false {
		t.Error("changing the copy Members returns changed the record")
	}
}

func TestUpdateBackupConfigStoresSettingsAndRegions(t *testing.T) {
	st := newState(DemoFixtures(start), start)
	var cfg *BackupConfig
	for _, c := range st.backupConfigs {
		cfg = c
		break
	}
	got, err := st.UpdateBackupConfig(cfg, doc{"syncSource": "PRIMARY", "deploymentConfigs": []any{doc{"rsId": "rs0", "deploymentId": "us-east"}}, "excludedNamespaces": []any{"a.b"}})
	if err != nil {
		t.Fatal(err)
	}
	if got.raw()["syncSource"] != nil {
		t.Errorf("syncSource is not a setting: %v", got.Members())
	}
	if got.raw()["multiRegionMisconfigured"] != false || !slices.Equal(got.raw()["excludedNamespaces"].([]any), []any{"a.b"}) {
		t.Errorf("settings: %v", got.Members())
	}
	if st.BackupConfig(cfg.GroupID, cfg.ClusterID) != got {
		t.Error("the state does not hold the new configuration")
	}
	// A shard's new region replaces its old one; the list keeps one entry a shard.
	got, _ = st.UpdateBackupConfig(got, doc{"deploymentConfigs": []any{doc{"rsId": "rs0", "deploymentId": "eu-west"}}})
	if regions := got.raw()["deploymentConfigs"].([]any); len(regions) != 1 || regions[0].(doc)["deploymentId"] != "eu-west" {
		t.Errorf("deploymentConfigs = %v", regions)
	}
	_, err = st.UpdateBackupConfig(got, doc{"deploymentConfigs": []any{doc{"rsId": "shard9", "deploymentId": "us-east"}}})
	if err == nil || err.Code != "INVALID_ATTRIBUTE" || err.Params[0] != "deploymentConfigs[0].rsId" {
		t.Errorf("a replica set that is not a shard of the cluster: %v", err)
	}
	if st.BackupConfig(cfg.GroupID, cfg.ClusterID) != got {
		t.Error("a refused assignment changed the configuration")
	}
}

func TestBackupJobConfigNamesOnlyStoresThatExist(t *testing.T) {
	f := DemoFixtures(start)
	project := f.Projects[1]["id"].(string) // one without a backup jobs configuration
	st := newState(f, start)
	oplog := st.OplogStores().all()[0].ID
	_, err := st.ReplaceBackupJobConfig(project, doc{"oplogStoreFilter": []any{
		map[string]any{"id": oplog, "type": "oplogStore"}, map[string]any{"id": "nowhere", "type": "oplogStore"}}})
	if err == nil || err.Code != "INVALID_ATTRIBUTE" || err.Params[0] != "oplogStoreFilter[1].id" {
		t.Fatalf("a filter naming no store: %+v", err)
	}
	if st.BackupJobConfig(project) != nil {
		t.Error("a refused configuration was kept")
	}
	cfg, err := st.ReplaceBackupJobConfig(project, doc{"oplogStoreFilter": []any{map[string]any{"id": oplog, "type": "oplogStore"}}})
	if err != nil || cfg.ID != project || !slices.Equal(cfg.OplogStoreIDs, []string{oplog}) {
		t.Fatalf("%+v, %v", cfg, err)
	}
}

func TestSnapshotStoresTakeTheirDefaults(t *testing.T) {
	st := newState(DemoFixtures(start), start)
	got, err := st.CreateSnapshotStore(doc{"id": "new", "loadFactor": nil})
	if err != nil {
		t.Fatal(err)
	}
	if got.raw()["loadFactor"] != int64(rules.DefaultLoadFactor) || got.raw()["s3MaxConnections"] != int64(rules.DefaultS3MaxConnections) {
		t.Errorf("defaults: %v", got.Members())
	}
	if _, err := st.CreateSnapshotStore(doc{"id": "new"}); err == nil || err.Code != "DUPLICATE_STORE_ID" {
		t.Errorf("a taken id: %+v", err)
	}
}

func TestSetConfigEnabledKeepsAGlobalConfigurationGlobal(t *testing.T) {
	st := newState(DemoFixtures(start), start)
	old := st.GlobalAlertConfigs().all()[0]
	changed := st.SetConfigEnabled(old, !old.Enabled, start)
	if st.GlobalAlertConfigs().Get(old.ID) != changed || changed.Enabled == old.Enabled {
		t.Fatalf("the global list does not hold the change")
	}
	if len(st.alertConfigs[""].all()) != 0 {
		t.Error("a global configuration was filed as a project's")
	}
	recs, _ := st.takeChanges() // the configuration, then any alert its disabling cancelled
	if len(recs) == 0 || recs[0].kind != "globalAlertConfigs" || recs[0].key != old.ID {
		t.Fatalf("written as %+v, want the globalAlertConfigs record %s first", recs, old.ID)
	}
	for _, r := range recs[1:] {
		if r.kind != "globalAlerts" {
			t.Errorf("a global configuration's change wrote %s %s", r.kind, r.key)
		}
	}
}

func TestActiveAlertsKeepOneAConfigurationATarget(t *testing.T) {
	alert := func(id, cfg string) *AlertRec {
		return &AlertRec{Cur: &AlertDoc{alertFields: alertFields{ID: id, AlertConfigID: cfg}}}
	}
	a := newActiveAlerts()
	host := targetKey{"p", "db1:27017"}
	a.set(activeKey{"c1", host}, alert("a1", "c1"))
	a.set(activeKey{"c2", host}, alert("a2", "c2"))
	a.set(activeKey{"c1", host}, alert("a3", "c1"))
	if got := a.get(activeKey{"c1", host}); got == nil || got.Cur.ID != "a3" {
		t.Fatalf("c1's alert on the host: %v", got)
	}
	if len(a.byTarget[host]) != 2 || a.get(activeKey{"c1", targetKey{"p", "other"}}) != nil {
		t.Fatalf("index: %v", a.byTarget)
	}
	if len(a.ofConfig("c1")) != 1 || len(a.ofConfig("c3")) != 0 || a.byConfig["c1"] != 1 {
		t.Fatalf("by configuration: %v", a.byConfig)
	}
	a.remove(activeKey{"c1", host})
	if a.get(activeKey{"c1", host}) != nil || a.get(activeKey{"c2", host}).Cur.ID != "a2" {
		t.Fatalf("after removing c1's: %v", a.byTarget[host])
	}
	a.remove(activeKey{"c2", host})
	if _, left := a.byTarget[host]; left || len(a.byConfig) != 0 {
		t.Errorf("a target or configuration without active alerts stays in the index: %v %v", a.byTarget, a.byConfig)
	}
}

func TestATargetIsNextDueAfterNow(t *testing.T) {
	created := start
	for _, c := range []struct {
		delay, interval, now time.Duration
		want                 time.Duration // from created; -1 for never
	}{
		{5 * time.Minute, 0, 0, 5 * time.Minute},
		{5 * time.Minute, 0, 5 * time.Minute, -1}, // sent at 5m, before the restart
		{0, 10 * time.Minute, 0, 10 * time.Minute},
		{0, 10 * time.Minute, 25 * time.Minute, 30 * time.Minute},
		{5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 25 * time.Minute},
	} {
		tg := &notifyTarget{NotificationSpec: &NotificationSpec{Delay: c.delay, Interval: c.interval}}
		at, ok := tg.dueAfter(created, created.Add(c.now))
		if c.want < 0 {
			if ok {
				t.Errorf("%+v: due at %v, want never", c, at)
			}
			continue
		}
		if !ok || !at.Equal(created.Add(c.want)) {
			t.Errorf("%+v: due at %v (%v), want %v", c, at.Sub(created), ok, c.want)
		}
	}
}
