package config

import (
	"fmt"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/omctl/omctl/internal/api"
)

// Key is one setting of a profile and everything omctl knows of it: the
// environment variable and global flag that override it, whether it is a
// secret, what it accepts and how `omctl help environment` describes it.
// AllKeys drives `config get|set|unset|list`, their completion, the
// questions of `config init`, Resolve and the Settings it returns, the
// "(env ...)" of the global flags' help, `omctl help environment` and
// README.md's table of settings (written by `make docs`), so a new
// setting is one row here and one Profile field; tests fail until the
// field's TOML name is the row's Name and `omctl config --help` names it.
type Key struct {
	Name string
	// Env is the environment variable that beats the profile.
	Env string
	// Flag is the global flag that beats both, "" when there is none.
	Flag string
	// Secret values are shown redacted unless asked for.
	Secret bool
	// Help is the line of `omctl help environment`.
	Help string
	// Values are the values to complete, where they are few; File says
	// the value is a file name.
	Values []string
	File   bool
	// Default is the value a run uses when nothing sets the key; it is
	// not written to the profile, so `config get` still shows it unset.
	Default string
	// Prompt is how `omctl config init` asks for the key, nil when it
	// does not: init asks for the keys that have one, in table order.
	Prompt *Prompt
	// check refuses a value that is not empty, naming what is allowed.
	check func(key, value string) error
	// get and set read and write the key's field of a Profile.
	get func(Profile) string
	set func(*Profile, string)
}

// Prompt is one question of `omctl config init`. A Secret key is read
// without echo and its current value is not shown.
type Prompt struct {
	Title, Help string
	// Optional keys may be answered with nothing, which leaves the
	// profile's value as it was.
	Optional bool
}

// AllKeys are the keys of a profile, in the order `config list` shows them.
var AllKeys = []Key{
	{Name: "base_url", Env: "OMCTL_BASE_URL", Flag: "base-url", check: checkBaseURL,
		Help:   "API base URL (https://host:port or a full base path)",
		Prompt: &Prompt{Title: "Base URL", Help: "https://host:port of the server"},
		get:    func(p Profile) string { return p.BaseURL }, set: func(p *Profile, v string) { p.BaseURL = v }},
	{Name: "public_key", Env: "OMCTL_PUBLIC_KEY", check: checkNotEmpty,
		Help:   "public key of an API key, or a user name",
		Prompt: &Prompt{Title: "Public key", Help: "or a user name"},
		get:    func(p Profile) string { return p.PublicKey }, set: func(p *Profile, v string) { p.PublicKey = v }},
	{Name: "private_key", Env: "OMCTL_PRIVATE_KEY", Secret: true, check: checkNotEmpty,
		Help:   "private key of that API key, or the user's API key",
		Prompt: &Prompt{Title: "Private key", Help: "or that user's API key; not shown as you type"},
		get:    func(p Profile) string { return p.PrivateKey }, set: func(p *Profile, v string) { p.PrivateKey = v }},
	{Name: "private_key_file", Env: "OMCTL_PRIVATE_KEY_FILE", File: true, check: checkKeyFile,
		Help: "file holding the private key (a secret mounted as a file); OMCTL_PRIVATE_KEY wins",
		get:  func(p Profile) string { return p.PrivateKeyFile }, set: func(p *Profile, v string) { p.PrivateKeyFile = v }},
	{Name: "project_id", Env: "OMCTL_PROJECT_ID", Flag: "project", check: checkProject,
		Help:   "default project (--project)",
		Prompt: &Prompt{Title: "Default project ID", Help: "24 hex digits, optional", Optional: true},
		get:    func(p Profile) string { return p.ProjectID }, set: func(p *Profile, v string) { p.ProjectID = v }},
	{Name: "org_id", Env: "OMCTL_ORG_ID", Flag: "org", check: checkObjectID,
		Help:   "default organization (--org)",
		Prompt: &Prompt{Title: "Default organization ID", Help: "24 hex digits, optional; apikeys accesslist add needs it", Optional: true},
		get:    func(p Profile) string { return p.OrgID }, set: func(p *Profile, v string) { p.OrgID = v }},
	{Name: "output", Env: "OMCTL_OUTPUT", Flag: "output", Values: api.OutputFormats, Default: api.FormatTable, check: checkOutput,
		Help: "default output format: table, json, jsonl or yaml (-o)",
		get:  func(p Profile) string { return p.Output }, set: func(p *Profile, v string) { p.Output = v }},
	{Name: "ca_cert", Env: "OMCTL_CA_CERT", Flag: "ca-cert", File: true, check: checkCACert,
		Help: "PEM file of a CA to trust (--ca-cert)",
		get:  func(p Profile) string { return p.CACert }, set: func(p *Profile, v string) { p.CACert = v }},
	{Name: "timeout", Env: "OMCTL_TIMEOUT", Flag: "timeout", check: checkTimeout,
		Help: "time limit of the whole command, every page and retry included; 0 or unset for none (--timeout)",
		get:  func(p Profile) string { return p.Timeout }, set: func(p *Profile, v string) { p.Timeout = v }},
	{Name: "insecure", Env: "OMCTL_INSECURE", Flag: "insecure", Values: []string{"true", "false"}, check: checkBool,
		Help: "true to skip TLS verification (--insecure)",
		// A profile holds insecure only when true: unset, it is "".
		get: func(p Profile) string {
			if p.Insecure {
				return "true"
			}
			return ""
		},
		set: func(p *Profile, v string) { p.Insecure, _ = strconv.ParseBool(v) }},
}

