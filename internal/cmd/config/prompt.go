package config

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// errCancelled ends config init when the user presses Ctrl-C.
var errCancelled = errors.New("config init cancelled: nothing was saved")

// prompter asks questions one line at a time on a terminal. It replaces a
// full-screen form library whose terminal colour query ran at the start of
// every omctl command, form or not, and could hold a command for seconds
// on a terminal that does not answer it.
type prompter struct {
	in  *bufio.Reader
	fd  int // of the terminal to read secrets from without echo; -1 if none
	out io.Writer
}

func newPrompter(in io.Reader, out io.Writer) *prompter {
	p := &prompter{in: bufio.NewReader(in), fd: -1, out: out}
	if f, ok := in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.fd = int(f.Fd())
	}
	return p
}

// ask asks for a value until check accepts it. An empty answer keeps
// current. A secret is read without echo and its current value not shown.
func (p *prompter) ask(ctx context.Context, title, help, current string, secret bool, check func(string) error) (string, error) {
	for {
		shown := current
		if secret && current != "" {
			shown = "keep the current one"
		}
		if shown != "" {
			shown = " [" + shown + "]"
		}
		fmt.Fprintf(p.out, "%s (%s)%s: ", title, help, shown)
		answer, err := p.readLine(ctx, secret)
		if err != nil {
			return "", err
		}
		if answer == "" {
			answer = current
		}
		if err := check(answer); err != nil {
			fmt.Fprintf(p.out, "  %v\n", err)
			continue
		}
		return answer, nil
	}
}

// confirm asks a yes or no question; an empty answer is yes.
func (p *prompter) confirm(ctx context.Context, question string) (bool, error) {
	for {
		fmt.Fprintf(p.out, "%s [Y/n]: ", question)
		answer, err := p.readLine(ctx, false)
		if err != nil {
			return false, err
		}
		switch strings.ToLower(answer) {
		case "", "y", "yes":
			return true, nil
		case "n", "no":
			return false, nil
		}
		fmt.Fprintln(p.out, "  answer y or n")
	}
}

// readLine reads one line, or gives up when ctx ends (Ctrl-C), putting the
// terminal back as it was if it was reading a secret.
func (p *prompter) readLine(ctx context.Context, secret bool) (string, error) {
	type result struct {
		line string
		err  error
	}
	done := make(chan result, 1)
	var restore func()
	if secret && p.fd >= 0 {
		state, err := term.GetState(p.fd)
		if err != nil {
			return "", err
		}
		restore = func() { _ = term.Restore(p.fd, state) }
		go func() {
			b, err := term.ReadPassword(p.fd)
			fmt.Fprintln(p.out)
			done <- result{string(b), err}
		}()
	} else {
		go func() {
			line, err := p.in.ReadString('\n')
			if err == io.EOF && line != "" {
				err = nil
			}
			done <- result{line, err}
		}()
	}
	select {
	case <-ctx.Done():
		if restore != nil {
			restore()
		}
		fmt.Fprintln(p.out)
		return "", errCancelled
	case r := <-done:
		if errors.Is(r.err, io.EOF) {
			return "", errCancelled
		}
		return strings.TrimSpace(r.line), r.err
	}
}
