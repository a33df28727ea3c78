package config

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/zalando/go-keyring"
)

// Storage says where a profile's secret is kept.
type Storage int

const (
	// StoredNowhere: the profile has no value for the key.
	StoredNowhere Storage = iota
	// StoredInKeyring: the OS credential store (Keychain, Secret
	// Service, Windows Credential Manager) holds it.
	StoredInKeyring
	// StoredInFile: config.toml holds it in plain text (mode 0600).
	StoredInFile
)

func (s Storage) String() string {
	switch s {
	case StoredInKeyring:
		return "in the OS credential store"
	case StoredInFile:
		return "in the config file, in plain text"
	}
	return "not set"
}

// KeyringService is the service name of a profile's entries in the OS
// credential store; the user name is the key's name (private_key). Like
// gh's "gh:HOST", one service per profile keeps profiles apart, and
// `secret-tool lookup service omctl:default username private_key` finds
// one.
func KeyringService(profile string) string { return "omctl:" + profile }

// keyringTimeout bounds each call to the credential store: a Secret
// Service that does not answer (a locked collection whose unlock prompt
// nobody sees, a D-Bus that hangs) must not hold a command. gh uses the
// same bound.
var keyringTimeout = 3 * time.Second

// errKeyringTimeout is the error of a call that ran out of time.
var errKeyringTimeout = errors.New("the OS credential store did not answer within 3s")

// withTimeout runs fn, giving up after keyringTimeout. A call that gives
// up keeps running in its goroutine: go-keyring offers no way to stop it.
func withTimeout[T any](fn func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := fn()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-time.After(keyringTimeout):
		var zero T
		return zero, errKeyringTimeout
	}
}

func keyringSet(profile, key, value string) error {
	_, err := withTimeout(func() (struct{}, error) {
		return struct{}{}, keyring.Set(KeyringService(profile), key, value)
	})
	return err
}

// keyringGet returns "" and no error when the store has no such entry.
func keyringGet(profile, key string) (string, error) {
	v, err := withTimeout(func() (string, error) { return keyring.Get(KeyringService(profile), key) })
	if errors.Is(err, keyring.ErrNotFound) {
		return "", nil
	}
	return v, err
}

func keyringDelete(profile, key string) error {
	_, err := withTimeout(func() (struct{}, error) {
		return struct{}{}, keyring.Delete(KeyringService(profile), key)
	})
	if errors.Is(err, keyring.ErrNotFound) {
		return nil
	}
	return err
}

// SecretKeys are the keys of AllKeys that hold a secret.
func SecretKeys() []Key {
	var keys []Key
	for _, k := range AllKeys {
		if k.Secret {
			keys = append(keys, k)
		}
	}
	return keys
}

// Credentials keep the secrets of the profiles of one config file: in the
// OS credential store when one answers, else in the file itself, as gh
// does (docs/configuration.md, "Where secrets are kept").
type Credentials struct {
	// Path is the config file's, for messages.
	Path string
	// Insecure keeps secrets in the file on purpose (--insecure-storage).
	Insecure bool
	// Notice receives the one line that says a secret went to the file
	// because no credential store answered.
	Notice io.Writer

	noticeOnce sync.Once
}

// Put keeps value as key of profile name in file: in the credential
// store, and then not in the file, or in the file when the store fails or
// c.Insecure asks so. The caller saves file afterwards.
func (c *Credentials) Put(file *File, name, key, value string) (Storage, error) {
	k, ok := LookupKey(key)
	if !ok {
		return StoredNowhere, ValidateKey(key)
	}
	if err := k.check(key, value); err != nil {
		return StoredNowhere, err
	}
	prof := file.Profiles[name]
	if !c.Insecure {
		// The file keeps secrets already: the user was told when the
		// first went there, by this run or an earlier one (a notice for
		// each profile's key would say the same thing again).
		told := file.HoldsSecret()
		err := keyringSet(name, key, value)
		if err == nil {
			k.set(&prof, "")
			file.Profiles[name] = prof
			return StoredInKeyring, nil
		}
		c.noticeOnce.Do(func() {
			if c.Notice != nil && !told {
				fmt.Fprintf(c.Notice, "Notice: no OS credential store answered (%s); %s is kept in plain text in %s (mode 0600). Move it later with `omctl config migrate-secrets`.\n", describeKeyringError(err), key, c.Path)
			}
		})
	} else {
		// An older copy in the store would outlive the one in the
		// file; the store may as well not be there, so errors are moot.
		_ = keyringDelete(name, key)
	}
	k.set(&prof, value)
	file.Profiles[name] = prof
	return StoredInFile, nil
}

