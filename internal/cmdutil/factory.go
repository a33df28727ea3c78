package cmdutil

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/omctl/omctl/internal/api"
	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/config"
	"github.com/omctl/omctl/internal/iostreams"
	"github.com/omctl/omctl/internal/output"
)

// GlobalFlags are the values of the root command's persistent flags.
type GlobalFlags struct {
	Profile   string
	BaseURL   string
	Project   string
	Org       string
	Output    string
	JQ        string
	Debug     bool
	CACert    string
	Insecure  bool
	Timeout   time.Duration
	Retries   int
	Envelope  bool
	Pretty    bool
	NoHeaders bool

	// Timeout (above) bounds the whole command; RequestTimeout each
	// request, its retries included.
	RequestTimeout time.Duration
}

// Factory builds, lazily and once, what commands need.
type Factory struct {
	IOStreams *iostreams.IOStreams
	Flags     GlobalFlags
	// FlagSet is the root's persistent flag set, to know which flags were set.
	FlagSet *pflag.FlagSet
	Now     func() time.Time

	settings *config.Settings
	file     *config.File
	// exposedOnce says a readable config file holding a key once a run.
	exposedOnce sync.Once
	client      *client.Client
	// projectIDs are the projects named by name this run, by name.
	projectIDs map[string]string
}

// New returns a Factory over ios.
func New(ios *iostreams.IOStreams) *Factory {
	f := &Factory{IOStreams: ios}
	f.Now = f.serverNow
	return f
}

// serverNow is the server's time once the client exists (asking for it
// if no answer has told it yet), the machine's before: relative times
// the user gives (--until 4h) and shows ("2 minutes ago") count from the
// server's clock, which under omctl server --clock is far from this one.
func (f *Factory) serverNow() time.Time {
	if f.client == nil {
		return time.Now()
	}
	f.client.SyncClock(context.Background())
	return f.client.Now()
}

// ConfigFile loads the config file and returns it with its path.
func (f *Factory) ConfigFile() (*config.File, string, error) {
	path, err := config.Path()
	if err != nil {
		return nil, "", err
	}
	file, err := config.Load(path)
	if err == nil && file.HoldsSecret() {
		// Once a run, however often the run loads the file.
		f.exposedOnce.Do(func() { config.WarnIfExposed(f.IOStreams.ErrOut, path, "a private key") })
	}
	return file, path, err
}

// Settings resolves flags, environment and profile.
func (f *Factory) Settings() (*config.Settings, error) {
	if f.settings != nil {
		return f.settings, nil
	}
	file, _, err := f.ConfigFile()
	if err != nil {
		return nil, err
	}
	s, err := config.Resolve(file, f.Flags.Profile, f.FlagSet)
	if err != nil {
		return nil, &FlagError{err}
	}
	f.settings, f.file = s, file
	return s, nil
}

// CommandTimeout is the time limit of the whole command: --timeout, else
// OMCTL_TIMEOUT, else the profile's timeout (config.AllKeys); 0 for none.
// A config that cannot be read leaves the flag's value: the command says
// what is wrong with it when it needs it.
func (f *Factory) CommandTimeout() time.Duration {
	s, err := f.Settings()
	if err != nil || s.Timeout == "" {
		return f.Flags.Timeout
	}
	if d, err := time.ParseDuration(s.Timeout); err == nil {
		return d
	}
	return f.Flags.Timeout
}

// Client builds the one API client of this run.
func (f *Factory) Client() (*client.Client, error) {
	if f.client != nil {
		return f.client, nil
	}
	s, err := f.Settings()
	if err != nil {
		return nil, err
	}
	privateKey, keyErr := config.PrivateKeyOf(s, f.file, f.IOStreams.ErrOut)
	if keyErr != nil && s.PrivateKeyFile != "" {
		return nil, &FlagError{keyErr} // a key file named but unreadable
	}
	if s.PublicKey == "" || privateKey == "" {
		why := ""
		if keyErr != nil {
			why = " (" + keyErr.Error() + ")" // the credential store failed
		}
		return nil, &FlagError{fmt.Errorf("no API key: set OMCTL_PUBLIC_KEY and OMCTL_PRIVATE_KEY (or OMCTL_PRIVATE_KEY_FILE), or public_key and private_key in profile %q (omctl config init)%s", s.Profile, why)}
	}
	if s.Insecure {
		// Say where it came from: a forgotten OMCTL_INSECURE or profile
		// key is what the user has to find.
		fmt.Fprintf(f.IOStreams.ErrOut, "Warning: TLS certificate verification is disabled (%s); the connection can be intercepted.\n", s.From["insecure"])
	}
	var debug io.Writer
	if f.Flags.Debug {
		debug = f.IOStreams.ErrOut
	}
	retries, err := f.retries()
	if err != nil {
		return nil, err
	}
	c, err := client.New(client.Options{
		BaseURL:    s.BaseURL,
		PublicKey:  s.PublicKey,
		PrivateKey: privateKey,
		CACertFile: s.CACert,
		Insecure:   s.Insecure,
		Timeout:    f.Flags.RequestTimeout,
		Retries:    &retries,
		OnRetry:    f.sayRetry,
		Debug:      debug,
		Envelope:   f.Flags.Envelope,
		Pretty:     f.Flags.Pretty,
	})
	if err != nil {
		return nil, &FlagError{err}
	}
	f.client = c
	return c, nil
}

