package apikeys

import (
	"context"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const (
	project = "5e2b0c2e8f9d4b0012345678"
	org     = "5e1a0c2e8f9d4b0012345678"
	keyID   = "5f4d0c2e8f9d4b0012345678"
	keyJSON = `{"id":"5f4d0c2e8f9d4b0012345678","desc":"ci","publicKey":"abcdefgh","privateKey":"11111111-2222-3333-4444-555555555555","roles":[{"groupId":"5e2b0c2e8f9d4b0012345678","roleName":"GROUP_READ_ONLY"}]}`
)

func TestCreateSendsDescAndRolesAndWarnsOnce(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("POST", "/groups/"+project+"/apiKeys", 200, keyJSON)
	ios, _, out, errOut := iostreams.Test()
	err := createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, "table", project), Desc: "ci", Roles: []string{"GROUP_READ_ONLY", "GROUP_BACKUP_ADMIN", "GROUP_READ_ONLY"}})
	if err != nil {
		t.Fatal(err)
	}
	// A role given twice (--role X,X) is sent once.
	if got := string(srv.Only().Body); got != `{"desc":"ci","roles":["GROUP_READ_ONLY","GROUP_BACKUP_ADMIN"]}` {
		t.Errorf("body = %s", got)
	}
	if !strings.Contains(out.String(), "11111111-2222-3333-4444-555555555555") {
		t.Errorf("private key not printed: %q", out.String())
	}
	if !strings.Contains(errOut.String(), "shown only once") || strings.Contains(errOut.String(), "11111111") {
		t.Errorf("stderr = %q", errOut.String())
	}
}

func TestCreateValidatesDescAndRoles(t *testing.T) {
	for _, tc := range []struct {
		desc  string
		roles []string
		want  string
	}{
		{"", []string{"GROUP_READ_ONLY"}, "0 characters, want 1 to 250"},
		{strings.Repeat("é", 251), []string{"GROUP_READ_ONLY"}, "251 characters"},
		{"ok", nil, "at least one --role"},
		{"ok", []string{"GROUP_READER"}, `invalid --role "GROUP_READER"`},
	} {
		srv := stubapi.New(t)
		ios, _, _, _ := iostreams.Test()
		err := createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, "table", project), Desc: tc.desc, Roles: tc.roles})
		if err == nil || !strings.Contains(err.Error(), tc.want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage || len(srv.Requests()) != 0 {
			t.Errorf("want %q: err = %v", tc.want, err)
		}
	}
}

func TestAccessListAddSendsOneEntryPerAddress(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("POST", "/orgs/"+org+"/apiKeys/"+keyID+"/accessList", 200,
		`{"results":[{"ipAddress":"203.0.113.7","count":0,"created":"2026-11-21T00:00:00Z"},{"cidrBlock":"10.0.0.0/16","count":3}],"totalCount":2}`)
	ios, _, out, _ := iostreams.Test()
	err := accessListAddRun(context.Background(), &AccessListAddOptions{Deps: cmdutil.Deps{Printer: stubapi.Printer(ios, "table", ""), OrgID: stubapi.Project(org), Client: srv.Client()}, KeyID: keyID, IPs: []string{"203.0.113.7"}, CIDRs: []string{"10.0.0.0/16"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(srv.Only().Body); got != `[{"ipAddress":"203.0.113.7"},{"cidrBlock":"10.0.0.0/16"}]` {
		t.Errorf("body = %s", got)
	}
	if want := "203.0.113.7\t0\t2026-11-21T00:00:00Z\t\t\n10.0.0.0/16\t3\t\t\t\n"; out.String() != want {
		t.Errorf("output = %q, want %q", out.String(), want)
	}
}

func TestAccessListAddRejectsBadAddresses(t *testing.T) {
	for _, tc := range []struct {
		ips, cidrs []string
		want       string
	}{
		{[]string{"10.0.0.0/8"}, nil, "use --cidr"},
		{nil, []string{"10.0.0.1"}, "CIDR notation"},
		{[]string{"300.1.1.1"}, nil, "not an IPv4 or IPv6"},
		{nil, nil, "at least one"},
	} {
		srv := stubapi.New(t)
		ios, _, _, _ := iostreams.Test()
		err := accessListAddRun(context.Background(), &AccessListAddOptions{Deps: cmdutil.Deps{Printer: stubapi.Printer(ios, "table", ""), OrgID: stubapi.Project(org), Client: srv.Client()}, KeyID: keyID, IPs: tc.ips, CIDRs: tc.cidrs})
		if err == nil || !strings.Contains(err.Error(), tc.want) || len(srv.Requests()) != 0 {
			t.Errorf("want %q: err = %v", tc.want, err)
		}
	}
}
