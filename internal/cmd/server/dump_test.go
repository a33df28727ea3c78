package server

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/store/demo"
	"github.com/omctl/omctl/internal/store/fixture"
	"github.com/omctl/omctl/internal/testutil/answers"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

// A server started on the dump of a demo server answers every list and
// read as the demo server does, and the dump is private to its owner.
func TestDumpLoadsIntoAServerThatAnswersTheSame(t *testing.T) {
	_, src := answers.Serve(t, demo.Fixtures(answers.Clock), answers.DemoOwner, answers.DemoOwnerPrivate)
	// A change after start is in the dump: it is the current data.
	newStore := `{"id":"6a1b0c2e8f9d4b0012349999","uri":"mongodb://backup-db:27017","s3BucketName":"dumped","s3BucketEndpoint":"https://s3.example.com",` +
		`"awsAccessKey":"AKIA","awsSecretKey":"secret","assignmentEnabled":true,"encryptedCredentials":false,"pathStyleAccessEnabled":false,"ssl":true,"acceptedTos":true,"sseEnabled":false,"loadFactor":1,"writeConcern":"W2","s3AuthMethod":"KEYS"}`
	if _, err := src.Send(context.Background(), "POST", "/api/public/v1.0/admin/backup/snapshot/s3Configs", []byte(newStore)); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "dump.json")
	ios, _, _, errOut := iostreams.Test()
	err := dumpRun(context.Background(), &DumpOptions{
		Deps: cmdutil.Deps{IO: ios, Client: func() (*client.Client, error) { return src, nil }, Printer: stubapi.Printer(ios, "json", "")},
		File: file,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut.String(), file) {
		t.Errorf("stderr %q does not name the file", errOut.String())
	}
	st, err := os.Stat(file)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("dump file: %v, mode %v, want 0600", err, st.Mode().Perm())
	}
	f, err := fixture.LoadFixtures(file)
	if err != nil {
		t.Fatal(err)
	}
	_, dst := answers.Serve(t, f, answers.DemoOwner, answers.DemoOwnerPrivate)
	a := answers.Collect(t, src, answers.DemoHosts())
	if !strings.Contains(a.ByRequest["GET /admin/backup/snapshot/s3Configs/6a1b0c2e8f9d4b0012349999"], "dumped") {
		t.Error("the store made after start is not in the dump")
	}
	if missing := a.Missing(); len(missing) > 0 {
		t.Errorf("the walk never read %v", missing)
	}
	if diff := answers.Diff(a, answers.Collect(t, dst, answers.DemoHosts())); len(diff) > 0 {
		t.Errorf("%d answers differ:\n%s", len(diff), strings.Join(diff, "\n"))
	}
}

// -o is the format, as for every command: the dump goes to --file, and a
// file given to -o, as before, is a usage error that says how it is
// written now, before anything is asked of the server.
func TestDumpOutputIsAFormatAndOldUsageIsExplained(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	for output, want := range map[string]string{
		"json.out": "-o is the output format (json or yaml), as for every command, no longer the file: write the dump with --file json.out",
		"-":        "the dump goes to standard output when --file is not given",
	} {
		err := dumpRun(context.Background(), &DumpOptions{Deps: cmdutil.Deps{IO: ios}, Output: output})
		if err == nil || !strings.Contains(err.Error(), want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("-o %s: %v, want %q", output, err, want)
		}
	}
	srv := stubapi.New(t)
	srv.ReplyControl("GET", "fixtures", 200, `{"projects":[{"id":"5e2b0c2e8f9d4b0012340001","name":"p"}]}`)
	ios, _, out, _ := iostreams.Test()
	err := dumpRun(context.Background(), &DumpOptions{Deps: srv.Deps(ios, "yaml", ""), Output: "yaml"})
	if err != nil || out.String() != "projects:\n  - id: 5e2b0c2e8f9d4b0012340001\n    name: p\n" {
		t.Errorf("-o yaml: %v %q", err, out.String())
	}
	if _, err := os.Stat("yaml"); err == nil {
		t.Error("-o yaml wrote a file named yaml")
	}
}
