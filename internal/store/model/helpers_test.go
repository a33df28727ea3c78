package model

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/alert"
	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/statelog"
	"github.com/omctl/omctl/internal/store/statelog/statelogtest"
)

var start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// projA is a project id the benchmarks and the splitter tests write alerts of.
const projA = "5e2b00000000000000000001"

// activeAlertsFixture is n OPEN alerts of one configuration, each on a
// target of its own, and their project.
func activeAlertsFixture(n int) (*fixture.Fixtures, string) {
	f := fixture.Default()
	project := f.Projects[0]["id"].(string)
	cfg := api.NewObjectID()
	f.AlertConfigs = append(f.AlertConfigs, doc{"id": cfg, "groupId": project, "eventTypeName": "HOST_DOWN", "enabled": true})
	for i := range n {
		f.Alerts = append(f.Alerts, alert.NewDoc(doc{"id": fmt.Sprintf("%024x", i+1), "groupId": project, "alertConfigId": cfg,
			"eventTypeName": "HOST_DOWN", "status": api.StatusOpen, "created": "2026-01-01T00:00:00Z", "hostnameAndPort": fmt.Sprintf("db-%d:27017", i)}))
	}
	return f, project
}

// restarted is the data as a restart serves it from a state file that
// holds all of st.
func restarted(t *testing.T, st *State) (*State, error) {
	t.Helper()
	log := statelogtest.NewMemory()
	b := &statelog.Batch{ReplaceAll: true}
	for _, c := range st.AllRecords() {
		v, err := Encode(c)
		if err != nil {
			t.Fatal(err)
		}
		b.Records = append(b.Records, statelog.Record{Kind: c.Kind, Key: c.Key, Value: v})
	}
	if err := log.Commit(b); err != nil {
		t.Fatal(err)
	}
	f, err := fixture.ReadLog(log)
	if err != nil {
		return nil, err
	}
	return NewState(f, start), nil
}

// brokenRule is the rule err reports, or an empty one when err is nil or
// reports none, so a test can read its code and parameters.
func brokenRule(err error) *rules.Error {
	var broken *rules.Error
	if !errors.As(err, &broken) {
		return &rules.Error{}
	}
	return broken
}