// Printer builds the printer of -o, --jq, --pretty and --envelope.
func (f *Factory) Printer() (*output.Printer, error) {
	s, err := f.Settings()
	if err != nil {
		return nil, err
	}
	return output.New(f.IOStreams, output.Options{
		Format:     s.Output,
		FormatFrom: s.From["output"],
		JQ:         f.Flags.JQ,
		Pretty:     f.Flags.Pretty,
		Envelope:   f.Flags.Envelope,
		Now:        f.Now,
		NoHeaders:  f.Flags.NoHeaders,
	})
}

// ProjectID is --project, else the profile's project_id: an id, or a
// project's name, which is resolved to its id.
func (f *Factory) ProjectID() (string, error) {
	s, err := f.Settings()
	if err != nil {
		return "", err
	}
	if s.ProjectID == "" {
		return "", FlagErrorf("no project: set --project, OMCTL_PROJECT_ID or project_id in profile %q", s.Profile)
	}
	if api.IsObjectID(s.ProjectID) {
		return s.ProjectID, nil
	}
	return f.projectByName(s.ProjectID)
}

// OrgID is --org, else the profile's org_id, checked for form.
func (f *Factory) OrgID() (string, error) {
	s, err := f.Settings()
	if err != nil {
		return "", err
	}
	if s.OrgID == "" {
		return "", FlagErrorf("no organization: set --org, OMCTL_ORG_ID or org_id in profile %q", s.Profile)
	}
	return s.OrgID, CheckID("organization", s.OrgID)
}

// CheckID fails with a usage error unless id is 24 hexadecimal digits.
func CheckID(what, id string) error {
	if !api.IsObjectID(id) {
		return FlagErrorf("invalid %s ID %q: want 24 hexadecimal digits", what, id)
	}
	// The API's ids are lower case, and it answers 404 to the same id in
	// capitals: say so before sending it.
	if lower := strings.ToLower(id); lower != id {
		return FlagErrorf("invalid %s ID %q: ids are lower-case hexadecimal; did you mean %s?", what, id, lower)
	}
	return nil
}

// JSONPrinter is Printer with JSON in place of a table, for commands whose
// answers have no table shape (`omctl api`).
func (f *Factory) JSONPrinter() (*output.Printer, error) {
	s, err := f.Settings()
	if err != nil {
		return nil, err
	}
	format := s.Output
	if format == api.FormatTable {
		if f.FlagSet != nil && f.FlagSet.Changed("output") {
			return nil, &output.UsageError{Err: fmt.Errorf("-o table does not apply here: the answer prints as JSON; use -o json or -o jsonl")}
		}
		format = api.FormatJSON
	}
	return output.New(f.IOStreams, output.Options{Format: format, JQ: f.Flags.JQ, Pretty: f.Flags.Pretty, Envelope: f.Flags.Envelope})
}

// retries is --retries, else config.RetriesEnv, else the client's default.
func (f *Factory) retries() (int, error) {
	if f.FlagSet != nil && f.FlagSet.Changed("retries") {
		if f.Flags.Retries < 0 {
			return 0, FlagErrorf("invalid --retries %d: want 0 (no retries) or more", f.Flags.Retries)
		}
		return f.Flags.Retries, nil
	}
	if v, ok := os.LookupEnv(config.RetriesEnv); ok && v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return 0, FlagErrorf("invalid retries %q (from %s): want 0 (no retries) or more", v, config.RetriesEnv)
		}
		return n, nil
	}
	return client.DefaultRetries, nil
}

// sayRetry tells the user a request is tried again: a trace line with
// --debug, one dim line on a terminal, nothing in a pipe.
func (f *Factory) sayRetry(r client.Retry) {
	msg := fmt.Sprintf("retrying %s %s in %s (attempt %d): %s", r.Method, r.URL, r.Wait.Round(10*time.Millisecond), r.Attempt, r.Reason)
	switch {
	case f.Flags.Debug:
		fmt.Fprintln(f.IOStreams.ErrOut, "* "+msg)
	case f.IOStreams.IsStderrTTY():
		if f.IOStreams.ColorEnabled() {
			msg = "\x1b[2m" + msg + "\x1b[0m"
		}
		fmt.Fprintln(f.IOStreams.ErrOut, msg)
	}
}
