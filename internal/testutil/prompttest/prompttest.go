// Package prompttest answers a command's questions from a script, as a
// person at a terminal would, and records what was asked.
package prompttest

import (
	"context"
	"fmt"
	"testing"

	"github.com/omctl/omctl/internal/prompt"
)

// Script is a prompt.Prompter that gives its Answers in order: a string
// for Input, Password and Select, a bool for Confirm, a []string for
// MultiSelect, or an error (prompt.ErrCancelled) for any. A question
// past the end of the script, or answered with the wrong type, fails the
// test.
type Script struct {
	T       testing.TB
	Answers []any
	// Asked are the titles of the questions, in order.
	Asked []string
	// Offered are the options of each picker, by title.
	Offered map[string][]prompt.Option
}

// New returns a Script of answers.
func New(t testing.TB, answers ...any) *Script {
	return &Script{T: t, Answers: answers, Offered: map[string][]prompt.Option{}}
}

func (s *Script) next(title string) (any, error) {
	s.T.Helper()
	s.Asked = append(s.Asked, title)
	if len(s.Answers) == 0 {
		s.T.Fatalf("asked %q past the end of the script", title)
	}
	a := s.Answers[0]
	s.Answers = s.Answers[1:]
	if err, ok := a.(error); ok {
		return nil, err
	}
	return a, nil
}

func answer[T any](s *Script, title string) (T, error) {
	s.T.Helper()
	var zero T
	a, err := s.next(title)
	if err != nil {
		return zero, err
	}
	v, ok := a.(T)
	if !ok {
		s.T.Fatalf("question %q: the script answers %#v, want a %T", title, a, zero)
	}
	return v, nil
}

// text answers an input, keeping value on an empty answer as the form
// does, and fails when validate refuses the answer.
func (s *Script) text(title, value string, validate func(string) error) (string, error) {
	s.T.Helper()
	v, err := answer[string](s, title)
	if err != nil {
		return "", err
	}
	if v == "" {
		v = value
	}
	if validate != nil {
		if err := validate(v); err != nil {
			return "", fmt.Errorf("question %q refused the script's answer: %w", title, err)
		}
	}
	return v, nil
}

func (s *Script) Input(_ context.Context, title, _, value string, validate func(string) error) (string, error) {
	return s.text(title, value, validate)
}

func (s *Script) Password(_ context.Context, title, _ string, validate func(string) error) (string, error) {
	return s.text(title, "", validate)
}

func (s *Script) Confirm(_ context.Context, title, _ string, _ bool) (bool, error) {
	return answer[bool](s, title)
}

func (s *Script) Select(_ context.Context, title string, options []prompt.Option) (string, error) {
	s.Offered[title] = options
	return answer[string](s, title)
}

func (s *Script) MultiSelect(_ context.Context, title string, options []prompt.Option) ([]string, error) {
	s.Offered[title] = options
	return answer[[]string](s, title)
}
