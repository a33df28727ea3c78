package config

import (
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
)

func TestListWithoutProfileYetSaysHowToCreateOne(t *testing.T) {
	path := tempPath(t)
	ios, _, out, errOut := iostreams.Test()
	if err := listRun(&ListOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path}); err != nil {
		t.Fatal(err)
	}
	p, _ := path()
	if out.String() != "# "+p+"\n" || !strings.Contains(errOut.String(), `No profile "default" yet`) {
		t.Errorf("stdout %q stderr %q", out.String(), errOut.String())
	}
	if fileExists(p) {
		t.Error("list wrote the file")
	}
}

func TestListOfAMissingProfilePrintsNothing(t *testing.T) {
	path := tempPath(t)
	ios, _, out, _ := iostreams.Test()
	if err := setRun(&SetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Key: "output", Value: "json"}); err != nil {
		t.Fatal(err)
	}
	err := listRun(&ListOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Profile: "nosuch"})
	if cmdutil.ExitCode(err) != cmdutil.ExitUsage || out.Len() != 0 {
		t.Errorf("err = %v, stdout %q", err, out.String())
	}
}
