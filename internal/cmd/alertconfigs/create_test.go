package alertconfigs

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

func TestCreatePostsTheFileAsIs(t *testing.T) {
	doc := `{"groupId":"` + project + `","eventTypeName":"HOST_DOWN","enabled":true,"notifications":[{"typeName":"EMAIL","emailAddress":"a@example.com"}],"custom":1}`
	srv := stubapi.New(t)
	srv.Reply("POST", "/groups/"+project+"/alertConfigs", 200, cfgJSON)
	ios, stdin, out, _ := iostreams.Test()
	stdin.WriteString(doc)
	err := createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, "json", project), File: "-"})
	if err != nil {
		t.Fatal(err)
	}
	req := srv.Only()
	if req.Method != "POST" || string(req.Body) != doc {
		t.Errorf("sent %s %s", req.Method, req.Body)
	}
	if out.String() != cfgJSON+"\n" {
		t.Errorf("-o json output = %q, want the server's answer", out.String())
	}
}

func TestCreateTablePipedPrintsTheNewRow(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("POST", "/groups/"+project+"/alertConfigs", 200, cfgJSON)
	ios, stdin, out, stderr := iostreams.Test()
	stdin.WriteString(`{"eventTypeName":"HOST_DOWN","notifications":[]}`)
	err := createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, "table", project), File: "-"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), configID+"\tHOST_DOWN\ttrue\t") {
		t.Errorf("output = %q", out.String())
	}
	if !strings.Contains(stderr.String(), `no "enabled" field`) {
		t.Errorf("no warning about enabled: %q", stderr.String())
	}
}

func TestCreateRefusesWhatTheServerWould(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`{"id":"` + configID + `","eventTypeName":"HOST_DOWN","notifications":[]}`, `remove "id"`},
		{`{"groupId":"5e2b0c2e8f9d4b00123456ff","eventTypeName":"HOST_DOWN","notifications":[]}`, "is not the project " + project},
		{`{"groupId":5,"eventTypeName":"HOST_DOWN","notifications":[]}`, "groupId: got a number, want a string"},
		{`{"notifications":[]}`, "eventTypeName is required"},
		{`{"eventTypeName":"HOST_DOWN"}`, "notifications is required"},
		{`[]`, "must be a JSON object"},
	} {
		srv := stubapi.New(t)
		ios, stdin, _, _ := iostreams.Test()
		stdin.WriteString(tc.doc)
		err := createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, "json", project), File: "-"})
		if err == nil || !strings.Contains(err.Error(), tc.want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage || len(srv.Requests()) != 0 {
			t.Errorf("%s: err = %v, want %q", tc.doc, err, tc.want)
		}
	}
}

// --dry-run of create and update prints the request with its secrets
// masked and the diff, and sends no write.
func TestCreateAndUpdateDryRunSendNothing(t *testing.T) {
	doc := `{"eventTypeName":"HOST_DOWN","enabled":true,"notifications":[{"typeName":"WEBHOOK","webhookUrl":"https://hooks.example.com/T0/secret-path","webhookSecret":"s3cret"}]}`
	for _, update := range []bool{false, true} {
		srv := stubapi.New(t)
		ios, stdin, out, _ := iostreams.Test()
		stdin.WriteString(doc)
		var err error
		if update {
			srv.Reply("GET", "/groups/"+project+"/alertConfigs/"+configID, 200, cfgJSON)
			err = updateRun(context.Background(), &UpdateOptions{Deps: srv.Deps(ios, "table", project), ConfigID: configID, File: "-", DryRun: true})
		} else {
			err = createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, "table", project), File: "-", DryRun: true})
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range srv.Requests() {
			if r.Method != "GET" {
				t.Errorf("update=%v: sent %s", update, r.Method)
			}
		}
		got := out.String()
		if strings.Contains(got, "s3cret") || strings.Contains(got, "secret-path") || !strings.Contains(got, `"webhookUrl": "https://hooks.example.com/****"`) {
			t.Errorf("update=%v: secrets not masked:\n%s", update, got)
		}
		if want := map[bool]string{false: "POST /groups/" + project + "/alertConfigs\n", true: "PUT /groups/" + project + "/alertConfigs/" + configID + "\n"}[update]; !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
		if update && !strings.Contains(got, `-      "typeName": "SMS"`) {
			t.Errorf("update: the diff does not show the SMS target going:\n%s", got)
		}
	}
}

