package server

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
)

// runServerCmd runs `omctl server ARGS` with env as the only OMCTL_SERVER_
// variables, and returns the options the run would start with.
func runServerCmd(t *testing.T, env map[string]string, args ...string) (*Options, error) {
	t.Helper()
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, envPrefix) {
			t.Setenv(k, "")
		}
	}
	for k, v := range env {
		t.Setenv(k, v)
	}
	ios, _, _, _ := iostreams.Test()
	var got *Options
	cmd := NewCmdServer(&cmdutil.Factory{IOStreams: ios}, func(_ context.Context, o *Options) error { got = o; return nil })
	err := cmdtest.Execute(cmd, ios, args...)
	return got, err
}

// Every flag takes its value from its variable unless the command line
// gives it: the flag wins.
func TestServerFlagsAndTheirVariables(t *testing.T) {
	for _, tt := range []struct {
		name  string
		env   map[string]string
		args  []string
		check func(*Options) bool
	}{
		{"defaults", nil, nil, func(o *Options) bool {
			return o.Listen == "127.0.0.1:8080" && !o.Demo && o.Keys == nil && o.Apply == nil && len(o.fromEnv) == 0
		}},
		{"every kind of value from the environment", map[string]string{
			"OMCTL_SERVER_LISTEN": "0.0.0.0:8080", "OMCTL_SERVER_DEMO": "true", "OMCTL_SERVER_STATE": "s.db",
			"OMCTL_SERVER_CLOCK": "2026-01-01T00:00:00Z", "OMCTL_SERVER_NONCE_TTL": "1m", "OMCTL_SERVER_QUIET": "1",
			"OMCTL_SERVER_WEBHOOK_ALLOW": "10.0.0.0/8,hooks.example", "OMCTL_SERVER_RATE_LIMIT": "3",
			"OMCTL_SERVER_JOURNAL_BYTES": "2MiB", "OMCTL_SERVER_KEYS": "ci:ci-secret  ro:ro-secret:GLOBAL_READ_ONLY\n",
			"OMCTL_SERVER_APPLY": "seed/", "OMCTL_SERVER_TLS_SELF_SIGNED": "true",
		}, nil, func(o *Options) bool {
			return o.Listen == "0.0.0.0:8080" && o.Demo && o.StateFile == "s.db" && o.Clock == "2026-01-01T00:00:00Z" &&
				o.NonceTTL == time.Minute && o.Quiet && slices.Equal(o.WebhookAllow, []string{"10.0.0.0/8", "hooks.example"}) &&
				o.RateLimit == 3 && o.JournalBytes == 2<<20 && slices.Equal(o.Keys, []string{"ci:ci-secret", "ro:ro-secret:GLOBAL_READ_ONLY"}) &&
				slices.Equal(o.Apply, []string{"seed/"}) && o.TLSSelfSigned && o.fromEnv["listen"] == "OMCTL_SERVER_LISTEN" && o.fromEnv["key"] == "OMCTL_SERVER_KEYS"
		}},
		{"the flag wins", map[string]string{"OMCTL_SERVER_LISTEN": "0.0.0.0:8080", "OMCTL_SERVER_RATE_LIMIT": "3", "OMCTL_SERVER_KEYS": "env:env-secret", "OMCTL_SERVER_APPLY": "env/"},
			[]string{"--listen", "127.0.0.1:0", "--rate-limit", "7", "--key", "flag:flag-secret", "--apply", "flag.yaml"},
			func(o *Options) bool {
				return o.Listen == "127.0.0.1:0" && o.RateLimit == 7 && slices.Equal(o.Keys, []string{"flag:flag-secret"}) &&
					slices.Equal(o.Apply, []string{"flag.yaml"}) && len(o.fromEnv) == 0
			}},
		{"a false boolean, and an empty variable is unset", map[string]string{"OMCTL_SERVER_DEMO": "false", "OMCTL_SERVER_STATE": " "}, nil,
			func(o *Options) bool { return !o.Demo && o.StateFile == "" && o.fromEnv["demo"] == "OMCTL_SERVER_DEMO" }},
		{"a flag beside another's variable", map[string]string{"OMCTL_SERVER_TLS_KEY": "k.pem"}, []string{"--tls-cert", "c.pem"},
			func(o *Options) bool { return o.TLSCert == "c.pem" && o.TLSKey == "k.pem" }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := runServerCmd(t, tt.env, tt.args...)
			if err != nil || got == nil || !tt.check(got) {
				t.Errorf("%v %v: %v %+v", tt.env, tt.args, err, got)
			}
		})
	}
}

