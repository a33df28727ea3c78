// Package root assembles the omctl command tree and runs it.
package root

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/build"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	cfg "github.com/omctl/omctl/internal/config"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/prompt"
)

// NewCmdRoot builds the whole command tree over f.
func NewCmdRoot(f *cmdutil.Factory) *cobra.Command {
	return newCmdRoot(f, func([]string) bool { return true })
}

// newCmdRoot builds the root and those of the commands of topCommands that
// want says yes to, given the names they answer to.
func newCmdRoot(f *cmdutil.Factory, want func(names []string) bool) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "omctl <command> <subcommand> [flags]",
		Short: "Administer alerts, backups and API keys of database deployments",
		Long: `omctl speaks the Monitoring and Backup Administration Public API v1.0:
alerts and alert configurations, global alerts, backup configurations and
snapshots, backup storage administration and organization API keys.

Settings come from flags, then OMCTL_* environment variables, then the
profile in the config file (see 'omctl help environment' and 'omctl config').`,
		Example: `  omctl alerts list --status OPEN
  omctl alerts ack 5f1a... --until 4h --comment "looking into it"
  omctl alerts list --all -o jsonl --jq 'select(.eventTypeName=="HOST_DOWN") | .id'`,
		Version:       build.Version,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	cmd.SetVersionTemplate("{{.Version}}\n")
	// --timeout bounds the whole command: a list walk that a server keeps
	// feeding ends with it, not only each of its requests.
	cmd.PersistentPreRunE = func(c *cobra.Command, _ []string) error {
		if c.Name() == cobra.ShellCompRequestCmd || c.Name() == cobra.ShellCompNoDescRequestCmd {
			completions(c.Root(), f)
		}
		if c.Annotations[cmdutil.NoDeadline] != "" {
			return nil
		}
		if f.Flags.Timeout = f.CommandTimeout(); f.Flags.Timeout > 0 {
			ctx, cancel := context.WithTimeoutCause(c.Context(), f.Flags.Timeout, cmdutil.ErrCommandTimeout)
			context.AfterFunc(c.Context(), cancel) // its timer goes with the run's context, or at the deadline
			c.SetContext(ctx)
		}
		return nil
	}
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &cmdutil.FlagError{Err: flagValueError(c, err)}
	})

	pf := cmd.PersistentFlags()
	g := &f.Flags
	pf.StringVarP(&g.Profile, "profile", "P", "", "config profile to use"+envNote(cfg.ProfileEnv))
	pf.StringVar(&g.BaseURL, "base-url", "", "API base URL, https://host:port or a full base path"+keyEnvNote("base-url"))
	pf.StringVar(&g.Project, "project", "", "project ID (24 hex digits) or name"+keyEnvNote("project"))
	pf.StringVar(&g.Org, "org", "", "organization ID, 24 hex digits"+keyEnvNote("org"))
	pf.StringVarP(&g.Output, "output", "o", "", "output format: table, json, jsonl or yaml"+keyEnvNote("output"))
	pf.StringVar(&g.JQ, "jq", "", "filter JSON output with a jq expression")
	pf.BoolVar(&g.Debug, "debug", false, "trace HTTP requests on stderr (credentials redacted)")
	pf.StringVar(&g.CACert, "ca-cert", "", "PEM file of a CA to trust for the server's certificate")
	pf.BoolVar(&g.Insecure, "insecure", false, "skip TLS certificate verification (unsafe)")
	pf.DurationVar(&g.Timeout, "timeout", 0, "time limit of the whole command, every page and retry included; 0 for none"+keyEnvNote("timeout"))
	pf.DurationVar(&g.RequestTimeout, "request-timeout", 60*time.Second, "time limit of each HTTP request, its retries included")
	pf.IntVar(&g.Retries, "retries", client.DefaultRetries, "times a GET, PUT or PATCH is tried again on 429, 502, 503, 504 or a lost connection; 0 for none"+envNote(cfg.RetriesEnv))
	pf.BoolVar(&g.Envelope, "envelope", false, "ask the server to wrap responses in an envelope")
	pf.BoolVar(&g.Pretty, "pretty", false, "ask the server for indented JSON and keep it")
	pf.BoolVar(&g.NoHeaders, "no-headers", false, "leave the header line out of tables on a terminal (piped tables have none)")
	f.FlagSet = pf
	_ = cmd.RegisterFlagCompletionFunc("output", cmdutil.CompleteValues(api.OutputFormats...))
	_ = cmd.RegisterFlagCompletionFunc("profile", cmdutil.CompleteProfiles)

	cmd.AddGroup(&cobra.Group{ID: "monitoring", Title: "Monitoring commands:"},
		&cobra.Group{ID: "backup", Title: "Backup commands:"},
		&cobra.Group{ID: "admin", Title: "Administration commands:"},
		&cobra.Group{ID: "other", Title: "Other commands:"},
		&cobra.Group{ID: "help", Title: "Help topics (omctl help TOPIC):"})
	for _, top := range topCommands() {
		if !want(top.names) {
			continue
		}
		for _, c := range top.build(f) {
			c.GroupID = top.group
			cmd.AddCommand(c)
		}
	}
	singularAliases(cmd)
	cmd.SetHelpCommandGroupID("other")
	cmd.SetCompletionCommandGroupID("other")
	strictBuiltins(cmd)
	wrapHelp(cmd, f.IOStreams.TerminalWidth)
	return cmd
}

