package version

import (
	"context"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
	"github.com/omctl/omctl/internal/testutil/stubapi"
)

var info = Info{Version: "1.2.3", Commit: "abc1234", Built: "2026-11-23T00:00:00Z", Go: "go1.25.0", Platform: "linux/amd64"}

func TestNewCmdVersion(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		wantErr bool
	}{
		{nil, false},
		{[]string{"extra"}, true},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *Options
		cmd := NewCmdVersion(cmdutil.New(ios), func(_ context.Context, o *Options) error { got = o; return nil })
		err := cmdtest.Execute(cmd, ios, tc.args...)
		if (err != nil) != tc.wantErr || (!tc.wantErr && (got == nil || got.Info.Version == "" || got.Info.Go == "")) {
			t.Errorf("%v: err %v, options %+v", tc.args, err, got)
		}
	}
}

func TestVersionRun(t *testing.T) {
	for _, tc := range []struct {
		format, want string
	}{
		{"table", "omctl 1.2.3\ncommit: abc1234\nbuilt: 2026-11-23T00:00:00Z\ngo: go1.25.0 linux/amd64\n"},
		{"json", `{"version":"1.2.3","commit":"abc1234","built":"2026-11-23T00:00:00Z","go":"go1.25.0","platform":"linux/amd64"}` + "\n"},
	} {
		ios, _, out, _ := iostreams.Test()
		opts := &Options{Deps: cmdutil.Deps{IO: ios, Printer: stubapi.Printer(ios, tc.format, "")}, Info: info}
		if err := versionRun(context.Background(), opts); err != nil || out.String() != tc.want {
			t.Errorf("-o %s: %v\n%q\nwant\n%q", tc.format, err, out.String(), tc.want)
		}
	}
}