// A bad value from the environment stops the start with a usage error
// naming the variable, as the flag's would name the flag.
func TestServerVariablesWithBadValuesAreNamed(t *testing.T) {
	for _, tt := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{map[string]string{"OMCTL_SERVER_RATE_LIMIT": "ten"}, nil, `invalid OMCTL_SERVER_RATE_LIMIT "ten": want an integer`},
		{map[string]string{"OMCTL_SERVER_DEMO": "yes"}, nil, `invalid OMCTL_SERVER_DEMO "yes": want true or false`},
		{map[string]string{"OMCTL_SERVER_NONCE_TTL": "5"}, nil, `invalid OMCTL_SERVER_NONCE_TTL "5": want a duration`},
		{map[string]string{"OMCTL_SERVER_JOURNAL_BYTES": "64MB"}, nil, `invalid OMCTL_SERVER_JOURNAL_BYTES "64MB": want a positive number of bytes`},
		{map[string]string{"OMCTL_SERVER_FIXTURES": "f.json", "OMCTL_SERVER_DEMO": "true"}, nil, "OMCTL_SERVER_FIXTURES and OMCTL_SERVER_DEMO cannot be used together"},
		{map[string]string{"OMCTL_SERVER_DEMO": "true"}, []string{"--fixtures", "f.json"}, "--fixtures and OMCTL_SERVER_DEMO cannot be used together"},
		{map[string]string{"OMCTL_SERVER_TLS_CERT": "c.pem"}, nil, "OMCTL_SERVER_TLS_CERT needs --tls-key too (or OMCTL_SERVER_TLS_KEY)"},
	} {
		_, err := runServerCmd(t, tt.env, tt.args...)
		if err == nil || !strings.Contains(err.Error(), tt.want) || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
			t.Errorf("%v %v: %v, want a usage error with %q", tt.env, tt.args, err, tt.want)
		}
	}
}

// Values that parse but are out of range are told by their variable too.
func TestServerRunNamesTheVariableOfABadValue(t *testing.T) {
	for _, tt := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"OMCTL_SERVER_RATE_LIMIT": "-1"}, "invalid OMCTL_SERVER_RATE_LIMIT -1: want 0 (no limit) or more"},
		{map[string]string{"OMCTL_SERVER_CLOCK": "noon"}, `invalid OMCTL_SERVER_CLOCK "noon": want RFC 3339`},
		{map[string]string{"OMCTL_SERVER_KEYS": "ok:ok-secret nocolon"}, "invalid OMCTL_SERVER_KEYS (entry 2): a key has no ':'"},
		{map[string]string{"OMCTL_SERVER_LISTEN": "256.0.0.1:0"}, "(OMCTL_SERVER_LISTEN)"},
	} {
		got, err := runServerCmd(t, tt.env)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := got.fromEnv["listen"]; !ok {
			got.Listen = "127.0.0.1:0"
		}
		err = Run(context.Background(), got)
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "nocolon") {
			t.Errorf("%v: %v, want %q (and no key)", tt.env, err, tt.want)
		}
	}
}

// The help's table, docs/server.md and the flags name the same variables.
func TestEveryServerFlagHasAVariableInHelpAndDocs(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	cmd := NewCmdServer(&cmdutil.Factory{IOStreams: ios}, nil)
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "server.md"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	flagsWithEnv(cmd, func(f *pflag.Flag) {
		n++
		row := "| `--" + f.Name + "` | `" + EnvName(f.Name)
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/server.md has no row %q...", row)
		}
		if !strings.Contains(cmd.Long, "--"+f.Name) || !strings.Contains(cmd.Long, EnvName(f.Name)) {
			t.Errorf("the help's table has no line for --%s", f.Name)
		}
	})
	if n < 20 || EnvName("tls-self-signed") != "OMCTL_SERVER_TLS_SELF_SIGNED" || EnvName("key") != "OMCTL_SERVER_KEYS" {
		t.Errorf("%d flags; names %s %s", n, EnvName("tls-self-signed"), EnvName("key"))
	}
}