// Get finds key of profile name: in the file first (a copy kept there on
// purpose, or from before the store), then in the credential store.
func (c *Credentials) Get(file *File, name, key string) (string, Storage, error) {
	if v := file.Profiles[name].Get(key); v != "" {
		return v, StoredInFile, nil
	}
	v, err := keyringGet(name, key)
	if err != nil {
		return "", StoredNowhere, fmt.Errorf("reading %s of profile %q from the OS credential store: %s", key, name, describeKeyringError(err))
	}
	if v == "" {
		return "", StoredNowhere, nil
	}
	return v, StoredInKeyring, nil
}

// Delete removes key of profile name from the file and from the store.
// A store that does not answer holds nothing omctl put there.
func (c *Credentials) Delete(file *File, name, key string) (wasSet bool) {
	prof, ok := file.Profiles[name]
	if ok && prof.Get(key) != "" {
		wasSet = true
		_ = prof.Unset(key)
		file.Profiles[name] = prof
	}
	if v, err := keyringGet(name, key); err == nil && v != "" {
		wasSet = keyringDelete(name, key) == nil || wasSet
	}
	return wasSet
}

// Migrate moves every secret the file holds into the credential store and
// names what it moved ("profile/key"). It stops at the first failure,
// with what moved so far moved; the caller saves file either way.
func (c *Credentials) Migrate(file *File) (moved []string, err error) {
	for _, name := range file.ProfileNames() {
		for _, k := range SecretKeys() {
			prof := file.Profiles[name]
			v := k.get(prof)
			if v == "" {
				continue
			}
			if err := keyringSet(name, k.Name, v); err != nil {
				return moved, fmt.Errorf("cannot move %s of profile %q into the OS credential store: %s; it stays in %s", k.Name, name, describeKeyringError(err), c.Path)
			}
			k.set(&prof, "")
			file.Profiles[name] = prof
			moved = append(moved, name+"/"+k.Name)
		}
	}
	return moved, nil
}

// describeKeyringError says why the store failed in a user's words: the
// D-Bus errors underneath name interfaces nobody set up by hand.
func describeKeyringError(err error) string {
	msg := err.Error()
	switch {
	case errors.Is(err, errKeyringTimeout):
		return msg
	case strings.Contains(msg, "DBUS_SESSION_BUS_ADDRESS"), strings.Contains(msg, "dbus"), strings.Contains(msg, "org.freedesktop"):
		// The D-Bus library's own words (exec: "dbus-launch": ...) mean
		// nothing to a user; what matters is that no keyring answered.
		return "no Secret Service on the session bus: on Linux, gnome-keyring or KWallet in a desktop session"
	}
	return firstLine(msg)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// SaveProfile writes prof as profile name of the config file at path,
// its secrets through the credential store, making it the active profile
// when it is the only one. It is how a command that gets a new key (`apikeys
// create --save-profile`) keeps it. It returns where the secrets went.
func SaveProfile(path, name string, prof Profile, c *Credentials) (Storage, error) {
	file, err := Load(path)
	if err != nil {
		return StoredNowhere, err
	}
	secrets := map[string]string{}
	for _, k := range SecretKeys() {
		if v := k.get(prof); v != "" {
			secrets[k.Name] = v
			k.set(&prof, "")
		}
	}
	file.Profiles[name] = prof
	where := StoredNowhere
	for _, k := range SecretKeys() {
		v, ok := secrets[k.Name]
		if !ok {
			continue
		}
		if where, err = c.Put(file, name, k.Name, v); err != nil {
			return StoredNowhere, err
		}
	}
	if len(file.Profiles) == 1 {
		file.ActiveProfile = name
	}
	return where, file.Save(path)
}

// ReadKeyFile reads a private key from a file named by private_key_file
// or OMCTL_PRIVATE_KEY_FILE: its first line, surrounding blanks removed,
// as a secret mounted from a vault is written. It warns on warn when the
// file is readable by others.
func ReadKeyFile(path string, warn io.Writer) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("reading the private key file %s: %w", path, errors.Unwrap(err))
	}
	WarnIfExposed(warn, path, "a private key")
	key := strings.TrimSpace(firstLine(string(data)))
	if key == "" {
		return "", fmt.Errorf("the private key file %s is empty", path)
	}
	return key, nil
}

// PrivateKeyOf is the private key a run uses: OMCTL_PRIVATE_KEY, else the
// file OMCTL_PRIVATE_KEY_FILE names, else the profile's private_key from
// the config file, its private_key_file, or the credential store. Resolve
// has already put the first of those that is text into s.PrivateKey; the
// store is only asked here, when a request needs the key.
func PrivateKeyOf(s *Settings, file *File, warn io.Writer) (string, error) {
	if s.PrivateKey != "" {
		return s.PrivateKey, nil
	}
	if s.PrivateKeyFile != "" {
		return ReadKeyFile(s.PrivateKeyFile, warn)
	}
	if file == nil {
		return "", nil
	}
	if _, ok := file.Profiles[s.Profile]; !ok {
		// A run on environment variables alone asks no store.
		return "", nil
	}
	var c Credentials
	v, _, err := c.Get(file, s.Profile, "private_key")
	return v, err
}
