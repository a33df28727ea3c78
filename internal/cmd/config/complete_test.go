package config

import (
	"slices"
	"testing"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
	"github.com/omctl/omctl/internal/iostreams"
)

func TestCompletion(t *testing.T) {
	if got, dir := completeKey(nil, nil, ""); !slices.Equal(got, cfg.Keys) || dir != noFiles {
		t.Errorf("key: %v %v", got, dir)
	}
	if got, _ := completeKey(nil, []string{"output"}, ""); got != nil {
		t.Errorf("second arg of get: %v", got)
	}
	for _, tt := range []struct {
		args []string
		want []string
		dir  cobra.ShellCompDirective
	}{
		{nil, cfg.Keys, noFiles},
		{[]string{"output"}, api.OutputFormats, noFiles},
		{[]string{"insecure"}, []string{"true", "false"}, noFiles},
		{[]string{"ca_cert"}, nil, cobra.ShellCompDirectiveDefault},
		{[]string{"base_url"}, nil, noFiles},
		{[]string{"output", "json"}, nil, noFiles},
	} {
		if got, dir := completeKeyValue(nil, tt.args, ""); !slices.Equal(got, tt.want) || dir != tt.dir {
			t.Errorf("%v: %v %v", tt.args, got, dir)
		}
	}
	configDir(t)
	ios, _, _, _ := iostreams.Test()
	for _, p := range []string{"prod", "dev"} {
		if err := setRun(&SetOptions{Deps: cmdutil.Deps{IO: ios}, ConfigPath: cfg.Path, Profile: p, Key: "output", Value: "json"}); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := completeProfile(nil, nil, ""); !slices.Equal(got, []string{"dev", "prod"}) {
		t.Errorf("profiles: %v", got)
	}
	if got, _ := completeProfile(nil, []string{"dev"}, ""); got != nil {
		t.Errorf("second arg of use: %v", got)
	}
}
