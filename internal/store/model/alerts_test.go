package model

import (
	"fmt"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/fixture"
)

func TestAlertsOfUnknownProjectsAreRefused(t *testing.T) {
	alert := func(id, group string) string {
		return `{"id": "` + id + `", "groupId": "` + group + `", "alertConfigId": "` + testOther + `", "eventTypeName": "HOST_DOWN",
			"status": "OPEN", "created": "2026-01-01T00:00:00Z", "updated": "2026-01-01T00:00:00Z"}`
	}
	refusedFixtures(t, map[string]string{
		fixturesWith(`"alerts": [` + alert(testOther, testOther) + `]`):                                          "alerts[0]: groupId " + testOther + " is not a project of the fixtures",
		fixturesWith(`"alerts": [` + alert(testOther, testProject) + `, ` + alert(testOther, testProject) + `]`): "alerts[1]: id " + testOther + " appears twice",
	})
}

// Raises behind the clock, far from the newest alerts, build the index
// anew once for the change that made them (ReindexAlerts, which the
// Store runs before any reader can see the data), not once each nor
// again for a resolve among them.
func TestRaisesBehindTheClockBuildTheIndexOnceAChange(t *testing.T) {
	f := fixture.Default()
	project := f.Projects[0]["id"].(string)
	cfg := api.NewObjectID()
	f.AlertConfigs = append(f.AlertConfigs, doc{"id": cfg, "groupId": project, "eventTypeName": "HOST_DOWN", "enabled": true})
	for i := range 2000 { // all newer than the clock
		f.Alerts = append(f.Alerts, alert.NewDoc(doc{"id": fmt.Sprintf("%024x", i+1), "groupId": project, "alertConfigId": cfg,
			"eventTypeName": "HOST_DOWN", "status": api.StatusClosed, "created": rules.FormatTime(start.Add(time.Hour + time.Duration(i)*time.Second)),
			"resolved": rules.FormatTime(start.Add(2 * time.Hour))}))
	}
	st := NewState(f, start)
	builds, _ := st.alerts[project].Builds()
	st.Begin() // a change of ten raises, as a condition report of ten hosts makes
	var raised []*alert.Rec
	for h := range 10 {
		at := rules.FormatTime(start)
		raised = append(raised, st.RaiseAlert(alert.NewDoc(doc{"id": api.NewObjectID(), "groupId": project, "alertConfigId": cfg, "eventTypeName": "HOST_DOWN",
			"status": api.StatusOpen, "created": at, "updated": at, "hostnameAndPort": fmt.Sprintf("db%d:27017", h)}), false, start))
		if h == 5 { // a report that resolves one among the raises
			st.SetAlert(raised[2], raised[2].Cur.WithTimes("status", api.StatusClosed, "resolved", at))
		}
	}
	st.ReindexAlerts() // as the Store does once a batch
	func() {
		set := st.alerts[project]
		if after, stale := set.Builds(); stale || after != builds+1 {
			t.Errorf("after a change of 10 raises and a resolve behind the clock the index was built %d times (stale after: %t), want once", after-builds, stale)
		}
		open, total := set.Page(alert.Filter{Status: api.StatusOpen}, 0, 100)
		// The raised alerts come first (they are the oldest), the resolved
		// one among them.
		if total != 9 || len(open) != 9 || open[8] != set.Items()[9] {
			t.Errorf("the open alerts: %d of %d, want the 9 still open, among the first 10", len(open), total)
		}
	}()
}
