package model

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/omctl/omctl/internal/api"
)

// Key is an API key a server starts with besides the keys of its data,
// with credentials its user chose (omctl server --key): a key of the
// data's first organization (docs/server.md, Starting it).
type Key struct {
	PublicKey, PrivateKey string
	// Roles are role names: a global role as it is, an organization role
	// in the first organization, a project role in that organization's
	// first project. None is GLOBAL_OWNER.
	Roles []string
}

// KeyError is a Key the data refuses, or that is wrong in itself.
type KeyError struct{ Err error }

func (e *KeyError) Error() string { return e.Err.Error() }
func (e *KeyError) Unwrap() error { return e.Err }

// KeyDesc is the description of the keys a server starts with (Key),
// which tells them from the data's own.
const KeyDesc = "omctl server --key"

// Check checks a key's parts, whatever the data: a public key of
// letters, digits and -._@+ (it is a digest user name, and may be an
// email address), a private key, and roles the API knows.
func (k Key) Check() error {
	if k.PublicKey == "" {
		return fmt.Errorf("the public key is empty")
	}
	if i := strings.IndexFunc(k.PublicKey, func(r rune) bool { return !publicKeyRune(r) }); i >= 0 {
		return fmt.Errorf("public key %q: %q is not allowed: use letters, digits and -._@+", k.PublicKey, k.PublicKey[i:i+1])
	}
	if k.PrivateKey == "" {
		return fmt.Errorf("key %s: the private key is empty", k.PublicKey)
	}
	for _, r := range k.Roles {
		if !api.OneOf(r, api.GlobalRoles) && !api.OneOf(r, api.OrgRoles) && !api.OneOf(r, api.ProjectRoles) {
			return fmt.Errorf("key %s: %q is not a role: roles are %s", k.PublicKey, r,
				strings.Join(slices.Concat(api.GlobalRoles, api.OrgRoles, api.ProjectRoles), ", "))
		}
	}
	return nil
}

func publicKeyRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-._@+", r)
}

// doc is the key as an API key of org, its project roles in project;
// its id follows from its public key, so the same key has the same id in
// the seed, in the data and at every start.
func (k Key) doc(org, project string) (doc, error) {
	names := k.Roles
	if len(names) == 0 {
		names = []string{"GLOBAL_OWNER"}
	}
	roles := []any{}
	inOrg := false
	for _, name := range names {
		switch {
		case api.OneOf(name, api.OrgRoles):
			if org == "" {
				return nil, fmt.Errorf("key %s: role %s is an organization role, and the data has no organization", k.PublicKey, name)
			}
			roles = append(roles, map[string]any{"orgId": org, "roleName": name})
			inOrg = true
		case api.OneOf(name, api.ProjectRoles):
			if project == "" {
				return nil, fmt.Errorf("key %s: role %s is a project role, and organization %s has no project", k.PublicKey, name, org)
			}
			roles = append(roles, map[string]any{"groupId": project, "roleName": name})
		default:
			roles = append(roles, map[string]any{"roleName": name})
		}
	}
	if !inOrg && org != "" {
		// A member of the organization, as a key the API creates in a
		// project is (docs/api.md, API key), so that it is the
		// organization's key, listed with its keys.
		roles = append(roles, map[string]any{"orgId": org, "roleName": "ORG_MEMBER"})
	}
	sum := sha256.Sum256([]byte(KeyDesc + "\x00" + k.PublicKey))
	return doc{"id": hex.EncodeToString(sum[:12]), "desc": KeyDesc, "publicKey": k.PublicKey, "privateKey": k.PrivateKey, "roles": roles}, nil
}

// sameKey reports whether d is the API key want, as an earlier start
// with the same key made it.
func sameKey(d, want doc) bool {
	return d["desc"] == KeyDesc && d["privateKey"] == want["privateKey"] && reflect.DeepEqual(d["roles"], want["roles"])
}

// keyDocs are keys as API keys of the first organization org (global
// keys alone where the data has no organization), for
// data whose sign-in names are taken (by whom, for messages); a key that
// is there already, made by an earlier start with the same key, is left
// out.
func keyDocs(keys []Key, org, project string, taken func(name string) (d doc, who string)) ([]doc, error) {
	var out []doc
	seen := map[string]bool{}
	for _, k := range keys {
		if err := k.Check(); err != nil {
			return nil, err
		}
		if seen[k.PublicKey] {
			return nil, fmt.Errorf("key %s is given twice", k.PublicKey)
		}
		seen[k.PublicKey] = true
		d, err := k.doc(org, project)
		if err != nil {
			return nil, err
		}
		have, who := taken(k.PublicKey)
		switch {
		case who == "":
			out = append(out, d)
		case have == nil || have["desc"] != KeyDesc:
			return nil, fmt.Errorf("key %s: %s has that public key already; give the key another one", k.PublicKey, who)
		case !sameKey(have, d):
			return nil, fmt.Errorf("key %s: the data holds it from an earlier start with another private key or other roles; give it as it was, or start from new data", k.PublicKey)
		}
	}
	return out, nil
}

// firstOrg is the first organization of the fixtures and its first
// project ("" for none).
func (f *Fixtures) firstOrg() (org, project string) {
	if len(f.Orgs) > 0 {
		org, _ = f.Orgs[0]["id"].(string)
	} else if len(f.Projects) > 0 {
		org, _ = f.Projects[0]["orgId"].(string)
	}
	for _, p := range f.Projects {
		if p["orgId"] == org {
			project, _ = p["id"].(string)
			break
		}
	}
	return org, project
}

// WithKeys is f with keys among its API keys (f is not changed).
func (f *Fixtures) WithKeys(keys []Key) (*Fixtures, error) {
	org, project := f.firstOrg()
	docs, err := keyDocs(keys, org, project, func(name string) (doc, string) {
		for i, d := range f.APIKeys {
			if d["publicKey"] == name {
				return d, fmt.Sprintf("apiKeys[%d] of the data", i)
			}
		}
		for i, d := range f.Users {
			if d["username"] == name {
				return nil, fmt.Sprintf("users[%d] of the data (as its username)", i)
			}
		}
		return nil, ""
	})
	if err != nil {
		return nil, err
	}
	out := *f
	out.APIKeys = append(slices.Clip(f.APIKeys), docs...)
	return &out, nil
}

// AddKeys adds keys to the data, all or none (see keyDocs).
func (s *State) AddKeys(keys []Key, now time.Time) error {
	org, project := "", ""
	if len(s.orgOrder) > 0 {
		org = s.orgOrder[0]
	}
	for _, id := range s.projectOrder {
		if s.projects[id].OrgID == org {
			project = id
			break
		}
	}
	docs, err := keyDocs(keys, org, project, func(name string) (doc, string) {
		p := s.principals[name]
		switch {
		case p == nil:
			return nil, ""
		case p.Key == nil:
			return nil, "a user of the data (as its username)"
		}
		return p.Key.raw(), "API key " + p.Key.ID + " of the data"
	})
	if err != nil {
		return err
	}
	for _, d := range docs {
		s.addAPIKey(d, now)
	}
	return nil
}
