// Package config reads and writes omctl's profiles file and resolves the
// settings of one invocation from flags, environment and profile.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"
)

// DefaultProfile is used when nothing names a profile.
const DefaultProfile = "default"

// Profile is one named set of settings.
type Profile struct {
	BaseURL    string `toml:"base_url,omitempty"`
	PublicKey  string `toml:"public_key,omitempty"`
	PrivateKey string `toml:"private_key,omitempty"`
	// PrivateKeyFile names a file holding the private key, for secrets
	// mounted as files; the file is read when a request needs the key.
	PrivateKeyFile string `toml:"private_key_file,omitempty"`
	ProjectID      string `toml:"project_id,omitempty"`
	OrgID          string `toml:"org_id,omitempty"`
	Output         string `toml:"output,omitempty"`
	CACert         string `toml:"ca_cert,omitempty"`
	Timeout        string `toml:"timeout,omitempty"`
	Insecure       bool   `toml:"insecure,omitempty"`
}

// File is the whole config file.
type File struct {
	ActiveProfile string             `toml:"active_profile,omitempty"`
	Profiles      map[string]Profile `toml:"profiles,omitempty"`
}

// Path is where the config file lives: $OMCTL_CONFIG_DIR/config.toml, else
// $XDG_CONFIG_HOME/omctl/config.toml, else ~/.config/omctl/config.toml.
func Path() (string, error) {
	if dir := os.Getenv("OMCTL_CONFIG_DIR"); dir != "" {
		return filepath.Join(dir, "config.toml"), nil
	}
	if dir := os.Getenv("XDG_CONFIG_HOME"); dir != "" {
		return filepath.Join(dir, "omctl", "config.toml"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot find the config directory: %w (set OMCTL_CONFIG_DIR)", err)
	}
	return filepath.Join(home, ".config", "omctl", "config.toml"), nil
}

// Load reads the file at path; a missing file is an empty configuration.
func Load(path string) (*File, error) {
	f := &File{Profiles: map[string]Profile{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading config: %w", err)
	}
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(f); err != nil {
		var strict *toml.StrictMissingError
		if errors.As(err, &strict) {
			return nil, fmt.Errorf("config %s: unknown key(s):\n%s\nknown profile keys: %s", path, strict.String(), strings.Join(Keys, ", "))
		}
		return nil, describeTOMLError(path, err)
	}
	if f.Profiles == nil {
		f.Profiles = map[string]Profile{}
	}
	return f, nil
}

// tomlTypeRE is go-toml's message for a value of the wrong type, which
// names Go's struct field and type. Compiled when a file is wrong, not on
// every start (docs/performance.md, "Start-up").
var tomlTypeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^cannot decode TOML (\w+) into .* of type (\w+)$`)
})

// describeTOMLError says where the file is wrong, by line and column, and
// what is wrong in the file's terms rather than Go's.
func describeTOMLError(path string, err error) error {
	var decErr *toml.DecodeError
	if !errors.As(err, &decErr) {
		return fmt.Errorf("config %s: %s", path, strings.TrimPrefix(err.Error(), "toml: "))
	}
	row, col := decErr.Position()
	msg := strings.TrimPrefix(decErr.Error(), "toml: ")
	if m := tomlTypeRE().FindStringSubmatch(msg); m != nil {
		want := map[string]string{"bool": "true or false", "string": "a string in quotes"}[m[2]]
		if want == "" {
			want = "a " + m[2]
		}
		got := "a " + m[1]
		if strings.HasPrefix(m[1], "i") {
			got = "an " + m[1] // integer
		}
		msg = fmt.Sprintf("%s is %s, want %s", strings.Join(decErr.Key(), "."), got, want)
	}
	return fmt.Errorf("config %s, line %d, column %d: %s", path, row, col, msg)
}

// Save writes the file with mode 0600, since it may hold a private key,
// replacing it atomically so a crash never leaves half a file.
func (f *File) Save(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("creating config directory: %w", err)
	}
	data, err := toml.Marshal(f)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".config-*.toml")
	if err != nil {
		return fmt.Errorf("writing config: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing config: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// ProfileNames lists the profiles, sorted.
func (f *File) ProfileNames() []string {
	names := make([]string, 0, len(f.Profiles))
	for n := range f.Profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// KnownProfiles lists the profiles for a message: "a, b", or "none yet".
func (f *File) KnownProfiles() string {
	if len(f.Profiles) == 0 {
		return "none yet"
	}
	return strings.Join(f.ProfileNames(), ", ")
}

// Active is the profile a run uses when -P and OMCTL_PROFILE are not set.
func (f *File) Active() string {
	if f.ActiveProfile != "" {
		return f.ActiveProfile
	}
	return DefaultProfile
}

// Redact shows a secret's last four characters only.
func Redact(secret string) string {
	if secret == "" {
		return ""
	}
	if len(secret) <= 8 {
		return "********"
	}
	return "********" + secret[len(secret)-4:]
}
