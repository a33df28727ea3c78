package apikeys

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

const (
	project = "5e2b0c2e8f9d4b0012345678"
	org     = "5e1a0c2e8f9d4b0012345678"
	keyID   = "5f4d0c2e8f9d4b0012345678"
	keyJSON = `{"id":"5f4d0c2e8f9d4b0012345678","desc":"ci","publicKey":"abcdefgh","privateKey":"11111111-2222-3333-4444-555555555555","roles":[{"groupId":"5e2b0c2e8f9d4b0012345678","roleName":"GROUP_READ_ONLY"}]}`
)

func TestNewCmdAPIKeysTree(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdAPIKeys(&cmdutil.Factory{IOStreams: ios})
	for _, path := range [][]string{{"create"}, {"accesslist", "add"}} {
		c, rest, err := cmd.Find(path)
		if err != nil || len(rest) != 0 || c.Name() != path[len(path)-1] {
			t.Errorf("%v: found %v %v %v", path, c, rest, err)
		}
	}
}

const entryJSON = `{"cidrBlock":"10.0.0.0/16","count":4,"created":"2026-01-01T00:00:00Z"}`

// orgDeps are stub deps with org as the organization.
func orgDeps(srv *stubapi.Server, ios *iostreams.IOStreams, format string) cmdutil.Deps {
	d := srv.Deps(ios, format, "")
	d.OrgID = func() (string, error) { return org, nil }
	return d
}

func TestNewCmdListsAndRemove(t *testing.T) {
	f := func(ios *iostreams.IOStreams) *cmdutil.Factory { return &cmdutil.Factory{IOStreams: ios} }
	for _, tt := range []struct {
		name    string
		args    []string
		wantErr string
		check   func(any) bool
	}{
		{"list", []string{"--limit", "5"}, "", func(o any) bool { return o.(*ListOptions).List.Limit == 5 }},
		{"list", []string{keyID}, "unknown command", nil},
		{"describe", []string{keyID}, "", func(o any) bool { return o.(*DescribeOptions).KeyID == keyID }},
		{"describe", nil, "API_KEY_ID", nil},
		{"al-list", []string{keyID, "--all"}, "", func(o any) bool { a := o.(*AccessListListOptions); return a.KeyID == keyID && a.List.All }},
		{"al-list", nil, "API_KEY_ID", nil},
		{"al-describe", []string{keyID, "10.0.0.0/16"}, "", func(o any) bool { a := o.(*AccessListDescribeOptions); return a.Entry == "10.0.0.0/16" }},
		{"al-describe", []string{keyID}, "ADDRESS", nil},
		{"remove", []string{keyID, "203.0.113.7"}, "", func(o any) bool {
			a := o.(*AccessListRemoveOptions)
			return a.KeyID == keyID && a.Entry == "203.0.113.7"
		}},
		{"remove", []string{keyID}, "ADDRESS", nil},
	} {
		ios, _, _, _ := iostreams.Test()
		var got any
		var cmd *cobra.Command
		switch tt.name {
		case "list":
			cmd = NewCmdList(f(ios), func(_ context.Context, o *ListOptions) error { got = o; return nil })
		case "describe":
			cmd = NewCmdDescribe(f(ios), func(_ context.Context, o *DescribeOptions) error { got = o; return nil })
		case "al-list":
			cmd = NewCmdAccessListList(f(ios), func(_ context.Context, o *AccessListListOptions) error { got = o; return nil })
		case "al-describe":
			cmd = NewCmdAccessListDescribe(f(ios), func(_ context.Context, o *AccessListDescribeOptions) error { got = o; return nil })
		case "remove":
			cmd = NewCmdAccessListRemove(f(ios), func(_ context.Context, o *AccessListRemoveOptions) error { got = o; return nil })
		}
		err := cmdtest.Execute(cmd, ios, tt.args...)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || got != nil {
				t.Errorf("%s %v: error %v, want %q", tt.name, tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got == nil || !tt.check(got) {
			t.Errorf("%s %v: %v %+v", tt.name, tt.args, err, got)
		}
	}
}

func TestAccessListEntryPathsEscapeTheBlock(t *testing.T) {
	base := "/orgs/" + org + "/apiKeys/" + keyID + "/accessList"
	srv := stubapi.New(t)
	srv.Reply("GET", base, 200, `{"results":[`+entryJSON+`],"totalCount":1}`)
	srv.Reply("GET", base+"/10.0.0.0%2F16", 200, entryJSON)
	srv.Reply("DELETE", base+"/10.0.0.0%2F16", 200, `{}`)
	srv.Reply("DELETE", base+"/203.0.113.7", 200, ``)
	ios, _, out, _ := iostreams.Test()
	if err := accessListListRun(context.Background(), &AccessListListOptions{Deps: orgDeps(srv, ios, "table"), KeyID: keyID, List: &cmdutil.ListFlags{Page: 1, Limit: 100}}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "10.0.0.0/16\t4\t") {
		t.Errorf("list: %q", out.String())
	}
	out.Reset()
	if err := accessListDescribeRun(context.Background(), &AccessListDescribeOptions{Deps: orgDeps(srv, ios, "json"), KeyID: keyID, Entry: "10.0.0.0/16"}); err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(out.String()) != entryJSON {
		t.Errorf("describe: %q", out.String())
	}
	for _, entry := range []string{"10.0.0.0/16", "203.0.113.7"} {
		out.Reset()
		if err := accessListRemoveRun(context.Background(), &AccessListRemoveOptions{Deps: orgDeps(srv, ios, "table"), KeyID: keyID, Entry: entry}); err != nil {
			t.Fatalf("remove %s: %v", entry, err)
		}
		if out.String() != entry+"\n" {
			t.Errorf("remove %s, piped, printed %q", entry, out.String())
		}
	}
	if n := len(srv.Requests()); n != 4 {
		t.Errorf("%d requests", n)
	}
}
