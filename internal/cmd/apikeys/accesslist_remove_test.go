package apikeys

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

// --dry-run of remove reads the entry and shows the DELETE; the strict
// stub has no DELETE to answer.
func TestAccessListRemoveDryRunSendsNothing(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/orgs/"+org+"/apiKeys/"+keyID+"/accessList/10.0.0.0%2F16", 200, entryJSON)
	ios, _, out, _ := iostreams.Test()
	err := accessListRemoveRun(context.Background(), &AccessListRemoveOptions{Deps: orgDeps(srv, ios, "table"), KeyID: keyID, Entry: "10.0.0.0/16", DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := srv.Only(); r.Method != "GET" {
		t.Errorf("sent %s", r.Method)
	}
	if got := out.String(); !strings.Contains(got, "DELETE /orgs/"+org+"/apiKeys/"+keyID+"/accessList/10.0.0.0%2F16") || !strings.Contains(got, "+++ /dev/null") {
		t.Errorf("preview %q", got)
	}
}

func TestRemoveRefusesWhatIsNotAnAddress(t *testing.T) {
	srv := stubapi.New(t) // strict: no request is expected
	ios, _, _, _ := iostreams.Test()
	for _, tc := range []struct{ key, entry, want string }{
		{keyID, "10.0.0.0/33", "invalid ADDRESS"},
		{keyID, "db.example.com", "invalid ADDRESS"},
		{"ci", "10.0.0.1", "invalid API key ID"},
	} {
		err := accessListRemoveRun(context.Background(), &AccessListRemoveOptions{Deps: orgDeps(srv, ios, "table"), KeyID: tc.key, Entry: tc.entry})
		if err == nil || !strings.Contains(err.Error(), tc.want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%s %s: %v", tc.key, tc.entry, err)
		}
	}
}
