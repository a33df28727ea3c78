package store

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/rules"
	"github.com/omctl/omctl/internal/store/engine"
	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/store/model"
)

// twoOrgs has a key and a user, and two organizations, the first with
// one project.
func twoOrgs() *fixture.Fixtures {
	return &fixture.Fixtures{
		Orgs:     []rules.Doc{{"id": "5e1a0c2e8f9d4b0012340001", "name": "first"}, {"id": "5e1a0c2e8f9d4b0012340002", "name": "second"}},
		Projects: []rules.Doc{{"id": "5e2b0c2e8f9d4b0012340009", "name": "other", "orgId": "5e1a0c2e8f9d4b0012340002"}, {"id": "5e2b0c2e8f9d4b0012340001", "name": "p", "orgId": "5e1a0c2e8f9d4b0012340001"}},
		APIKeys: []rules.Doc{{"id": "5f4d0c2e8f9d4b0012340001", "desc": "fixture", "publicKey": "owner", "privateKey": "owner-secret",
			"roles": []any{map[string]any{"roleName": "GLOBAL_OWNER"}}}},
		Users: []rules.Doc{{"username": "admin@example.com", "apiKey": "admin-secret", "roles": []any{map[string]any{"roleName": "GLOBAL_READ_ONLY"}}}},
	}
}

func rolesOf(t *testing.T, st *model.State, public string) []any {
	t.Helper()
	p := st.Principal(public)
	if p == nil || p.Key == nil {
		t.Fatalf("no key %s", public)
	}
	return p.Key.Members()["roles"].([]any)
}

// A key given at start is a key of the first organization, its roles
// placed by their level; a reset keeps it.
func TestKeysGivenAtStartJoinTheFirstOrganization(t *testing.T) {
	s, err := Open(twoOrgs(), nil, VirtualClock(start), false)
	if err != nil {
		t.Fatal(err)
	}
	keys := []fixture.Key{{PublicKey: "ci", PrivateKey: "ci-secret"},
		{PublicKey: "ops", PrivateKey: "ops-secret", Roles: []string{"ORG_OWNER", "GROUP_READ_ONLY", "GLOBAL_BACKUP_ADMIN"}}}
	if err := s.AddKeys(keys); err != nil {
		t.Fatal(err)
	}
	org, project := "5e1a0c2e8f9d4b0012340001", "5e2b0c2e8f9d4b0012340001"
	for round := range 2 {
		s.View(func(st *model.State) {
			ci := rolesOf(t, st, "ci")
			want := []any{map[string]any{"roleName": "GLOBAL_OWNER"}, map[string]any{"orgId": org, "roleName": "ORG_MEMBER"}}
			if !reflect.DeepEqual(ci, want) {
				t.Errorf("round %d: ci roles %v, want %v", round, ci, want)
			}
			want = []any{map[string]any{"orgId": org, "roleName": "ORG_OWNER"}, map[string]any{"groupId": project, "roleName": "GROUP_READ_ONLY"},
				map[string]any{"roleName": "GLOBAL_BACKUP_ADMIN"}}
			if ops := rolesOf(t, st, "ops"); !reflect.DeepEqual(ops, want) {
				t.Errorf("round %d: ops roles %v, want %v", round, ops, want)
			}
			var inOrg []string
			for _, k := range st.OrgAPIKeys(org) {
				inOrg = append(inOrg, k.Principal.Name)
			}
			if strings.Join(inOrg, ",") != "ci,ops" || st.Principal("ci").Secret != "ci-secret" || st.Principal("owner") == nil {
				t.Errorf("round %d: keys of the first organization %v", round, inOrg)
			}
		})
		if _, err := s.Update(func(st *engine.Tx) { st.ResetTo(s.Seed(), start) }); err != nil {
			t.Fatal(err)
		}
	}
	if len(twoOrgs().APIKeys) != 1 || len(s.Seed().APIKeys) != 3 {
		t.Errorf("seed keys %d", len(s.Seed().APIKeys))
	}
}

