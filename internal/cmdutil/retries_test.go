package cmdutil

import (
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/iostreams"
)

func TestRetriesComeFromTheFlagElseTheEnvironment(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	f := &Factory{}
	fs.IntVar(&f.Flags.Retries, "retries", client.DefaultRetries, "")
	f.FlagSet = fs
	t.Setenv("OMCTL_RETRIES", "")
	if n, err := f.retries(); err != nil || n != client.DefaultRetries {
		t.Errorf("default: %d %v", n, err)
	}
	t.Setenv("OMCTL_RETRIES", "5")
	if n, err := f.retries(); err != nil || n != 5 {
		t.Errorf("env: %d %v", n, err)
	}
	fs.Set("retries", "0")
	if n, err := f.retries(); err != nil || n != 0 {
		t.Errorf("flag over env: %d %v", n, err)
	}
	fs2 := pflag.NewFlagSet("t", pflag.ContinueOnError)
	f2 := &Factory{FlagSet: fs2}
	fs2.IntVar(&f2.Flags.Retries, "retries", client.DefaultRetries, "")
	t.Setenv("OMCTL_RETRIES", "many")
	if _, err := f2.retries(); err == nil || !strings.Contains(err.Error(), "OMCTL_RETRIES") {
		t.Errorf("a bad OMCTL_RETRIES: %v", err)
	}
}

func TestRetriesAreSaidOnlyWhereSomeoneReads(t *testing.T) {
	r := client.Retry{Method: "GET", URL: "http://h/x", Attempt: 2, Wait: time.Second, Reason: "503 Service Unavailable"}
	for _, tc := range []struct {
		debug, tty bool
		want       string
	}{
		{true, false, "* retrying GET http://h/x in 1s (attempt 2): 503 Service Unavailable\n"},
		{false, true, "retrying GET http://h/x in 1s (attempt 2): 503 Service Unavailable\n"},
		{false, false, ""},
	} {
		ios, _, _, errOut := iostreams.Test()
		ios.SetStderrTTY(tc.tty)
		f := &Factory{IOStreams: ios}
		f.Flags.Debug = tc.debug
		f.sayRetry(r)
		if errOut.String() != tc.want {
			t.Errorf("debug %v tty %v: %q, want %q", tc.debug, tc.tty, errOut.String(), tc.want)
		}
	}
}
