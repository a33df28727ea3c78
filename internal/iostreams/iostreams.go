// Package iostreams bundles the standard streams with what commands need
// to know about them: whether each is a terminal and how wide it is.
package iostreams

import (
	"bytes"
	"io"
	"os"

	"golang.org/x/term"
)

// IOStreams is what a command reads from and writes to.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	stdinTTY, stdoutTTY, stderrTTY bool
	termWidth, termHeight          int
	noColor                        bool
	// colorForced keeps colour in output that is not a terminal.
	colorForced bool
	// size measures the terminal of stdout again (nil for tests).
	size func() (width, height int, err error)
}

// System returns the process's own streams.
func System() *IOStreams {
	s := &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr, termWidth: 80}
	// https://no-color.org and the CLICOLOR convention (CLICOLOR=0 turns
	// colour off, CLICOLOR_FORCE keeps it when piped); NO_COLOR wins.
	s.noColor = os.Getenv("NO_COLOR") != "" || os.Getenv("CLICOLOR") == "0" || os.Getenv("TERM") == "dumb"
	s.colorForced = os.Getenv("CLICOLOR_FORCE") != "" && os.Getenv("CLICOLOR_FORCE") != "0"
	s.stdinTTY = term.IsTerminal(int(os.Stdin.Fd()))
	s.stdoutTTY = term.IsTerminal(int(os.Stdout.Fd()))
	s.stderrTTY = term.IsTerminal(int(os.Stderr.Fd()))
	if s.stdoutTTY {
		s.size = func() (int, int, error) { return term.GetSize(int(os.Stdout.Fd())) }
		s.Remeasure()
	}
	return s
}

// Remeasure reads the size of stdout's terminal again, for a screen drawn
// again and again (--watch) while the terminal may be resized.
func (s *IOStreams) Remeasure() {
	if s.size == nil {
		return
	}
	if w, h, err := s.size(); err == nil && w > 0 {
		s.termWidth, s.termHeight = w, h
	}
}

// Test returns streams backed by buffers, none of them a terminal.
func Test() (s *IOStreams, in, out, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut, termWidth: 80}, in, out, errOut
}

func (s *IOStreams) IsStdinTTY() bool  { return s.stdinTTY }
func (s *IOStreams) IsStdoutTTY() bool { return s.stdoutTTY }
func (s *IOStreams) IsStderrTTY() bool { return s.stderrTTY }

// SetStdinTTY, SetStdoutTTY and SetStderrTTY let tests act as a terminal.
func (s *IOStreams) SetStdinTTY(v bool)  { s.stdinTTY = v }
func (s *IOStreams) SetStdoutTTY(v bool) { s.stdoutTTY = v }
func (s *IOStreams) SetStderrTTY(v bool) { s.stderrTTY = v }

// TerminalWidth is the width of stdout, 80 when it is not a terminal.
func (s *IOStreams) TerminalWidth() int { return s.termWidth }

// ColorEnabled reports whether stdout may carry colour: a terminal, or
// CLICOLOR_FORCE set, with neither NO_COLOR nor CLICOLOR=0 set.
func (s *IOStreams) ColorEnabled() bool { return (s.stdoutTTY || s.colorForced) && !s.noColor }

// SetNoColor lets tests act as if NO_COLOR were set.
func (s *IOStreams) SetNoColor(v bool) { s.noColor = v }

// SetTerminalWidth lets tests act as a terminal of a given width.
func (s *IOStreams) SetTerminalWidth(w int) { s.termWidth = w }

// TerminalHeight is the number of lines of stdout, 0 when unknown.
func (s *IOStreams) TerminalHeight() int { return s.termHeight }

// SetTerminalHeight lets tests act as a terminal of a given height.
func (s *IOStreams) SetTerminalHeight(h int) { s.termHeight = h }

// ClearTerminalLine erases the line the cursor is on, on stderr when it is
// a terminal, else on stdout when it is one. After Ctrl-C that line holds
// the ^C the terminal echoed (and the progress bar, if one was drawn), which
// the next line, or the shell's prompt, would otherwise follow. The output
// of omctl ends its lines, so the line is otherwise empty.
func (s *IOStreams) ClearTerminalLine() {
	switch {
	case s.stderrTTY:
		io.WriteString(s.ErrOut, "\r\x1b[K")
	case s.stdoutTTY:
		io.WriteString(s.Out, "\r\x1b[K")
	}
}
