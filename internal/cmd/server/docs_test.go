package server

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
)

var repoRoot = filepath.Join("..", "..", "..")

// Every OMCTL_SERVER_ variable the docs, the examples and the image name
// is one omctl server reads: a misspelt one would be ignored in silence.
func TestTheDocsNameOnlyVariablesThatExist(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdServer(&cmdutil.Factory{IOStreams: ios}, nil)
	known := map[string]bool{}
	flagsWithEnv(cmd, func(f *pflag.Flag) { known[EnvName(f.Name)] = true })
	name := regexp.MustCompile(`OMCTL_SERVER_[A-Z_]*[A-Z]`)
	for _, file := range []string{"README.md", "docs/server.md", "docs/examples/compose.yaml", "Containerfile", "testdata/script/server_env_ci.txtar"} {
		text, err := os.ReadFile(filepath.Join(repoRoot, file))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range name.FindAllString(string(text), -1) {
			if !known[v] {
				t.Errorf("%s names %s, which omctl server does not read", file, v)
			}
		}
	}
}

// The compose example's environment, its seed mounted where it says,
// starts a server with its keys and its documents.
func TestTheComposeExampleStarts(t *testing.T) {
	text, err := os.ReadFile(filepath.Join(repoRoot, "docs", "examples", "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var compose struct {
		Services map[string]struct {
			Environment map[string]string
			Volumes     []string
		}
	}
	if err := yaml.Unmarshal(text, &compose); err != nil {
		t.Fatal(err)
	}
	svc := compose.Services["omctl"]
	env := map[string]string{}
	for k, v := range svc.Environment {
		env[k] = v
	}
	for _, vol := range svc.Volumes { // ./seed:/seed:ro, relative to the file
		parts := strings.Split(vol, ":")
		env["OMCTL_SERVER_APPLY"] = strings.Replace(env["OMCTL_SERVER_APPLY"], parts[1], filepath.Join(repoRoot, "docs", "examples", parts[0]), 1)
	}
	env["OMCTL_SERVER_LISTEN"] = "127.0.0.1:0" // the image's 0.0.0.0:8080, on a free port
	opts, err := runServerCmd(t, env)
	if err != nil || len(opts.Keys) != 2 {
		t.Fatalf("%v %+v", err, opts)
	}
	base, _, _, stop := start(t, opts)
	defer stop()
	if !storeExists(t, ciClient(t, base), "oplog-ci") {
		t.Error("the seed's oplog store is not there")
	}
}
