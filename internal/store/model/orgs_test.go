package model

import (
	"testing"

	"github.com/omctl/omctl/internal/store/fixture"
)

func TestBadOrgsAndProjectsAreRefused(t *testing.T) {
	refusedFixtures(t, map[string]string{
		`{"orgs": [{"id": "x", "name": "o"}]}`:                                                       "orgs[0]: id x must be 24 hexadecimal digits",
		`{"orgs": [{"id": "` + testOrg + `", "name": "o"}, {"id": "` + testOrg + `", "name": "o"}]}`: "orgs[1]: id " + testOrg + " appears twice",
		`{"projects": [{"id": "` + testProject + `", "orgId": "nope", "name": "p"}]}`:                "projects[0]: orgId nope must be 24 hexadecimal digits",
	})
}

// An organization named only by its projects exists all the same.
func TestAProjectsOrganizationExists(t *testing.T) {
	f, err := fixture.ParseFixtures("f.json", []byte(`{"projects": [{"id": "`+testProject+`", "orgId": "`+testOrg+`", "name": "p"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	s := NewState(f, start)
	if s.Org(testOrg) == nil || s.Project(testProject).OrgID != testOrg {
		t.Errorf("org %v, project %v", s.Org(testOrg), s.Project(testProject))
	}
}
