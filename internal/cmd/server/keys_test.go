package server

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/store/fixture"
)

func TestParseKey(t *testing.T) {
	dir := t.TempDir()
	secretFile := filepath.Join(dir, "ci.key")
	os.WriteFile(secretFile, []byte("  from-a-file \nsecond line\n"), 0o600)
	for _, tt := range []struct {
		raw     string
		want    fixture.Key
		wantErr string
	}{
		{"ci:ci-secret", fixture.Key{PublicKey: "ci", PrivateKey: "ci-secret"}, ""},
		{"ci:ci-secret:GLOBAL_OWNER", fixture.Key{PublicKey: "ci", PrivateKey: "ci-secret", Roles: []string{"GLOBAL_OWNER"}}, ""},
		{"ro:s:global_read_only, GROUP_OWNER,", fixture.Key{PublicKey: "ro", PrivateKey: "s", Roles: []string{"GLOBAL_READ_ONLY", "GROUP_OWNER"}}, ""},
		{"ci:@" + secretFile + ":ORG_OWNER", fixture.Key{PublicKey: "ci", PrivateKey: "from-a-file", Roles: []string{"ORG_OWNER"}}, ""},
		{"ci:ci-secret:", fixture.Key{PublicKey: "ci", PrivateKey: "ci-secret"}, ""},
		{"only-a-secret", fixture.Key{}, "a key has no ':'"},
		{":a-secret", fixture.Key{}, "the public key is empty"},
		{"ci:", fixture.Key{}, "key ci: the private key is empty"},
		{"ci::GLOBAL_OWNER", fixture.Key{}, "key ci: the private key is empty"},
		{"ci:@" + filepath.Join(dir, "missing"), fixture.Key{}, "key ci: reading the private key file " + filepath.Join(dir, "missing") + ": no such file"},
	} {
		got, err := parseKey(tt.raw, &strings.Builder{})
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error(), "secret") {
				t.Errorf("%q: %v, want %q and no secret", tt.raw, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: %+v %v, want %+v", tt.raw, got, err, tt.want)
		}
	}
}

// A key given by --key signs in with the credentials given, the banner
// leaves its private key out, and a public key the fixtures have stops
// the start, naming the flag.
func TestServerServesAKeyGivenAtStart(t *testing.T) {
	base, _, errOut, stop := start(t, &Options{Keys: []string{"ci:ci-secret:GLOBAL_OWNER", "mon:mon-secret:GROUP_MONITORING_ADMIN"}})
	defer stop()
	c, _ := client.New(client.Options{BaseURL: base, PublicKey: "ci", PrivateKey: "ci-secret"})
	if _, err := c.Get(context.Background(), "/orgs", nil); err != nil {
		t.Fatalf("as ci: %v\n%s", err, errOut)
	}
	wrong, _ := client.New(client.Options{BaseURL: base, PublicKey: "ci", PrivateKey: "not-it"})
	if _, err := wrong.Get(context.Background(), "/orgs", nil); cmdutil.ExitCode(err) != cmdutil.ExitAuth {
		t.Errorf("with another private key: %v", err)
	}
	if banner := errOut.String(); !strings.Contains(banner, "ci             (given at start)  roles=GLOBAL_OWNER,ORG_MEMBER") ||
		strings.Contains(banner, "ci-secret") || strings.Contains(banner, "mon-secret") {
		t.Errorf("banner: %s", banner)
	}

	ios, _, _, _ := iostreams.Test()
	err := Run(context.Background(), &Options{Deps: cmdutil.Deps{IO: ios}, Listen: "127.0.0.1:0", Demo: true, Keys: []string{"demoowner:x"}})
	if err == nil || !strings.Contains(err.Error(), "invalid --key: key demoowner: apiKeys[0] of the data has that public key already") || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("a fixture's public key: %v", err)
	}
	err = Run(context.Background(), &Options{Deps: cmdutil.Deps{IO: ios}, Listen: "127.0.0.1:0", Keys: []string{"a:b:OWNER"}})
	if err == nil || !strings.Contains(err.Error(), `invalid --key: key a: "OWNER" is not a role`) {
		t.Errorf("an unknown role: %v", err)
	}
}