// A public key the data has is refused, whoever has it, and nothing is
// added: neither to the data nor to the seed.
func TestAKeyGivenAtStartNeedsAPublicKeyOfItsOwn(t *testing.T) {
	for _, tt := range []struct {
		keys []fixture.Key
		want string
	}{
		{[]fixture.Key{{PublicKey: "new", PrivateKey: "x"}, {PublicKey: "owner", PrivateKey: "owner-secret", Roles: []string{"GLOBAL_OWNER"}}}, "key owner: apiKeys[0] of the data has that public key already"},
		{[]fixture.Key{{PublicKey: "admin@example.com", PrivateKey: "x"}}, "key admin@example.com: users[0] of the data (as its username) has that public key already"},
		{[]fixture.Key{{PublicKey: "a", PrivateKey: "x"}, {PublicKey: "a", PrivateKey: "y"}}, "key a is given twice"},
		{[]fixture.Key{{PublicKey: "a", PrivateKey: "x", Roles: []string{"GROUP_OWNER"}}}, ""},
		{[]fixture.Key{{PublicKey: "a", PrivateKey: "x", Roles: []string{"OWNER"}}}, `key a: "OWNER" is not a role: roles are GLOBAL_OWNER,`},
		{[]fixture.Key{{PublicKey: "a:b", PrivateKey: "x"}}, `public key "a:b": ":" is not allowed`},
		{[]fixture.Key{{PublicKey: "a", PrivateKey: ""}}, "key a: the private key is empty"},
	} {
		s, err := Open(twoOrgs(), nil, VirtualClock(start), false)
		if err != nil {
			t.Fatal(err)
		}
		err = s.AddKeys(tt.keys)
		if tt.want == "" {
			if err != nil {
				t.Errorf("%v: %v", tt.keys, err)
			}
			continue
		}
		var keyErr *fixture.KeyError
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.As(err, &keyErr) || strings.Contains(err.Error(), "owner-secret") {
			t.Errorf("%v: %v, want %q", tt.keys, err, tt.want)
		}
		s.View(func(st *model.State) {
			if st.Principal("new") != nil || len(s.Seed().APIKeys) != 1 {
				t.Errorf("%v: a key was added", tt.keys)
			}
		})
	}
	// Project roles need a project in the first organization.
	f := twoOrgs()
	f.Projects = f.Projects[:1]
	s, _ := Open(f, nil, VirtualClock(start), false)
	if err := s.AddKeys([]fixture.Key{{PublicKey: "a", PrivateKey: "x", Roles: []string{"GROUP_OWNER"}}}); err == nil ||
		!strings.Contains(err.Error(), "role GROUP_OWNER is a project role, and organization 5e1a0c2e8f9d4b0012340001 has no project") {
		t.Errorf("no project: %v", err)
	}
	if err := s.AddKeys([]fixture.Key{{PublicKey: "a", PrivateKey: "x"}}); err != nil {
		t.Errorf("a global key without a project: %v", err)
	}
	// Data without an organization takes global keys alone, as global
	// keys (omtest's owner key on an empty fixture).
	bare, _ := Open(&fixture.Fixtures{}, nil, VirtualClock(start), false)
	if err := bare.AddKeys([]fixture.Key{{PublicKey: "b", PrivateKey: "x", Roles: []string{"ORG_OWNER"}}}); err == nil ||
		!strings.Contains(err.Error(), "role ORG_OWNER is an organization role, and the data has no organization") {
		t.Errorf("an organization role without an organization: %v", err)
	}
	if err := bare.AddKeys([]fixture.Key{{PublicKey: "b", PrivateKey: "x"}}); err != nil {
		t.Fatalf("a global key without an organization: %v", err)
	}
	bare.View(func(st *model.State) {
		p := st.Principal("b")
		if p == nil || p.Key == nil {
			t.Fatal("the key without an organization was not added")
		}
		if roles := fmt.Sprint(p.Key.Members()["roles"]); roles != "[map[roleName:GLOBAL_OWNER]]" {
			t.Errorf("the key without an organization has roles %s, want GLOBAL_OWNER alone", roles)
		}
	})
}

// A restart with a state file finds the keys of the last start: the same
// key is kept (with its id and access list), another private key for it
// is refused, and a new key is added, durably.
func TestKeysGivenAtStartSurviveARestart(t *testing.T) {
	s, path := openStoreWith(t, twoOrgs())
	ci := fixture.Key{PublicKey: "ci", PrivateKey: "ci-secret"}
	if err := s.AddKeys([]fixture.Key{ci}); err != nil {
		t.Fatal(err)
	}
	var id string
	s.Update(func(st *engine.Tx) {
		k := st.Principal("ci").Key
		id = k.ID
		st.AddAccessEntries(k, []string{"10.0.0.0/8"}, []any{map[string]any{"cidrBlock": "10.0.0.0/8"}}, start)
	})
	again := reopened(t, s, path, true)
	if err := again.AddKeys([]fixture.Key{ci, {PublicKey: "late", PrivateKey: "late-secret"}}); err != nil {
		t.Fatal(err)
	}
	again.View(func(st *model.State) {
		k := st.Principal("ci").Key
		if k.ID != id || len(k.AccessList) != 1 || st.Principal("late") == nil {
			t.Errorf("after the restart: id %s (was %s), access list %d, late %v", k.ID, id, len(k.AccessList), st.Principal("late"))
		}
	})
	third := reopened(t, again, path, true)
	third.View(func(st *model.State) {
		if st.Principal("late") == nil {
			t.Error("the key added at the restart is not on disk")
		}
	})
	err := third.AddKeys([]fixture.Key{{PublicKey: "ci", PrivateKey: "rotated"}})
	if err == nil || !strings.Contains(err.Error(), "key ci: the data holds it from an earlier start with another private key or other roles") || strings.Contains(err.Error(), "rotated") {
		t.Errorf("another private key: %v", err)
	}
}

// Data changed before the store is shared becomes what a reset goes
// back to.
func TestSeedFromDataIsWhatResetGoesBackTo(t *testing.T) {
	s, err := Open(fixture.Default(), nil, VirtualClock(start), false)
	if err != nil {
		t.Fatal(err)
	}
	s.Update(func(st *engine.Tx) { st.CreateOplogStore(oplogStore("seeded", 5)) })
	s.SeedFromData()
	s.Update(func(st *engine.Tx) { st.CreateOplogStore(oplogStore("later", 5)) })
	s.Update(func(st *engine.Tx) { st.ResetTo(s.Seed(), start) })
	s.View(func(st *model.State) {
		if st.OplogStores().Get("seeded") == nil || st.OplogStores().Get("later") != nil {
			t.Errorf("after reset: seeded %v, later %v", st.OplogStores().Get("seeded"), st.OplogStores().Get("later"))
		}
	})
}
