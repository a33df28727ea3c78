package cmdutil

import (
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/output"
	"github.com/omctl/omctl/internal/prompt"
)

// Deps are what a command takes from the Factory. Every options struct
// embeds it, so a test builds a command's inputs with one literal and a run
// function resolves them with one call (Resolve). Each getter stays a
// function: a command that never needs the client never asks for a key.
type Deps struct {
	IO        *iostreams.IOStreams
	Printer   func() (*output.Printer, error)
	ProjectID func() (string, error)
	OrgID     func() (string, error)
	Client    func() (*client.Client, error)
	// Prompter asks a person; nil asks at the terminal (prompt.New).
	// Tests set a scripted one and mark IO's streams as terminals.
	Prompter prompt.Prompter
}

// Prompt returns who asks questions, and whether anybody can answer
// (prompt.CanPrompt). A command that would ask without a terminal fails
// with a usage error instead, or goes on where a script expects it to.
func (d Deps) Prompt() (prompt.Prompter, bool) {
	if !prompt.CanPrompt(d.IO) {
		return nil, false
	}
	if d.Prompter != nil {
		return d.Prompter, true
	}
	return prompt.New(d.IO), true
}

// Picker is Prompt for a picker that stands in for a missing argument:
// standard output must be a terminal too (prompt.CanPick).
func (d Deps) Picker() (prompt.Prompter, bool) {
	if !prompt.CanPick(d.IO) {
		return nil, false
	}
	return d.Prompt()
}

// NewDeps takes every dependency from f.
func NewDeps(f *Factory) Deps {
	return Deps{IO: f.IOStreams, Printer: f.Printer, ProjectID: f.ProjectID, OrgID: f.OrgID, Client: f.Client}
}

// Need is the set of dependencies a run function resolves.
type Need uint8

const (
	NeedPrinter Need = 1 << iota
	NeedProject
	NeedOrg
	NeedClient
)

// Resolved holds the dependencies Resolve was asked for; the others are
// zero.
type Resolved struct {
	Printer   *output.Printer
	ProjectID string
	OrgID     string
	Client    *client.Client
}

// Resolve resolves what need names and stops at the first failure, always
// in this order: the printer (a bad -o or --jq), the project, the
// organization, then the client. A run function checks its own flags and
// arguments before calling it, so usage errors come first and the client,
// the one step that can warn (--insecure) or need a key, comes last: a
// command that cannot run says why before it touches the network.
func (d Deps) Resolve(need Need) (Resolved, error) {
	var r Resolved
	steps := []struct {
		need    Need
		resolve func() error
	}{
		{NeedPrinter, func() (err error) { r.Printer, err = d.Printer(); return err }},
		{NeedProject, func() (err error) { r.ProjectID, err = d.ProjectID(); return err }},
		{NeedOrg, func() (err error) { r.OrgID, err = d.OrgID(); return err }},
		{NeedClient, func() (err error) { r.Client, err = d.Client(); return err }},
	}
	for _, s := range steps {
		if need&s.need == 0 {
			continue
		}
		if err := s.resolve(); err != nil {
			return Resolved{}, err
		}
	}
	return r, nil
}
