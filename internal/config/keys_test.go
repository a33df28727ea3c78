package config

import (
	"os"
	"path/filepath"
	"testing"
)

// Each row's accessors must reach its own Profile field, and only it: a
// row copied without changing get or set would write another key.
func TestEveryKeySetsGetsAndUnsetsItsOwnField(t *testing.T) {
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	valid := map[string]string{
		"base_url": "https://om.example.com", "public_key": "pub", "private_key": "secret-value",
		"project_id": "5e2b0c2e8f9d4b0012345678", "org_id": "5e2b0c2e8f9d4b0012345679",
		"output": "yaml", "ca_cert": ca, "insecure": "true",
	}
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
