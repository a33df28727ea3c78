package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/fixture"
)

// BenchmarkIndexActiveAlerts is what the first event after start-up costs
// when 100,000 active alerts were loaded: the engine indexes them by
// configuration and target (docs/performance.md).
func BenchmarkIndexActiveAlerts(b *testing.B) {
	f, _ := activeAlertsFixture(100000)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		tx := newTx(f, start)
		b.StartTimer()
		if n := len(tx.eng.Index(tx.State).byTarget); n != 100000 {
			b.Fatalf("indexed %d alerts", n)
		}
	}
}

// BenchmarkResolveAmongActiveAlerts is a condition clearing on a target
// while 100,000 other alerts are active.
func BenchmarkResolveAmongActiveAlerts(b *testing.B) {
	f, project := activeAlertsFixture(100000)
	st := newTx(f, start)
	st.eng.Index(st.State)
	b.ResetTimer()
	for range b.N {
		st.Apply(Condition{Project: project, Event: "HOST_DOWN", Target: alert.Target{HostnameAndPort: "nowhere:1"}, Resolved: true}, start)
	}
}

// activeAlertsFixture is n OPEN alerts of one configuration, each on a
// target of its own, and their project.
func activeAlertsFixture(n int) (*fixture.Fixtures, string) {
	f := fixture.Default()
	project := f.Projects[0]["id"].(string)
	cfg := api.NewObjectID()
	f.AlertConfigs = append(f.AlertConfigs, rules.Doc{"id": cfg, "groupId": project, "eventTypeName": "HOST_DOWN", "enabled": true})
	for i := range n {
		f.Alerts = append(f.Alerts, alert.NewDoc(rules.Doc{"id": fmt.Sprintf("%024x", i+1), "groupId": project, "alertConfigId": cfg,
			"eventTypeName": "HOST_DOWN", "status": api.StatusOpen, "created": "2026-01-01T00:00:00Z", "hostnameAndPort": fmt.Sprintf("db-%d:27017", i)}))
	}
	return f, project
}

// BenchmarkNotifyDue is the clock moving 10 hours over 100 raised alerts,
// each notifying two targets every minute: 120,200 notifications an op.
func BenchmarkNotifyDue(b *testing.B) {
	f := fixture.Default()
	project := f.Projects[0]["id"].(string)
	f.AlertConfigs = append(f.AlertConfigs, rules.Doc{"id": "5f2a00000000000000000001", "groupId": project, "eventTypeName": "HOST_DOWN", "enabled": true,
		"notifications": []any{map[string]any{"typeName": "EMAIL", "emailAddress": "a@example.com", "delayMin": int64(0), "intervalMin": int64(1)},
			map[string]any{"typeName": "WEBHOOK", "webhookUrl": "http://127.0.0.1:1/x", "webhookSecret": "s", "delayMin": int64(0), "intervalMin": int64(1)}}})
	for range b.N {
		b.StopTimer()
		st := newTx(f.Clone(), start)
		for h := range 100 {
			st.Apply(Condition{Project: project, Event: "HOST_DOWN", Target: alert.Target{HostnameAndPort: fmt.Sprintf("db%d:27017", h)}}, start)
		}
		b.StartTimer()
		st.RunUntil(start.Add(10 * time.Hour))
	}
}
