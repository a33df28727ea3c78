package root

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/omctl/omctl/internal/cmdutil"
)

// cobra's messages for flag groups and required flags, which name flags in
// Go list syntax ("[until forever]").
var (
	requiredFlagsRE = regexp.MustCompile(`^required flag\(s\) (.+) not set$`)
	exclusiveRE     = regexp.MustCompile(`^if any flags in the group \[(.+)\] are set none of the others can be; \[(.+)\] were all set$`)
	oneRequiredRE   = regexp.MustCompile(`^at least one of the flags in the group \[(.+)\] is required$`)
	togetherRE      = regexp.MustCompile(`^if any flags in the group \[(.+)\] are set they must all be set; missing \[(.+)\]$`)
)

// cobraUsageError recognises the usage errors cobra reports as plain errors
// and returns them as usage errors (exit 2), rewording those that would show
// Go syntax. It never looks inside errors of the server.
func cobraUsageError(err error) (error, bool) {
	msg := err.Error()
	if m := requiredFlagsRE.FindStringSubmatch(msg); m != nil {
		names := strings.Split(strings.Trim(m[1], `"`), `", "`)
		return cmdutil.FlagErrorf("missing required %s %s", plural(len(names), "flag"), flagList(names, "and")), true
	}
	if m := exclusiveRE.FindStringSubmatch(msg); m != nil {
		group, set := strings.Fields(m[1]), strings.Fields(m[2])
		if len(set) == len(group) {
			return cmdutil.FlagErrorf("%s cannot be used together", flagList(set, "and")), true
		}
		return cmdutil.FlagErrorf("%s cannot be used together: give one of %s", flagList(set, "and"), flagList(group, "or")), true
	}
	if m := oneRequiredRE.FindStringSubmatch(msg); m != nil {
		return cmdutil.FlagErrorf("missing flag: give %s", flagList(strings.Fields(m[1]), "or")), true
	}
	if m := togetherRE.FindStringSubmatch(msg); m != nil {
		return cmdutil.FlagErrorf("%s must be given together: missing %s", flagList(strings.Fields(m[1]), "and"), flagList(strings.Fields(m[2]), "and")), true
	}
	for _, prefix := range []string{"unknown command", "accepts ", "requires at least", "requires at most", "invalid argument", "unknown shorthand", "unknown flag"} {
		if strings.HasPrefix(msg, prefix) {
			return &cmdutil.FlagError{Err: err}, true
		}
	}
	return err, false
}

// flagList writes names as flags: "--a", "--a and --b", "--a, --b or --c".
func flagList(names []string, conj string) string {
	flags := make([]string, len(names))
	for i, n := range names {
		flags[i] = "--" + n
	}
	if len(flags) < 2 {
		return strings.Join(flags, "")
	}
	return strings.Join(flags[:len(flags)-1], ", ") + " " + conj + " " + flags[len(flags)-1]
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return fmt.Sprintf("%ss", word)
}
