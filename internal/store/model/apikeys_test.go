package model

import (
	"testing"

	"github.com/omctl/omctl/internal/store/fixture"
)

func TestBadKeysAndUsersAreRefused(t *testing.T) {
	key := func(extra string) string {
		return `"apiKeys": [{"publicKey": "pub", "privateKey": "priv"` + extra + `}]`
	}
	refusedFixtures(t, map[string]string{
		fixturesWith(`"apiKeys": [{"publicKey": "pub"}]`):                                             "apiKeys[0]: publicKey and privateKey are required",
		fixturesWith(key(""), `"users": [{"username": "pub", "apiKey": "k"}]`):                        "users[0]: username pub is already used by apiKeys[0]",
		fixturesWith(key(`, "roles": [{"groupId": "` + testOther + `", "roleName": "GROUP_OWNER"}]`)): "roles[0].groupId " + testOther + " is not a project of the fixtures",
		fixturesWith(key(`, "roles": [{"orgId": "` + testOrg + `", "roleName": "GROUP_OWNER"}]`)):     `roles[0].roleName "GROUP_OWNER" is not an organization role`,
		fixturesWith(key(`, "roles": "GLOBAL_OWNER"`)):                                                "apiKeys[0]: roles must be an array",
		fixturesWith(key(`, "accessList": [{"ipAddress": "300.1.1.1"}]`)):                             "apiKeys[0]: accessList[0]:",
		fixturesWith(key(`, "accessList": "anywhere"`)):                                               "accessList must be an array",
		fixturesWith(`"users": [{"username": "u"}]`):                                                  "users[0]: username and apiKey are required",
	})
}

// A key given without an id gets one, and signs in by its public key.
func TestAKeyWithoutAnIDGetsOne(t *testing.T) {
	f, err := fixture.ParseFixtures("f.json", []byte(fixturesWith(`"apiKeys": [{"publicKey": "pub", "privateKey": "priv"}]`)))
	if err != nil {
		t.Fatal(err)
	}
	p := NewState(f, start).Principal("pub")
	if p == nil || p.Key == nil || len(p.Key.ID) != 24 {
		t.Errorf("the key signs in as %+v", p)
	}
}
