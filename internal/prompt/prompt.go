// Package prompt asks a person at a terminal: questions, confirmations and
// pickers, drawn by charm.land/huh/v2. Commands reach it through the
// Prompter interface, so their tests answer with a script instead of a
// terminal, and only when CanPrompt says a person is there: without a
// terminal a missing answer is a usage error, never a wait.
package prompt

import (
	"context"
	"errors"
	"io"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"

	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/output"
)

// ErrCancelled is the answer of a person who pressed Ctrl-C at a prompt
// (Esc is left to the picker, where it ends a filter).
var ErrCancelled = errors.New("cancelled: nothing was changed")

// Option is one choice of a picker: what it shows and what it returns.
type Option struct {
	Label, Value string
}

// Prompter asks questions. Validate functions refuse an answer with a
// message shown under the question until the answer is accepted.
type Prompter interface {
	Input(ctx context.Context, title, help, value string, validate func(string) error) (string, error)
	// Password reads without echo; an empty answer is allowed only if
	// validate allows it.
	Password(ctx context.Context, title, help string, validate func(string) error) (string, error)
	Confirm(ctx context.Context, title, help string, def bool) (bool, error)
	Select(ctx context.Context, title string, options []Option) (string, error)
	MultiSelect(ctx context.Context, title string, options []Option) ([]string, error)
}

// CanPrompt reports whether a person can answer: standard input is a
// terminal, and so is standard output or standard error to draw on.
func CanPrompt(ios *iostreams.IOStreams) bool {
	return ios.IsStdinTTY() && (ios.IsStdoutTTY() || ios.IsStderrTTY())
}

// CanPick reports whether a picker may stand in for a missing argument:
// standard input and standard output are both terminals, as gh asks, so
// a command whose output is piped or captured never waits for a choice.
func CanPick(ios *iostreams.IOStreams) bool {
	return ios.IsStdinTTY() && ios.IsStdoutTTY()
}

// New is the Prompter of a terminal: it reads ios.In and draws on
// standard error when that is a terminal, so standard output stays the
// command's, else on standard output.
func New(ios *iostreams.IOStreams) Prompter {
	out := ios.Out
	if ios.IsStderrTTY() {
		out = ios.ErrOut
	}
	return &terminal{in: ios.In, out: out, height: ios.TerminalHeight()}
}

type terminal struct {
	in     io.Reader
	out    io.Writer
	height int
}

func (t *terminal) run(ctx context.Context, field huh.Field, opts ...tea.ProgramOption) error {
	// Program options first: huh's WithProgramOptions replaces those
	// that WithInput and WithOutput add.
	err := huh.NewForm(huh.NewGroup(field)).WithProgramOptions(opts...).
		WithInput(t.in).WithOutput(t.out).WithShowHelp(true).
		RunWithContext(ctx)
	if errors.Is(err, huh.ErrUserAborted) || ctx.Err() != nil {
		return ErrCancelled
	}
	return err
}

func (t *terminal) Input(ctx context.Context, title, help, value string, validate func(string) error) (string, error) {
	in := huh.NewInput().Title(title).Description(help).Value(&value)
	if validate != nil {
		in.Validate(validate)
	}
	return value, t.run(ctx, in)
}

func (t *terminal) Password(ctx context.Context, title, help string, validate func(string) error) (string, error) {
	var value string
	in := huh.NewInput().Title(title).Description(help).Value(&value).EchoMode(huh.EchoModePassword)
	if validate != nil {
		in.Validate(validate)
	}
	return value, t.run(ctx, in)
}

func (t *terminal) Confirm(ctx context.Context, title, help string, def bool) (bool, error) {
	value := def
	return value, t.run(ctx, huh.NewConfirm().Title(title).Description(help).Affirmative("Yes").Negative("No").Value(&value))
}

func (t *terminal) Select(ctx context.Context, title string, options []Option) (string, error) {
	var value string
	sel := huh.NewSelect[string]().Title(title).Options(huhOptions(options)...).Value(&value).Height(t.listHeight(len(options)))
	return value, t.run(ctx, sel)
}

func (t *terminal) MultiSelect(ctx context.Context, title string, options []Option) ([]string, error) {
	var values []string
	// huh checks the choice as soon as the field is drawn: nothing is
	// wrong before the person pressed a key.
	var pressed atomic.Bool
	sawKey := tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
		if _, ok := msg.(tea.KeyPressMsg); ok {
			pressed.Store(true)
		}
		return msg
	})
	sel := huh.NewMultiSelect[string]().Title(title).
		Description("space or x selects, / filters, enter confirms").
		Options(huhOptions(options)...).Value(&values).Height(t.listHeight(len(options))).
		Validate(func(v []string) error {
			if len(v) == 0 && pressed.Load() {
				return errors.New("select at least one, or press Ctrl-C to cancel")
			}
			return nil
		})
	return values, t.run(ctx, sel, sawKey)
}

// LabelWidth is the room a picker's option has on the terminal of ios,
// once the picker's border, cursor and (multi) check box are drawn, as
// huh's theme draws them: labels at most this wide never wrap.
func LabelWidth(ios *iostreams.IOStreams, multi bool) int {
	st := huh.ThemeCharm(false).Focused
	chrome := st.Base.GetHorizontalFrameSize()
	if multi {
		chrome += lipgloss.Width(st.MultiSelectSelector.String()) + lipgloss.Width(st.UnselectedPrefix.String())
	} else {
		chrome += lipgloss.Width(st.SelectSelector.String())
	}
	return max(ios.TerminalWidth()-chrome, 20)
}

// Rows are options laid out as the rows of a table that fits a picker on
// the terminal of ios (multi for a multi-select; see LabelWidth), each
// row's id first, which is what its option returns: headers say how each
// column gives way (output.Lines) and are not shown; times are shown
// relative to now.
func Rows(ios *iostreams.IOStreams, multi bool, headers []string, rows [][]string, now time.Time) []Option {
	labels := output.Lines(headers, rows, LabelWidth(ios, multi), now, false)
	options := make([]Option, len(rows))
	for i, r := range rows {
		options[i] = Option{Label: r[0], Value: r[0]}
		if len(labels) == len(rows) {
			options[i].Label = labels[i]
		}
	}
	return options
}

// listHeight fits a picker on the screen: the options, the title and
// description lines, at most the terminal's height less a margin.
func (t *terminal) listHeight(n int) int {
	h := n + 3
	if t.height > 8 && h > t.height-4 {
		h = t.height - 4
	}
	return max(h, 5)
}

func huhOptions(options []Option) []huh.Option[string] {
	out := make([]huh.Option[string], len(options))
	for i, o := range options {
		out[i] = huh.NewOption(o.Label, o.Value)
	}
	return out
}
