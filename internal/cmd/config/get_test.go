package config

import (
	"strings"
	"testing"

	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/testutil/cmdtest"
)

func TestNewCmdGet(t *testing.T) {
	for _, tt := range []struct {
		profile string
		args    []string
		wantErr string
		want    GetOptions
	}{
		{"", []string{"private_key"}, "", GetOptions{Key: "private_key"}},
		{"p2", []string{"private_key", "--reveal"}, "", GetOptions{Profile: "p2", Key: "private_key", Reveal: true}},
		{"", nil, "missing KEY", GetOptions{}},
		{"", []string{"a", "b"}, "too many arguments", GetOptions{}},
	} {
		ios, _, _, _ := iostreams.Test()
		var got *GetOptions
		f := &cmdutil.Factory{IOStreams: ios, Flags: cmdutil.GlobalFlags{Profile: tt.profile}}
		err := cmdtest.Execute(NewCmdGet(f, func(o *GetOptions) error { got = o; return nil }), ios, tt.args...)
		if tt.wantErr != "" {
			if !isUsage(err) || !strings.Contains(err.Error(), tt.wantErr) || got != nil {
				t.Errorf("%v: err %v, want usage error %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got == nil || got.Profile != tt.want.Profile || got.Key != tt.want.Key || got.Reveal != tt.want.Reveal {
			t.Errorf("%v: %v %+v", tt.args, err, got)
		}
	}
}

func TestGetRefusesBadKeysAndMissingProfiles(t *testing.T) {
	path := tempPath(t)
	ios, _, out, _ := iostreams.Test()
	if err := setRun(&SetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: path, Key: "output", Value: "json"}); err != nil {
		t.Fatal(err)
	}
	for _, o := range []GetOptions{{Key: "colour"}, {Key: "output", Profile: "nosuch"}} {
		o.IO, o.ConfigPath = ios, path
		if err := getRun(&o); !isUsage(err) {
			t.Errorf("%+v: %v", o, err)
		}
	}
	if out.Len() != 0 {
		t.Errorf("stdout %q", out.String())
	}
}
