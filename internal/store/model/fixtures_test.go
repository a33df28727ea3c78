package model

import (
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/fixture/fixturetest"
)

// The fixtures the tests read: see fixturetest.
const (
	testOrg     = fixturetest.Org
	testProject = fixturetest.Project
	testOther   = fixturetest.Other
)

func fixturesWith(members ...string) string { return fixturetest.With(members...) }

// refusedFixtures checks that each fixture JSON is refused with a message
// holding its want.
func refusedFixtures(t *testing.T, cases map[string]string) {
	t.Helper()
	for data, want := range cases {
		_, err := fixture.ParseFixtures("f.json", []byte(data))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", data, err, want)
		}
	}
}
