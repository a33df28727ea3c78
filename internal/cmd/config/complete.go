package config

import (
	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
)

const noFiles = cobra.ShellCompDirectiveNoFileComp

// completeKey completes the KEY of get and unset.
func completeKey(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, noFiles
	}
	return cfg.Keys, noFiles
}

// completeKeyValue completes the KEY and VALUE of set: the values a key
// takes where they are few, a file name for ca_cert.
func completeKeyValue(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	switch {
	case len(args) == 0:
		return cfg.Keys, noFiles
	case len(args) > 1:
		return nil, noFiles
	}
	k, _ := cfg.LookupKey(args[0])
	if k.File {
		return nil, cobra.ShellCompDirectiveDefault
	}
	return k.Values, noFiles
}

// completeProfile completes the PROFILE of use.
func completeProfile(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, noFiles
	}
	return cmdutil.CompleteProfiles(cmd, args, toComplete)
}
