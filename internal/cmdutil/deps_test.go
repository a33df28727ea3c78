package cmdutil

import (
	"errors"
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/output"
)

// recordingDeps fails the getters named in fail and records the order in
// which the others are called.
func recordingDeps(calls *[]string, fail map[string]bool) Deps {
	get := func(name string) error {
		*calls = append(*calls, name)
		if fail[name] {
			return errors.New(name + " failed")
		}
		return nil
	}
	ios, _, _, _ := iostreams.Test()
	return Deps{
		IO: ios,
		Printer: func() (*output.Printer, error) {
			if err := get("printer"); err != nil {
				return nil, err
			}
			return output.New(ios, output.Options{})
		},
		ProjectID: func() (string, error) { return "p", get("project") },
		OrgID:     func() (string, error) { return "o", get("org") },
		Client:    func() (*client.Client, error) { return &client.Client{}, get("client") },
	}
}

func TestResolveAsksInFixedOrderAndStopsAtTheFirstFailure(t *testing.T) {
	all := NeedClient | NeedOrg | NeedProject | NeedPrinter
	for _, tc := range []struct {
		need  Need
		fail  string
		calls string
	}{
		{all, "", "printer project org client"},
		{NeedClient | NeedPrinter, "", "printer client"},
		{all, "printer", "printer"},
		{all, "project", "printer project"},
		{all, "org", "printer project org"},
		{all, "client", "printer project org client"},
		{NeedProject, "", "project"},
	} {
		var calls []string
		r, err := recordingDeps(&calls, map[string]bool{tc.fail: true}).Resolve(tc.need)
		if got := strings.Join(calls, " "); got != tc.calls {
			t.Errorf("need %b failing %q: calls %q, want %q", tc.need, tc.fail, got, tc.calls)
		}
		if tc.fail != "" {
			if err == nil || err.Error() != tc.fail+" failed" || r != (Resolved{}) {
				t.Errorf("need %b failing %q: err = %v, resolved = %+v", tc.need, tc.fail, err, r)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if (r.Printer != nil) != (tc.need&NeedPrinter != 0) || (r.Client != nil) != (tc.need&NeedClient != 0) ||
			(r.ProjectID == "p") != (tc.need&NeedProject != 0) || (r.OrgID == "o") != (tc.need&NeedOrg != 0) {
			t.Errorf("need %b: resolved %+v", tc.need, r)
		}
	}
}

func TestNewDepsTakesEveryGetterFromTheFactory(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	d := NewDeps(New(ios))
	if d.IO != ios || d.Printer == nil || d.ProjectID == nil || d.OrgID == nil || d.Client == nil {
		t.Fatalf("deps = %+v", d)
	}
}
