package apikeys

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

// execute runs cmd with args as cobra would, its help and errors kept off stdout.
func execute(cmd *cobra.Command, args []string) error {
	cmd.SetArgs(args)
	return cmd.Execute()
}

func TestNewCmdCreate(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		wantErr string
		check   func(*CreateOptions) bool
	}{
		{[]string{"--desc", "ci", "--role", "GROUP_READ_ONLY"}, "", func(o *CreateOptions) bool {
			return o.Desc == "ci" && slices.Equal(o.Roles, []string{"GROUP_READ_ONLY"})
		}},
		// --role is repeatable and comma-separated; checking is left to the run.
		{[]string{"--desc", "two roles", "--role", "GROUP_READ_ONLY,GROUP_BACKUP_ADMIN", "--role", "BOGUS"}, "", func(o *CreateOptions) bool {
			return o.Desc == "two roles" && slices.Equal(o.Roles, []string{"GROUP_READ_ONLY", "GROUP_BACKUP_ADMIN", "BOGUS"})
		}},
		{[]string{"--desc", "ci", "--role", "GROUP_READ_ONLY", "--save-profile", "ci"}, "", func(o *CreateOptions) bool {
			return o.SaveProfile == "ci" && o.ConfigPath != nil && o.Connection != nil
		}},
		{[]string{"--desc", "ci", "--role", "GROUP_READ_ONLY", "--save-profile"}, "flag needs an argument", nil},
		{[]string{"--role", "GROUP_READ_ONLY"}, `required flag(s) "desc" not set`, nil},
		{[]string{"--desc", "ci"}, `required flag(s) "role" not set`, nil},
		{nil, `required flag(s) "desc", "role" not set`, nil},
		{[]string{"--desc", "ci", "--role", "GROUP_READ_ONLY", "extra"}, `unknown command "extra"`, nil},
		{[]string{"--desc", "ci", "--role", "GROUP_READ_ONLY", "--bogus"}, "unknown flag: --bogus", nil},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *CreateOptions
		cmd := NewCmdCreate(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *CreateOptions) error { got = o; return nil })
		cmd.SetOut(ios.ErrOut)
		cmd.SetErr(ios.ErrOut)
		err := execute(cmd, tt.args)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || got != nil {
				t.Errorf("%v: error %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got == nil || !tt.check(got) || got.IO != ios {
			t.Errorf("%v: %v %+v", tt.args, err, got)
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
		cmd.SetOut(ios.ErrOut)
		cmd.SetErr(ios.ErrOut)
		err := execute(cmd, tt.args)
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

func TestCreateJSONPrintsTheKeyAndWarnsOnStderr(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("POST", "/groups/"+project+"/apiKeys", 201, keyJSON)
	ios, _, out, errOut := iostreams.Test()
	err := createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, "json", project), Desc: "ci", Roles: []string{"GROUP_READ_ONLY"}})
	if err != nil {
		t.Fatal(err)
	}
	req := srv.Only()
	if req.Method != "POST" || req.Path != "/api/public/v1.0/groups/"+project+"/apiKeys" || len(req.Query) != 0 {
		t.Errorf("sent %s %s?%v", req.Method, req.Path, req.Query)
	}
	var got map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil || got["privateKey"] != "11111111-2222-3333-4444-555555555555" || got["id"] != keyID {
		t.Errorf("stdout %q: %v", out.String(), err)
	}
	if want := "Warning: store the private key of abcdefgh now; it is shown only once.\n"; errOut.String() != want {
		t.Errorf("stderr %q, want %q", errOut.String(), want)
	}
}

