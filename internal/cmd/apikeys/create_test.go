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
		err := cmdtest.Execute(cmd, ios, tt.args...)
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

// The private key of a new key is shown only once: whole, at every width
// and in every format, and on a terminal as a line of its own.
func TestCreateShowsThePrivateKeyWholeAtEveryWidthAndFormat(t *testing.T) {
	for _, tt := range []struct {
		format string
		tty    bool
		width  int
	}{
		{"table", true, 60}, {"table", true, 80}, {"table", true, 200},
		{"table", false, 60}, {"json", true, 60}, {"jsonl", false, 80}, {"yaml", true, 60},
	} {
		srv := stubapi.New(t)
		srv.Reply("POST", "/groups/"+project+"/apiKeys", 201, twoRoles)
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(tt.tty)
		ios.SetTerminalWidth(tt.width)
		err := createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, tt.format, project), Desc: "CI job", Roles: []string{"GROUP_READ_ONLY", "GROUP_BACKUP_ADMIN"}})
		if err != nil {
			t.Fatalf("%+v: %v", tt, err)
		}
		got := out.String()
		if !strings.Contains(got, privateKey) || strings.Contains(got, "…") {
			t.Errorf("%+v: the private key is not whole:\n%s", tt, got)
		}
		if tt.format == "table" {
			if !strings.Contains(got, "\nPrivate key: "+privateKey+"\n") || strings.Contains(got, "\t") {
				t.Errorf("%+v: the key is not a field of its own line:\n%s", tt, got)
			}
		}
	}
}

const (
	privateKey = "092524ce-19d4-4c7e-9a51-3f0c7d2b8e61"
	twoRoles   = `{"id":"5f4d0c2e8f9d4b0012345678","desc":"CI job with a long description that fills a column","publicKey":"qwertyui","privateKey":"` + privateKey + `","roles":[{"groupId":"5e2b0c2e8f9d4b0012345678","roleName":"GROUP_READ_ONLY"},{"groupId":"5e2b0c2e8f9d4b0012345678","roleName":"GROUP_BACKUP_ADMIN"}]}`
)