// singularAliases lets every resource group answer to its singular too
// (omctl alert list), as kubectl's resources do.
func singularAliases(root *cobra.Command) {
	for _, c := range root.Commands() {
		switch c.GroupID {
		case "monitoring", "backup", "admin":
		default:
			continue
		}
		if name := c.Name(); c.HasSubCommands() && strings.HasSuffix(name, "s") {
			c.Aliases = append(c.Aliases, strings.TrimSuffix(name, "s"))
		}
	}
}

// wrapHelp wraps the flags of every command's help at the terminal's
// width (80 when not a terminal), as gh does: a flag's text longer than
// the line continues under its column instead of running off the screen.
func wrapHelp(cmd *cobra.Command, width func() int) {
	wrapped := strings.NewReplacer(
		".LocalFlags.FlagUsages", "wrappedFlags .LocalFlags",
		".InheritedFlags.FlagUsages", "wrappedFlags .InheritedFlags",
	)
	// Only the root and the commands with a template of their own (server's)
	// get one, and each template is rewritten once: the other commands
	// inherit theirs. Rewriting the template of every command took a third
	// of the instructions of `omctl --version` (docs/performance.md,
	// "Start-up").
	rewritten := map[string]string{}
	var visit func(c *cobra.Command)
	visit = func(c *cobra.Command) {
		if t := c.UsageTemplate(); !c.HasParent() || t != c.Parent().UsageTemplate() {
			w, ok := rewritten[t]
			if !ok {
				w = wrapped.Replace(t)
				rewritten[t] = w
			}
			c.SetUsageTemplate(w)
		}
		for _, sub := range c.Commands() {
			visit(sub)
		}
	}
	visit(cmd)
	cmd.SetHelpTemplate(strings.Replace(cmd.HelpTemplate(), "{{. | trimTrailingWhitespaces}}", "{{wrapText . | trimTrailingWhitespaces}}", 1))
	// cobra's template functions are global: they are registered once and
	// read the width of the last tree built (a process builds one).
	helpWidth.Store(&width)
	registerHelpFuncs.Do(func() {
		cobra.AddTemplateFunc("wrappedFlags", func(fs *pflag.FlagSet) string {
			return fs.FlagUsagesWrapped(max((*helpWidth.Load())()-1, 40))
		})
		cobra.AddTemplateFunc("wrapText", func(text string) string { return wrapText(text, max((*helpWidth.Load())(), 40)) })
	})
}

