package model

import "testing"

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
