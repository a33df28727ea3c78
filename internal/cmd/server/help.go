package server

import (
	"strings"

	"github.com/spf13/cobra"
)

// hideClientFlags leaves the root's global flags out of the server's help:
// they configure omctl as a client (--base-url, --jq, --envelope...) and
// the server reads none of them.
func hideClientFlags(cmd *cobra.Command) {
	tmpl := cmd.UsageTemplate()
	start := strings.Index(tmpl, "{{if .HasAvailableInheritedFlags}}")
	if start < 0 {
		return
	}
	end := strings.Index(tmpl[start:], "{{end}}")
	if end < 0 {
		return
	}
	cmd.SetUsageTemplate(tmpl[:start] + tmpl[start+end+len("{{end}}"):])
}
