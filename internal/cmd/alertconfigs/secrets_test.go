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
	if err == nil || !strings.Contains(err.Error(), "notifications[0].webhookUrl: ${env:TEST_HOOK_URL}: the environment variable TEST_HOOK_URL is not set") || len(srv.Requests()) != 0 {
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
