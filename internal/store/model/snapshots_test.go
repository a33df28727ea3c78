package model

import (
	"testing"

	"github.com/omctl/omctl/internal/store/fixture"
)

func TestBadSnapshotsAreRefused(t *testing.T) {
	refusedFixtures(t, map[string]string{
		fixturesWith(`"configServerSnapshots": [{"id": "` + testOther + `", "groupId": "` + testProject + `", "parts": []}]`):      "configServerSnapshots[0]: parts[0].hostId is required",
		fixturesWith(`"snapshots": [{"id": "` + testOther + `", "groupId": "` + testProject + `", "clusterId": "c"}]`):             "snapshots[0]: clusterId c must be 24 hexadecimal digits",
		fixturesWith(`"snapshots": [{"id": "` + testOther + `", "groupId": "` + testOrg + `", "clusterId": "` + testOther + `"}]`): "groupId " + testOrg + " is not a project",
	})
}

// A config server's snapshots are found by the host of their first part.
func TestConfigServerSnapshotsAreFoundByTheirHost(t *testing.T) {
	f, err := fixture.ParseFixtures("f.json", []byte(fixturesWith(`"configServerSnapshots": [{"id": "`+testOther+`", "groupId": "`+testProject+`",
		"parts": [{"hostId": "h1", "typeName": "CONFIG_SERVER"}]}]`)))
	if err != nil {
		t.Fatal(err)
	}
	s := NewState(f, start)
	if got := s.ConfigServerSnapshots(testProject, "h1"); got == nil || got.Get(testOther) == nil {
		t.Errorf("host h1 has %v", got)
	}
	if s.ConfigServerSnapshots(testProject, "h2") != nil {
		t.Error("host h2 has snapshots")
	}
}
