package cmdutil

import "errors"

// ErrCommandTimeout is why a command's context ends when --timeout, the
// time limit of the whole command, has passed.
var ErrCommandTimeout = errors.New("the command's --timeout passed")

// NoDeadline is the annotation of a command that --timeout does not
// bound: one that runs until stopped, such as `omctl server`.
const NoDeadline = "omctl/no-deadline"