// Keys are the names of AllKeys, in order.
var Keys = func() []string {
	names := make([]string, len(AllKeys))
	for i, k := range AllKeys {
		names[i] = k.Name
	}
	return names
}()

// LookupKey finds a key by name.
func LookupKey(name string) (Key, bool) {
	i := slices.IndexFunc(AllKeys, func(k Key) bool { return k.Name == name })
	if i < 0 {
		return Key{}, false
	}
	return AllKeys[i], true
}

// LookupFlag finds the key that the global flag --name overrides.
func LookupFlag(name string) (Key, bool) {
	i := slices.IndexFunc(AllKeys, func(k Key) bool { return k.Flag != "" && k.Flag == name })
	if i < 0 {
		return Key{}, false
	}
	return AllKeys[i], true
}

// ValidateKey checks a key name.
func ValidateKey(key string) error {
	if _, ok := LookupKey(key); !ok {
		return fmt.Errorf("unknown config key %q: valid keys are %s", key, strings.Join(Keys, ", "))
	}
	return nil
}

// ValidateValue checks a value for key, naming what is allowed.
func ValidateValue(key, value string) error {
	k, ok := LookupKey(key)
	if !ok {
		return ValidateKey(key)
	}
	return k.check(key, value)
}

// EnvName returns the environment variable of a key.
func EnvName(key string) string {
	k, _ := LookupKey(key)
	return k.Env
}

// IsSecret reports whether key holds a secret.
func IsSecret(key string) bool {
	k, _ := LookupKey(key)
	return k.Secret
}

// Get returns the value of key as text.
func (p Profile) Get(key string) string {
	if k, ok := LookupKey(key); ok {
		return k.get(p)
	}
	return ""
}

// Set validates value and stores it under key.
func (p *Profile) Set(key, value string) error {
	if err := ValidateValue(key, value); err != nil {
		return err
	}
	k, _ := LookupKey(key)
	k.set(p, value)
	return nil
}

// Unset removes key from the profile.
func (p *Profile) Unset(key string) error {
	if err := ValidateKey(key); err != nil {
		return err
	}
	k, _ := LookupKey(key)
	k.set(p, "")
	return nil
}

func checkBaseURL(_, value string) error {
	u, err := url.Parse(value)
	if err == nil && u.User != nil {
		// Never echo it: the part before @ may be a private key.
		return fmt.Errorf("invalid base_url: it must not hold credentials (user:key@); set public_key and private_key instead")
	}
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Errorf("invalid base_url %q: want http(s)://host[:port][/api/public/v1.0]", value)
	}
	return nil
}

// checkProject accepts a project's id or its name, which commands
// resolve to the id (GET /groups/byName/{name}).
func checkProject(key, value string) error {
	if api.IsObjectID(value) {
		return nil
	}
	if strings.TrimSpace(value) == "" || strings.IndexFunc(value, unicode.IsControl) >= 0 {
		return fmt.Errorf("invalid %s %q: want 24 hexadecimal digits or a project's name", key, value)
	}
	return nil
}

func checkObjectID(key, value string) error {
	if !api.IsObjectID(value) {
		return fmt.Errorf("invalid %s %q: want 24 hexadecimal digits", key, value)
	}
	return nil
}

func checkOutput(_, value string) error {
	if !slices.Contains(api.OutputFormats, value) {
		return fmt.Errorf("invalid output %q: valid formats are %s", value, strings.Join(api.OutputFormats, ", "))
	}
	return nil
}

func checkBool(key, value string) error {
	if _, err := strconv.ParseBool(value); err != nil {
		return fmt.Errorf("invalid %s %q: want true or false", key, value)
	}
	return nil
}

func checkTimeout(key, value string) error {
	if d, err := time.ParseDuration(value); err != nil || d < 0 {
		return fmt.Errorf("invalid %s %q: want a duration such as 30s, 2m or 1h, or 0 for none", key, value)
	}
	return nil
}

func checkNotEmpty(key, value string) error {
	if value == "" {
		return fmt.Errorf("%s must not be empty", key)
	}
	return nil
}

func checkKeyFile(_, value string) error {
	if value == "" {
		return fmt.Errorf("private_key_file must not be empty (omctl config unset private_key_file removes it)")
	}
	if st, err := os.Stat(value); err != nil || st.IsDir() {
		return fmt.Errorf("invalid private_key_file %q: no such file; want the path of a file holding the private key", value)
	}
	return nil
}

func checkCACert(_, value string) error {
	if value == "" {
		return fmt.Errorf("ca_cert must not be empty (omctl config unset ca_cert removes it)")
	}
	if st, err := os.Stat(value); err != nil || st.IsDir() {
		return fmt.Errorf("invalid ca_cert %q: no such file; want the path of a PEM file", value)
	}
	return nil
}
