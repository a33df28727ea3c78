package model

import (
	"strings"
	"testing"
)

const (
	testOrg     = "5e2b0c2e8f9d4b0012340001"
	testProject = "5e2b0c2e8f9d4b0012340002"
	testOther   = "5e2b0c2e8f9d4b0012340009"
)

// fixturesWith is fixture JSON holding an organization, a project of it,
// and the members given (each `"key": [...]`).
func fixturesWith(members ...string) string {
	return `{"orgs": [{"id": "` + testOrg + `", "name": "o"}], "projects": [{"id": "` + testProject + `", "orgId": "` + testOrg + `", "name": "p"}]` +
		strings.Join(append([]string{""}, members...), ", ") + `}`
}

// refusedFixtures checks that each fixture JSON is refused with a message
// holding its want.
func refusedFixtures(t *testing.T, cases map[string]string) {
	t.Helper()
	for data, want := range cases {
		_, err := ParseFixtures("f.json", []byte(data))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", data, err, want)
		}
	}
}