func TestCreateWithJQPrintsOnlyThePrivateKey(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("POST", "/groups/"+project+"/apiKeys", 200, keyJSON)
	ios, _, out, _ := iostreams.Test()
	err := createRun(context.Background(), &CreateOptions{Deps: cmdutil.Deps{IO: ios, Printer: stubapi.Printer(ios, "json", ".privateKey"), ProjectID: stubapi.Project(project), Client: srv.Client()}, Desc: "ci", Roles: []string{"GROUP_READ_ONLY"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out.String()); got != "11111111-2222-3333-4444-555555555555" && got != `"11111111-2222-3333-4444-555555555555"` {
		t.Errorf("stdout %q", out.String())
	}
}

func TestCreateWithoutPrivateKeyInAnswerDoesNotWarn(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("POST", "/groups/"+project+"/apiKeys", 200, `{"id":"`+keyID+`","desc":"ci","publicKey":"abcdefgh","roles":[]}`)
	ios, _, out, errOut := iostreams.Test()
	err := createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, "table", project), Desc: "ci", Roles: []string{"GROUP_READ_ONLY"}})
	if err != nil {
		t.Fatal(err)
	}
	if errOut.Len() != 0 || out.String() != "ID:          "+keyID+"\nDescription: ci\nPublic key:  abcdefgh\n" {
		t.Errorf("stdout %q stderr %q", out.String(), errOut.String())
	}
}

func TestCreateAccepts250RunesAndSendsEveryRole(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("POST", "/groups/"+project+"/apiKeys", 200, keyJSON)
	ios, _, _, _ := iostreams.Test()
	desc := strings.Repeat("é", MaxDescLength) // 250 runes, 500 bytes
	err := createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, "table", project), Desc: desc, Roles: KeyRoles})
	if err != nil {
		t.Fatal(err)
	}
	body := srv.Only().JSON(t)
	roles, _ := body["roles"].([]any)
	if body["desc"] != desc || len(roles) != len(KeyRoles) {
		t.Errorf("body = %v", body)
	}
}

func TestCreateServerErrors(t *testing.T) {
	for _, tt := range []struct {
		status int
		code   string
		want   int
	}{
		{400, "INVALID_ATTRIBUTE", cmdutil.ExitError},
		{401, "UNAUTHORIZED", cmdutil.ExitAuth},
		{403, "USER_CANNOT_ACCESS_GROUP", cmdutil.ExitAuth},
		{404, "GROUP_NOT_FOUND", cmdutil.ExitNotFound},
		{500, "UNEXPECTED_ERROR", cmdutil.ExitError},
	} {
		srv := stubapi.New(t)
		srv.Reply("POST", "/groups/"+project+"/apiKeys", tt.status, `{"detail":"d","error":0,"errorCode":"`+tt.code+`","reason":"r"}`)
		ios, _, out, errOut := iostreams.Test()
		err := createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, "table", project), Desc: "ci", Roles: []string{"GROUP_READ_ONLY"}})
		if cmdutil.ExitCode(err) != tt.want || !strings.Contains(err.Error(), tt.code) || out.Len() != 0 || strings.Contains(errOut.String(), "Warning") {
			t.Errorf("%d: exit %d (%v) stdout %q stderr %q", tt.status, cmdutil.ExitCode(err), err, out.String(), errOut.String())
		}
	}
}

func TestCreatePassesOnFactoryErrors(t *testing.T) {
	boom := errors.New("no project: set project_id")
	ios, _, _, _ := iostreams.Test()
	srv := stubapi.New(t)
	base := CreateOptions{Deps: srv.Deps(ios, "table", project), Desc: "ci", Roles: []string{"GROUP_READ_ONLY"}}
	noProject := base
	noProject.ProjectID = func() (string, error) { return "", boom }
	noClient := base
	noClient.Client = func() (*client.Client, error) { return nil, boom }
	badFormat := base
	badFormat.Printer = stubapi.Printer(ios, "xml", "")
	for name, o := range map[string]CreateOptions{"project": noProject, "client": noClient} {
		if err := createRun(context.Background(), &o); !errors.Is(err, boom) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := createRun(context.Background(), &badFormat); cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("format: %v", err)
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
