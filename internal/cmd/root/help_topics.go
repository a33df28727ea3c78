package root

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	cfg "github.com/omctl/omctl/internal/config"
)

// topicNames are the names of the help topics, which a run with one of
// them for its first argument builds alone (tree.go).
func topicNames() []string { return []string{"exit-codes", "environment", "formatting"} }

// topics are built when asked for, not at package initialisation: the
// environment topic's text is put together from the key table, which
// every start would otherwise pay for (docs/performance.md, "Start-up").
func topics() []struct{ name, short, long string } {
	return []struct{ name, short, long string }{
		{"exit-codes", "Exit codes of omctl", `omctl exits with:

  0  success
  1  an error (a server error, a network failure, a 4xx not listed below)
  2  a usage error: an unknown command or flag, a missing or malformed
     argument (ids must be 24 hex digits), a bad --jq expression, a value
     outside what the API allows (checked before anything is sent)
  3  not found: the server answered 404 (unknown alert, project, store...)
  4  authentication or authorization failed: the server answered 401 or 403
     (wrong key, missing role, address not on the key's access list)
130  interrupted (Ctrl-C or SIGTERM): no error message; what was printed
     so far is whole lines. A list stopped part way says on stderr how
     many items it printed and how many were not fetched; its table, at a
     terminal, ends with a line saying it is partial; -o json and yaml
     print nothing (a document is printed whole or not at all). Bulk
     actions (alerts ack -, alertconfigs enable|disable) and apply start
     nothing after the signal and list each item as done, failed,
     interrupted (in flight: it may or may not have been applied) or not
     started

Errors are printed on stderr as
  Error: 404 ALERT_NOT_FOUND: No alert with ID ... exists in group ....

diff --exit-code (and apply --dry-run --exit-code), for CI jobs, as
terraform plan -detailed-exitcode:
  0  nothing would change
  2  something would change
  1  any error: a refused document, a bad file or flag, a server error
     (with --exit-code, 2 never means a usage error)
Without --exit-code, diff exits 0 whether or not something would change.

apply:
  0  every document applied, or nothing to change
  1  a document cannot be applied: nothing was written, every problem
     listed on stderr; or a write failed (then the code of that error, 3 or
     4 when it is a 404 or 401/403), or lost its connection once sent (its
     outcome unknown, counted apart): the run stops and says what was done
     and what was not, the summary line last
`},
		{"environment", "Environment variables omctl reads", `Every setting can come from a flag, an environment variable, or the active
profile of the config file, in that order of precedence. CI jobs can run on
environment variables alone, with no config file.

` + keyVariables() + envLine(cfg.RetriesEnv, `times a GET, PUT or PATCH is tried again when the
                     service answers 429, 502, 503 or 504 or the connection
                     is lost (default 3, 0 for none; --retries); a 429 or
                     503 is retried after its Retry-After (at most 30s),
                     the others after a growing, jittered wait, all within
                     --request-timeout; the last error says how many
                     attempts were made. POST and DELETE are never repeated.`) +
			envLine(cfg.ProfileEnv, "profile to use (-P/--profile)") + `  OMCTL_CONFIG_DIR   directory of config.toml (default
                     $XDG_CONFIG_HOME/omctl, else ~/.config/omctl)
  NO_COLOR           set to disable colour
  CLICOLOR           0 to disable colour
  CLICOLOR_FORCE     set (not 0) to keep colour when output is piped;
                     NO_COLOR and CLICOLOR=0 still win
  OMCTL_SERVER_*     the flags of omctl server, one variable a flag
                     (OMCTL_SERVER_LISTEN, OMCTL_SERVER_KEYS...): its --help
                     lists them
`},
		{"formatting", "Output formats, --jq and pipelines", `-o table (default)
  On a terminal: an aligned table with headers. Piped: tab-separated rows
  without a header, one resource per line, for cut and awk:
    omctl alerts list --status OPEN --all | cut -f1
  --no-headers leaves the header out on a terminal too. Colour: NO_COLOR or
  CLICOLOR=0 turn it off, CLICOLOR_FORCE keeps it when piped.
  A table fits the terminal's width. When it is too wide, times take their
  short form (30d ago), masked keys are left out, headers take shorter whole
  forms (ENABLED, ON), and the columns, most important first, take their
  room: free text is cut (db-a1.exam…), event types shorten each word
  (OUTS_METR_THRE), and what still has no room is left out. Ids, statuses,
  times and short values are never cut.

-o json
  The server's JSON as received (indented on a terminal, compact when piped).
  A list prints the list body; with --all one merged
  {"results": [...], "totalCount": N}, printed once every page is in: a list
  stopped part way (Ctrl-C, a failed page) prints nothing.

-o jsonl
  One item per line, streamed as pages arrive; the natural format with --all:
    omctl alerts list --all -o jsonl | wc -l

-o yaml
  The same document as -o json, as YAML (members in the server's order;
  strings a YAML 1.1 reader would take for booleans are quoted). With --all,
  one merged document; with --jq, one YAML document per result.

--jq EXPR
  A jq expression (gojq) applied to what -o json would print, once over the
  merged result with --all; with -o jsonl it applies to each item. String
  results print raw, like jq -r. A bad expression fails before any request.
    omctl alerts list --all --jq '.results[] | select(.status=="OPEN") | .id'
    omctl alerts list --all -o jsonl --jq '.eventTypeName' | sort | uniq -c

Pages
  A list prints its first page (100 items) unless --all, --page or --limit
  says otherwise; when more items exist, stderr says so in every format,
  piped or not (Showing 100 of 250; --all for every page). A pipeline that
  acts on every item wants --all.

alerts list --watch
  Prints alerts one at a time, as they appear or change, so it takes -o table
  or -o jsonl (--jq then applies to each alert); -o json and -o yaml are
  refused.
`},
	}
}

// keyVariables lists the variable of every profile key, as the key table
// describes it (internal/config, AllKeys).
func keyVariables() string {
	var b strings.Builder
	for _, k := range cfg.AllKeys {
		b.WriteString(envLine(k.Env, k.Help))
	}
	return b.String()
}

// envLine is one variable of `omctl help environment`, its text aligned.
func envLine(env, text string) string {
	return fmt.Sprintf("  %-17s  %s\n", env, text)
}

func helpTopics() []*cobra.Command {
	var cmds []*cobra.Command
	for _, t := range topics() {
		long := t.long
		c := &cobra.Command{
			Use:     t.name,
			Short:   t.short,
			Long:    long,
			GroupID: "help",
			Args:    cobra.NoArgs,
			Run: func(c *cobra.Command, _ []string) {
				c.Print(long)
			},
		}
		c.SetHelpFunc(func(c *cobra.Command, _ []string) { c.Print(long) })
		cmds = append(cmds, c)
	}
	return cmds
}