// The body of describe piped into create or update is refused, each
// redacted field named, and nothing is sent (the strict stub fails on
// any request).
func TestCreateAndUpdateRefuseRedactedSecretsSendingNothing(t *testing.T) {
	for _, verb := range []string{"create", "update"} {
		srv := stubapi.New(t)
		ios, _, _, _ := iostreams.Test()
		file := writeBody(t, described)
		var err error
		if verb == "create" {
			err = createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, "json", project), File: file})
		} else {
			err = updateRun(context.Background(), &UpdateOptions{Deps: srv.Deps(ios, "json", project), ConfigID: configID, File: file})
		}
		if cmdutil.ExitCode(err) != cmdutil.ExitUsage || len(srv.Requests()) != 0 {
			t.Fatalf("%s: exit %d (%v), %d requests", verb, cmdutil.ExitCode(err), err, len(srv.Requests()))
		}
		for _, want := range []string{"notifications[0].webhookSecret holds a redacted value", "notifications[0].webhookUrl holds a redacted value",
			"notifications[1].apiToken holds a redacted value", "${env:NAME} or ${file:PATH}"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v lacks %q", verb, err, want)
			}
		}
	}
}

// Secrets given by reference are sent as their values; an unset variable
// is refused before anything is sent.
func TestCreateResolvesReferences(t *testing.T) {
	secretFile := filepath.Join(t.TempDir(), "hook")
	if err := os.WriteFile(secretFile, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	body := `{"eventTypeName":"HOST_DOWN","enabled":true,"notifications":[
 {"typeName":"WEBHOOK","webhookUrl":"${env:TEST_HOOK_URL}","webhookSecret":"${file:` + secretFile + `}","delayMin":0}]}`
	file := writeBody(t, body)

	srv := stubapi.New(t)
	ios, _, _, _ := iostreams.Test()
	t.Setenv("TEST_HOOK_URL", "")
	err := createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, "json", project), File: file})
	if err == nil || !strings.Contains(err.Error(), "the environment variable of 1 secret reference is not set:\n    TEST_HOOK_URL  notifications[0].webhookUrl") || len(srv.Requests()) != 0 {
		t.Fatalf("unset variable: %v, %d requests", err, len(srv.Requests()))
	}

	t.Setenv("TEST_HOOK_URL", "https://hooks.example.com/T1/B2")
	srv = stubapi.New(t)
	srv.Reply("POST", "/groups/"+project+"/alertConfigs", 201, `{"id":"`+configID+`","enabled":true}`)
	if err := createRun(context.Background(), &CreateOptions{Deps: srv.Deps(ios, "json", project), File: file}); err != nil {
		t.Fatal(err)
	}
	n := srv.Only().JSON(t)["notifications"].([]any)[0].(map[string]any)
	if n["webhookUrl"] != "https://hooks.example.com/T1/B2" || n["webhookSecret"] != "s3cret" {
		t.Errorf("sent %v", n)
	}
}

// described is a configuration as describe -o json prints it: its
// secrets redacted by the server.
const described = `{"eventTypeName":"HOST_DOWN","enabled":true,"notifications":[
 {"typeName":"WEBHOOK","webhookUrl":"https://hooks.example.com/****","webhookSecret":"******","delayMin":0},
 {"typeName":"SLACK","apiToken":"****************5678","channelName":"#ops"}]}`

func writeBody(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cfg.json")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
