package apikeys

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

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

func TestNewCmdAccessListAdd(t *testing.T) {
	for _, tt := range []struct {
		args     []string
		wantErr  string
		wantExit int
		check    func(*AccessListAddOptions) bool
	}{
		{[]string{keyID, "--ip", "203.0.113.7"}, "", 0, func(o *AccessListAddOptions) bool {
			return o.KeyID == keyID && slices.Equal(o.IPs, []string{"203.0.113.7"}) && o.CIDRs == nil
		}},
		// StringArray: a comma is not a separator, each flag is one entry, in order.
		{[]string{keyID, "--cidr", "10.0.0.0/16", "--cidr", "192.0.2.0/24", "--ip", "::1"}, "", 0, func(o *AccessListAddOptions) bool {
			return slices.Equal(o.CIDRs, []string{"10.0.0.0/16", "192.0.2.0/24"}) && slices.Equal(o.IPs, []string{"::1"})
		}},
		{[]string{keyID, "--ip", "1.1.1.1,2.2.2.2"}, "", 0, func(o *AccessListAddOptions) bool {
			return slices.Equal(o.IPs, []string{"1.1.1.1,2.2.2.2"})
		}},
		{[]string{keyID}, "at least one of the flags in the group [ip cidr] is required", 0, nil},
		{[]string{"--ip", "203.0.113.7"}, "missing API_KEY_ID", cmdutil.ExitUsage, nil},
		{[]string{keyID, keyID, "--ip", "203.0.113.7"}, "too many arguments", cmdutil.ExitUsage, nil},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *AccessListAddOptions
		cmd := NewCmdAccessListAdd(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *AccessListAddOptions) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || got != nil {
				t.Errorf("%v: error %v, want %q", tt.args, err, tt.wantErr)
			}
			var fe *cmdutil.FlagError
			if tt.wantExit == cmdutil.ExitUsage && (!errors.As(err, &fe) || cmdutil.ExitCode(err) != cmdutil.ExitUsage) {
				t.Errorf("%v: %v is not a usage error", tt.args, err)
			}
			continue
		}
		if err != nil || got == nil || !tt.check(got) {
			t.Errorf("%v: %v %+v", tt.args, err, got)
		}
	}
}

func TestAccessListAddJSONAndIPv6(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("POST", "/orgs/"+org+"/apiKeys/"+keyID+"/accessList", 200, `{"results":[{"ipAddress":"2001:db8::1","count":1}],"totalCount":1}`)
	ios, _, out, _ := iostreams.Test()
	err := accessListAddRun(context.Background(), &AccessListAddOptions{Deps: cmdutil.Deps{Printer: stubapi.Printer(ios, "json", ""), OrgID: stubapi.Project(org), Client: srv.Client()}, KeyID: keyID, IPs: []string{"2001:db8::1"}, CIDRs: []string{"2001:db8::/32"}})
	if err != nil {
		t.Fatal(err)
	}
	req := srv.Only()
	if req.Method != "POST" || len(req.Query) != 0 || string(req.Body) != `[{"ipAddress":"2001:db8::1"},{"cidrBlock":"2001:db8::/32"}]` {
		t.Errorf("sent %s ?%v %s", req.Method, req.Query, req.Body)
	}
	if !json.Valid(out.Bytes()) || !strings.Contains(out.String(), `"2001:db8::1"`) {
		t.Errorf("stdout %q", out.String())
	}
}

func TestAccessListAddRefusesABadKeyID(t *testing.T) {
	srv := stubapi.New(t)
	ios, _, _, _ := iostreams.Test()
	err := accessListAddRun(context.Background(), &AccessListAddOptions{Deps: cmdutil.Deps{Printer: stubapi.Printer(ios, "table", ""), OrgID: stubapi.Project(org), Client: srv.Client()}, KeyID: "abc", IPs: []string{"203.0.113.7"}})
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), `invalid API key ID "abc"`) {
		t.Errorf("err = %v", err)
	}
}

func TestAccessListAddNeedsAnOrg(t *testing.T) {
	srv := stubapi.New(t)
	ios, _, _, _ := iostreams.Test()
	noOrg := cmdutil.FlagErrorf("no organization: give --org or set org_id")
	err := accessListAddRun(context.Background(), &AccessListAddOptions{Deps: cmdutil.Deps{Printer: stubapi.Printer(ios, "table", ""), OrgID: func() (string, error) { return "", noOrg }, Client: srv.Client()}, KeyID: keyID, IPs: []string{"203.0.113.7"}})
	if !errors.Is(err, noOrg) || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("err = %v", err)
	}
}

func TestAccessListAddServerErrors(t *testing.T) {
	for _, tt := range []struct {
		status int
		want   int
	}{
		{400, cmdutil.ExitError},
		{403, cmdutil.ExitAuth},
		{404, cmdutil.ExitNotFound},
	} {
		srv := stubapi.New(t)
		srv.Reply("POST", "/orgs/"+org+"/apiKeys/"+keyID+"/accessList", tt.status, `{"detail":"d","error":0,"errorCode":"E","reason":"r"}`)
		ios, _, out, _ := iostreams.Test()
		err := accessListAddRun(context.Background(), &AccessListAddOptions{Deps: cmdutil.Deps{Printer: stubapi.Printer(ios, "table", ""), OrgID: stubapi.Project(org), Client: srv.Client()}, KeyID: keyID, CIDRs: []string{"10.0.0.0/8"}})
		if cmdutil.ExitCode(err) != tt.want || out.Len() != 0 {
			t.Errorf("%d: exit %d (%v) stdout %q", tt.status, cmdutil.ExitCode(err), err, out.String())
		}
	}
}

func TestAccessListAddPassesOnFactoryErrors(t *testing.T) {
	boom := errors.New("boom")
	ios, _, _, _ := iostreams.Test()
	err := accessListAddRun(context.Background(), &AccessListAddOptions{Deps: cmdutil.Deps{Printer: stubapi.Printer(ios, "table", ""), OrgID: stubapi.Project(org), Client: func() (*client.Client, error) { return nil, boom }}, KeyID: keyID, IPs: []string{"203.0.113.7"}})
	if !errors.Is(err, boom) {
		t.Errorf("client: %v", err)
	}
	err = accessListAddRun(context.Background(), &AccessListAddOptions{Deps: cmdutil.Deps{Printer: stubapi.Printer(ios, "xml", ""), OrgID: stubapi.Project(org), Client: func() (*client.Client, error) { return nil, boom }}, KeyID: keyID, IPs: []string{"203.0.113.7"}})
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("format: %v", err)
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
