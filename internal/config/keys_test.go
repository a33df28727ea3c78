package config

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// validValues is a valid value for every key.
func validValues(t *testing.T) map[string]string {
	t.Helper()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		"base_url": "https://om.example.com", "public_key": "pub", "private_key": "secret-value",
		"project_id": "5e2b0c2e8f9d4b0012345678", "org_id": "5e2b0c2e8f9d4b0012345679",
		"output": "yaml", "ca_cert": ca, "timeout": "90s", "insecure": "true", "private_key_file": ca,
	}
}

// Each row's accessors must reach its own Profile field, and only it: a
// row copied without changing get or set would write another key.
func TestEveryKeySetsGetsAndUnsetsItsOwnField(t *testing.T) {
	valid := validValues(t)
	if len(valid) != len(AllKeys) {
		t.Fatalf("the test knows %d keys, the table has %d", len(valid), len(AllKeys))
	}
	for _, k := range AllKeys {
		var p Profile
		if err := p.Set(k.Name, valid[k.Name]); err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		for _, other := range Keys {
			want := ""
			if other == k.Name {
				want = valid[k.Name]
			}
			if got := p.Get(other); got != want {
				t.Errorf("after set %s: %s = %q, want %q", k.Name, other, got, want)
			}
		}
		if err := p.Unset(k.Name); err != nil || p != (Profile{}) {
			t.Errorf("unset %s: err %v, profile %+v", k.Name, err, p)
		}
		if EnvName(k.Name) != k.Env || IsSecret(k.Name) != (k.Name == "private_key") {
			t.Errorf("%s: env %q, secret %v", k.Name, EnvName(k.Name), IsSecret(k.Name))
		}
	}
	if err := new(Profile).Set("nope", "x"); err == nil || ValidateValue("nope", "x") == nil || EnvName("nope") != "" {
		t.Error("an unknown key was accepted")
	}
}

// The profiles file is decoded by Profile's TOML tags, the commands by
// AllKeys' names: a key renamed in one and not the other would be
// refused in the file as unknown, or never saved.
func TestProfileTOMLNamesAreTheKeyNames(t *testing.T) {
	var tags []string
	typ := reflect.TypeFor[Profile]()
	for i := range typ.NumField() {
		tag, _, _ := strings.Cut(typ.Field(i).Tag.Get("toml"), ",")
		tags = append(tags, tag)
	}
	if !slices.Equal(tags, Keys) {
		t.Errorf("Profile's TOML names %v, AllKeys %v", tags, Keys)
	}
}

// Settings carry every key, since they embed the Profile the table's
// accessors fill: each key set only in the environment arrives.
func TestResolveCarriesEveryKeyIntoSettings(t *testing.T) {
	valid := validValues(t)
	t.Setenv(ProfileEnv, "")
	for _, k := range AllKeys {
		t.Setenv(k.Env, valid[k.Name])
	}
	s, err := Resolve(&File{Profiles: map[string]Profile{}}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range AllKeys {
		if got := s.Get(k.Name); got != valid[k.Name] {
			t.Errorf("%s = %q, want %q from %s", k.Name, got, valid[k.Name], k.Env)
		}
	}
}

// A key's Default is what a run gets when nothing sets it, and it stays
// out of the profile; a key without one resolves to "".
func TestDefaultsApplyOnlyWhenNothingSetsTheKey(t *testing.T) {
	t.Setenv(ProfileEnv, "")
	for _, k := range AllKeys {
		t.Setenv(k.Env, "")
	}
	f := &File{Profiles: map[string]Profile{}}
	s, err := Resolve(f, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range AllKeys {
		if got := s.Get(k.Name); got != k.Default {
			t.Errorf("%s resolves to %q, want its default %q", k.Name, got, k.Default)
		}
	}
	if s.Output != "table" || f.Profiles["default"].Output != "" {
		t.Errorf("output %q, profile %+v", s.Output, f.Profiles["default"])
	}
}

func TestLookupFlagFindsTheKeyOfAGlobalFlag(t *testing.T) {
	for flag, want := range map[string]string{"base-url": "base_url", "project": "project_id", "output": "output", "insecure": "insecure"} {
		if k, ok := LookupFlag(flag); !ok || k.Name != want {
			t.Errorf("LookupFlag(%q) = %q, %v; want %q", flag, k.Name, ok, want)
		}
	}
	// public_key has no flag: its empty Flag must not match "".
	for _, flag := range []string{"", "profile", "jq"} {
		if k, ok := LookupFlag(flag); ok {
			t.Errorf("LookupFlag(%q) found %s", flag, k.Name)
		}
	}
}
