package cmdutil

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxSecretLine bounds a secret read from standard input: a key or a
// password is one short line.
const MaxSecretLine = 64 << 10

// ReadSecret reads a secret that omctl never takes as an argument (shell
// history and ps would keep it): asked without echo at a terminal, else
// one line of standard input. name says what it is; pipeHint shows how to
// pipe it in.
func ReadSecret(ctx context.Context, deps Deps, name, pipeHint string) (string, error) {
	notEmpty := func(v string) error {
		if strings.TrimSpace(v) == "" {
			return fmt.Errorf("%s must not be empty", name)
		}
		return nil
	}
	if deps.IO.IsStdinTTY() {
		p, ok := deps.Prompt()
		if !ok {
			return "", FlagErrorf("cannot ask for %s: neither standard output nor standard error is a terminal; pipe the value in instead: %s", name, pipeHint)
		}
		v, err := p.Password(ctx, Title(strings.ReplaceAll(name, "_", " ")), "not shown as you type", notEmpty)
		return strings.TrimSpace(v), err
	}
	line, err := bufio.NewReader(io.LimitReader(deps.IO.In, MaxSecretLine)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("reading %s from standard input: %s", name, DescribeFileError(err))
	}
	line = strings.TrimSpace(line)
	if err := notEmpty(line); err != nil {
		return "", FlagErrorf("%v: give it on standard input (%s) or type it at a terminal", err, pipeHint)
	}
	return line, nil
}
