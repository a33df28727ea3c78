package cmdutil_test

import (
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

// A project named by --project is looked up once per run; an id is never
// looked up.
func TestProjectNameIsResolvedOncePerRun(t *testing.T) {
	const id = "5e2b0c2e8f9d4b0012345678"
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/byName/my shop", 200, `{"id":"`+id+`","name":"my shop"}`)
	f := cmdtest.EnvFactory(t, srv.URL, "my shop")
	for i := 0; i < 2; i++ {
		got, err := f.ProjectID()
		if err != nil || got != id {
			t.Fatalf("ProjectID = %q, %v", got, err)
		}
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d lookups", n)
	}
	if p := srv.Only().Path; !strings.HasSuffix(p, "/groups/byName/my shop") {
		t.Errorf("path %s", p)
	}

	plain := stubapi.New(t) // strict: an id needs no request
	if got, err := cmdtest.EnvFactory(t, plain.URL, id).ProjectID(); err != nil || got != id {
		t.Errorf("id: %q, %v", got, err)
	}
}

func TestUnknownProjectNameSaysSo(t *testing.T) {
	srv := stubapi.New(t)
	srv.Reply("GET", "/groups/byName/nowhere", 404, `{"error":404,"errorCode":"GROUP_NAME_NOT_FOUND","detail":"No group with name \"nowhere\" exists.","reason":"Not Found"}`)
	_, err := cmdtest.EnvFactory(t, srv.URL, "nowhere").ProjectID()
	if err == nil || !strings.Contains(err.Error(), `project "nowhere"`) || !strings.Contains(err.Error(), "GROUP_NAME_NOT_FOUND") {
		t.Errorf("error %v", err)
	}
}
