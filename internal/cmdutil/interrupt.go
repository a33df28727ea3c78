package cmdutil

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// ErrInterrupted is the cause of a command's context once SIGINT or
// SIGTERM arrived. A command that stops because of it returns it (or an
// error wrapping it): the run then ends with ExitInterrupted and no error
// line, since the user knows why it stopped.
var ErrInterrupted = errors.New("interrupted")

// SignalContext is the one way every command learns it must stop: the
// context it returns is cancelled, with ErrInterrupted as its cause, on
// the first SIGINT or SIGTERM. From then on the signals have their
// default effect again, so a second Ctrl-C ends a command that is slow to
// wind down. stop releases the signals.
func SignalContext(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			signal.Stop(sigs)
			cancel(ErrInterrupted)
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}

// Interrupted says whether ctx was cancelled by SIGINT or SIGTERM (or by
// anything else that gave ErrInterrupted as the cause).
func Interrupted(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), ErrInterrupted)
}

// StopCause is the error a long command returns when ctx ended: the
// interruption as ErrInterrupted, or ctx's own cause otherwise.
func StopCause(ctx context.Context) error {
	if Interrupted(ctx) {
		return ErrInterrupted
	}
	return context.Cause(ctx)
}
