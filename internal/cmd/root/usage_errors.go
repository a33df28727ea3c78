package root

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/omctl/omctl/internal/cmdutil"
)

// lazyRegexp compiles expr on first use: these expressions read error
// messages only, so a run that succeeds does not pay for them at start-up
// (docs/performance.md, "Start-up").
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// cobra's messages for flag groups and required flags, which name flags in
// Go list syntax ("[until forever]").
var (
	requiredFlagsRE = lazyRegexp(`^required flag\(s\) (.+) not set$`)
	exclusiveRE     = lazyRegexp(`^if any flags in the group \[(.+)\] are set none of the others can be; \[(.+)\] were all set$`)
	oneRequiredRE   = lazyRegexp(`^at least one of the flags in the group \[(.+)\] is required$`)
	togetherRE      = lazyRegexp(`^if any flags in the group \[(.+)\] are set they must all be set; missing \[(.+)\]$`)
)

// cobraUsageError recognises the usage errors cobra reports as plain errors
// and returns them as usage errors (exit 2), rewording those that would show
// Go syntax. It never looks inside errors of the server.
func cobraUsageError(err error) (error, bool) {
	msg := err.Error()
	if m := requiredFlagsRE().FindStringSubmatch(msg); m != nil {
		names := strings.Split(strings.Trim(m[1], `"`), `", "`)
		return cmdutil.FlagErrorf("missing required %s %s", plural(len(names), "flag"), flagList(names, "and")), true
	}
	if m := exclusiveRE().FindStringSubmatch(msg); m != nil {
		group, set := strings.Fields(m[1]), strings.Fields(m[2])
		if len(set) == len(group) {
			return cmdutil.FlagErrorf("%s cannot be used together", flagList(set, "and")), true
		}
		return cmdutil.FlagErrorf("%s cannot be used together: give one of %s", flagList(set, "and"), flagList(group, "or")), true
	}
	if m := oneRequiredRE().FindStringSubmatch(msg); m != nil {
		return cmdutil.FlagErrorf("missing flag: give %s", flagList(strings.Fields(m[1]), "or")), true
	}
	if m := togetherRE().FindStringSubmatch(msg); m != nil {
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

// badValueRE is pflag's message for a value its flag type cannot parse,
// which ends in Go's parser error ("strconv.ParseInt: parsing ...").
var badValueRE = lazyRegexp(`^invalid argument "(.*)" for "(?:-\w, )?--([\w-]+)" flag: `)

// flagValueError rewords a bad flag value by what the flag takes.
func flagValueError(c *cobra.Command, err error) error {
	m := badValueRE().FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	fl := c.Flags().Lookup(m[2])
	if fl == nil {
		return err
	}
	want := cmdutil.ValueWanted(fl.Value.Type())
	if want == "" {
		return err
	}
	return fmt.Errorf("invalid --%s %q: want %s", m[2], m[1], want)
}

// timeoutError says that the server did not answer in time, and which flag
// sets how long omctl waits, instead of Go's "context deadline exceeded".
// The client reports a failed request as "METHOD URL: cause".
func timeoutError(err error, timeout time.Duration) error {
	var timeoutErr interface{ Timeout() bool }
	if !errors.Is(err, context.DeadlineExceeded) && !(errors.As(err, &timeoutErr) && timeoutErr.Timeout()) {
		return err
	}
	request, _, _ := strings.Cut(err.Error(), ": ")
	return fmt.Errorf("%s: no answer within %s (--request-timeout sets how long to wait for each request)", request, timeout)
}

// commandTimeoutError says that the command was stopped by --timeout, the
// time limit of the whole command, and what it was doing then.
func commandTimeoutError(err error, timeout time.Duration) error {
	msg := fmt.Sprintf("stopped: the command ran for its --timeout of %s", timeout)
	if request, _, ok := strings.Cut(err.Error(), ": "); ok && isRequestLine(request) {
		return fmt.Errorf("%s: %s", request, msg)
	}
	return errors.New(msg)
}

// isRequestLine says whether s is how the client names a failed request,
// "METHOD URL".
func isRequestLine(s string) bool {
	method, url, ok := strings.Cut(s, " ")
	return ok && method != "" && method == strings.ToUpper(method) && strings.Contains(url, "://") && !strings.Contains(url, " ")
}
