package apikeys

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

// --dry-run prints the POST a creation would send and sends nothing: the
// strict stub fails on any request.
func TestCreateDryRunSendsNothing(t *testing.T) {
	srv := stubapi.New(t)
	ios, _, out, _ := iostreams.Test()
	err := createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, "table", project), Desc: "ci", Roles: []string{"GROUP_READ_ONLY"}, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
	for _, want := range []string{"POST /groups/" + project + "/apiKeys\n", `"desc": "ci"`, `"GROUP_READ_ONLY"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in %q", want, out.String())
		}
	}
}

func TestAccessListAddDryRunSendsNothing(t *testing.T) {
	srv := stubapi.New(t)
	ios, _, out, _ := iostreams.Test()
	deps := srv.Deps(ios, "json", project)
	deps.OrgID = stubapi.Project(org)
	err := accessListAddRun(context.Background(), &AccessListAddOptions{Deps: deps, KeyID: keyID, IPs: []string{"203.0.113.7"}, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
	got := out.String()
	if !strings.Contains(got, `"dryRun":true`) || !strings.Contains(got, `"method":"POST"`) || !strings.Contains(got, `"ipAddress":"203.0.113.7"`) {
		t.Errorf("preview %q", got)
	}
}

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