var (
	helpWidth         atomic.Pointer[func() int]
	registerHelpFuncs sync.Once
)

// wrapText breaks the lines of text longer than width at spaces.
func wrapText(text string, width int) string {
	var b strings.Builder
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		for len(line) > width {
			cut := strings.LastIndexByte(line[:width+1], ' ')
			if cut <= 0 {
				break
			}
			b.WriteString(line[:cut])
			b.WriteByte('\n')
			line = line[cut+1:]
		}
		b.WriteString(line)
	}
	return b.String()
}

// keyEnvNote is the " (env VAR)" of a global flag's help, VAR being the
// variable of the profile key the flag overrides as the key table names
// it (cfg.AllKeys), so that renaming a variable there renames it in
// the help, docs/cli and the completions too. A flag no key names is a
// programming error, caught by every test that builds the tree.
func keyEnvNote(flag string) string {
	k, ok := cfg.LookupFlag(flag)
	if !ok {
		panic("no config key has the flag --" + flag)
	}
	return envNote(k.Env)
}

func envNote(env string) string { return " (env " + env + ")" }

// Main runs omctl with the process's arguments and streams and returns
// the exit code.
func Main() int {
	return Run(os.Args[1:], iostreams.System())
}

// Run runs omctl with args over ios and returns the exit code.
func Run(args []string, ios *iostreams.IOStreams) int {
	return runTree(args, ios, reachable(args))
}

// runTree runs omctl with args over a tree of the commands want says yes
// to.
func runTree(args []string, ios *iostreams.IOStreams, want func(names []string) bool) int {
	ctx, stop := cmdutil.SignalContext(context.Background())
	defer stop()
	f := cmdutil.New(ios)
	cmd := newCmdRoot(f, want)
	cmd.SetArgs(args)
	cmd.SetIn(ios.In)
	cmd.SetOut(ios.Out)
	cmd.SetErr(ios.ErrOut)
	executed, err := cmd.ExecuteContextC(ctx)
	if err == nil {
		return cmdutil.ExitOK
	}
	if code, silent := silentExit(ctx, err); silent {
		if code == cmdutil.ExitInterrupted {
			// The shell's prompt comes next, not after the ^C echoed.
			ios.ClearTerminalLine()
		}
		return code
	}
	// cobra reports unknown commands, bad arguments and missing or
	// conflicting flags as plain errors in its own words.
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) {
		if usage, ok := cobraUsageError(err); ok {
			err = usage
		}
	}
	if executed != nil && context.Cause(executed.Context()) == cmdutil.ErrCommandTimeout {
		err = commandTimeoutError(err, f.Flags.Timeout)
	} else {
		err = timeoutError(err, f.Flags.RequestTimeout)
	}
	err = f.NoteSource(err)
	fmt.Fprintf(ios.ErrOut, "Error: %v\n", err)
	code := cmdutil.ExitCode(err)
	if code == cmdutil.ExitUsage && executed != nil {
		fmt.Fprintf(ios.ErrOut, "Run '%s --help' for usage.\n", executed.CommandPath())
	}
	return code
}

// silentExit is the exit code of an error that prints no message, and
// whether err is one.
func silentExit(ctx context.Context, err error) (int, bool) {
	var codeErr *cmdutil.ExitCodeError
	switch {
	case errors.Is(err, cmdutil.ErrSilent):
		return cmdutil.ExitError, true // the command said what went wrong
	case errors.As(err, &codeErr):
		return codeErr.Code, true // the exit code is the answer (diff --exit-code)
	case errors.Is(err, cmdutil.ErrInterrupted) || cmdutil.Interrupted(ctx) || errors.Is(err, prompt.ErrCancelled):
		// Ctrl-C or SIGTERM, or Ctrl-C at a prompt: the user knows; an
		// "Error: ... context canceled" would only add noise after the
		// whole lines already printed (docs: exit codes).
		return cmdutil.ExitInterrupted, true
	}
	return 0, false
}
