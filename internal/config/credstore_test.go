package config

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"
)

const testKey = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeee1234"

func newFile() *File { return &File{Profiles: map[string]Profile{"default": {PublicKey: "pub"}}} }

func TestPutKeepsTheSecretInTheStoreAndOutOfTheFile(t *testing.T) {
	keyring.MockInit()
	path := filepath.Join(t.TempDir(), "config.toml")
	file := newFile()
	file.Profiles["default"] = Profile{PublicKey: "pub", PrivateKey: "old-in-file"}
	var notice bytes.Buffer
	c := &Credentials{Path: path, Notice: &notice}
	where, err := c.Put(file, "default", "private_key", testKey)
	if err != nil || where != StoredInKeyring {
		t.Fatalf("Put: %v %v", where, err)
	}
	if err := file.Save(path); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), "private_key") || strings.Contains(string(data), "old-in-file") {
		t.Errorf("the file still holds a key:\n%s", data)
	}
	if got, _ := keyring.Get("omctl:default", "private_key"); got != testKey {
		t.Errorf("store holds %q", got)
	}
	loaded, _ := Load(path)
	if v, where, err := c.Get(loaded, "default", "private_key"); v != testKey || where != StoredInKeyring || err != nil {
		t.Errorf("Get = %q %v %v", v, where, err)
	}
	if notice.Len() != 0 {
		t.Errorf("notice %q", notice.String())
	}
}

func TestPutFallsBackToTheFileOnceWhenTheStoreFails(t *testing.T) {
	keyring.MockInitWithError(errors.New("The name org.freedesktop.secrets was not provided by any .service files"))
	path := filepath.Join(t.TempDir(), "config.toml")
	file := newFile()
	var notice bytes.Buffer
	c := &Credentials{Path: path, Notice: &notice}
	for _, name := range []string{"default", "staging"} {
		where, err := c.Put(file, name, "private_key", testKey)
		if err != nil || where != StoredInFile {
			t.Fatalf("Put: %v %v", where, err)
		}
	}
	if file.Profiles["default"].PrivateKey != testKey || file.Profiles["staging"].PrivateKey != testKey {
		t.Errorf("profiles %+v", file.Profiles)
	}
	got := notice.String()
	if strings.Count(got, "\n") != 1 || !strings.Contains(got, path) || !strings.Contains(got, "no Secret Service") || strings.Contains(got, "1234") {
		t.Errorf("notice %q", got)
	}
	if v, where, err := c.Get(file, "default", "private_key"); v != testKey || where != StoredInFile || err != nil {
		t.Errorf("Get = %q %v %v", v, where, err)
	}
}

// Each `config set -P NAME private_key` is a run of its own: the notice is
// given when the first secret goes to the file, not again for each
// profile's key.
func TestFallbackNoticeIsNotRepeatedForEachProfile(t *testing.T) {
	keyring.MockInitWithError(errors.New("The name org.freedesktop.secrets was not provided by any .service files"))
	path := filepath.Join(t.TempDir(), "config.toml")
	file := newFile()
	var notice bytes.Buffer
	for _, name := range []string{"default", "staging", "prod"} {
		c := &Credentials{Path: path, Notice: &notice} // one per run
		if where, err := c.Put(file, name, "private_key", testKey); err != nil || where != StoredInFile {
			t.Fatalf("Put: %v %v", where, err)
		}
	}
	if n := strings.Count(notice.String(), "Notice:"); n != 1 {
		t.Errorf("%d notices:\n%s", n, notice.String())
	}
}

func TestInsecureStoragePutsTheSecretInTheFileAndDropsTheStoredOne(t *testing.T) {
	keyring.MockInit()
	if err := keyring.Set("omctl:default", "private_key", "older"); err != nil {
		t.Fatal(err)
	}
	file := newFile()
	var notice bytes.Buffer
	c := &Credentials{Path: "config.toml", Insecure: true, Notice: &notice}
	where, err := c.Put(file, "default", "private_key", testKey)
	if err != nil || where != StoredInFile || file.Profiles["default"].PrivateKey != testKey {
		t.Fatalf("Put: %v %v %+v", where, err, file.Profiles)
	}
	if _, err := keyring.Get("omctl:default", "private_key"); !errors.Is(err, keyring.ErrNotFound) {
		t.Errorf("the store still holds the older key: %v", err)
	}
	if notice.Len() != 0 {
		t.Errorf("a chosen file storage gave a notice: %q", notice.String())
	}
}

func TestPutRefusesAnEmptySecret(t *testing.T) {
	keyring.MockInit()
	c := &Credentials{}
	if _, err := c.Put(newFile(), "default", "private_key", ""); err == nil || !strings.Contains(err.Error(), "must not be empty") {
		t.Errorf("err = %v", err)
	}
}

func TestMigrateMovesFileSecretsIntoTheStore(t *testing.T) {
	keyring.MockInit()
	file := &File{Profiles: map[string]Profile{
		"a": {PublicKey: "pa", PrivateKey: "key-a"},
		"b": {PublicKey: "pb"},
		"c": {PrivateKey: "key-c"},
	}}
	c := &Credentials{Path: "config.toml"}
	moved, err := c.Migrate(file)
	if err != nil || strings.Join(moved, ",") != "a/private_key,c/private_key" {
		t.Fatalf("moved %v, %v", moved, err)
	}
	if file.HoldsSecret() || file.Profiles["a"].PublicKey != "pa" {
		t.Errorf("file after migration %+v", file.Profiles)
	}
	for name, want := range map[string]string{"a": "key-a", "c": "key-c"} {
		if v, where, _ := c.Get(file, name, "private_key"); v != want || where != StoredInKeyring {
			t.Errorf("%s: %q %v", name, v, where)
		}
	}
}

func TestMigrateWithoutAStoreChangesNothing(t *testing.T) {
	keyring.MockInitWithError(errors.New("no store"))
	file := &File{Profiles: map[string]Profile{"a": {PrivateKey: "key-a"}}}
	c := &Credentials{Path: "/x/config.toml"}
	moved, err := c.Migrate(file)
	if err == nil || len(moved) != 0 || !strings.Contains(err.Error(), "stays in /x/config.toml") || strings.Contains(err.Error(), "key-a") {
		t.Errorf("moved %v, err %v", moved, err)
	}
	if file.Profiles["a"].PrivateKey != "key-a" {
		t.Error("the key left the file although the store refused it")
	}
}

func TestDeleteRemovesTheSecretEverywhere(t *testing.T) {
	keyring.MockInit()
	file := newFile()
	c := &Credentials{}
	if _, err := c.Put(file, "default", "private_key", testKey); err != nil {
		t.Fatal(err)
	}
	if !c.Delete(file, "default", "private_key") {
		t.Error("Delete found nothing")
	}
	if v, where, err := c.Get(file, "default", "private_key"); v != "" || where != StoredNowhere || err != nil {
		t.Errorf("after Delete: %q %v %v", v, where, err)
	}
	if c.Delete(file, "default", "private_key") {
		t.Error("a second Delete found something")
	}
}

func TestPrivateKeyOfPrecedence(t *testing.T) {
	keyring.MockInit()
	clearEnv(t)
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key")
	if err := os.WriteFile(keyFile, []byte("  from-file\nsecond line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := keyring.Set("omctl:default", "private_key", "from-store"); err != nil {
		t.Fatal(err)
	}
	file := &File{Profiles: map[string]Profile{"default": {PublicKey: "pub"}}}
	resolve := func() string {
		t.Helper()
		s, err := Resolve(file, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		var warn bytes.Buffer
		v, err := PrivateKeyOf(s, file, &warn)
		if err != nil || warn.Len() != 0 {
			t.Fatalf("%v %q", err, warn.String())
		}
		return v
	}
	if got := resolve(); got != "from-store" {
		t.Errorf("store: %q", got)
	}
	file.Profiles["default"] = Profile{PublicKey: "pub", PrivateKeyFile: keyFile}
	if got := resolve(); got != "from-file" {
		t.Errorf("private_key_file: %q", got)
	}
	file.Profiles["default"] = Profile{PublicKey: "pub", PrivateKey: "from-config"}
	if got := resolve(); got != "from-config" {
		t.Errorf("private_key: %q", got)
	}
	t.Setenv("OMCTL_PRIVATE_KEY_FILE", keyFile)
	if got := resolve(); got != "from-file" {
		t.Errorf("OMCTL_PRIVATE_KEY_FILE did not beat the profile: %q", got)
	}
	t.Setenv("OMCTL_PRIVATE_KEY", "from-env")
	if got := resolve(); got != "from-env" {
		t.Errorf("OMCTL_PRIVATE_KEY did not win: %q", got)
	}
}

// CI jobs run on environment variables alone: no profile, and a store
// that fails must not matter.
func TestEnvironmentAloneNeedsNoStore(t *testing.T) {
	keyring.MockInitWithError(errors.New("no store"))
	clearEnv(t)
	t.Setenv("OMCTL_PRIVATE_KEY", "from-env")
	file := &File{Profiles: map[string]Profile{"default": {PrivateKey: "from-config"}}}
	s, err := Resolve(file, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := PrivateKeyOf(s, file, nil); v != "from-env" || err != nil {
		t.Errorf("%q %v", v, err)
	}
	t.Setenv("OMCTL_PRIVATE_KEY", "")
	if v, err := PrivateKeyOf(&Settings{Profile: "default"}, &File{Profiles: map[string]Profile{}}, nil); v != "" || err != nil {
		t.Errorf("no profile: %q %v", v, err)
	}
}

func TestAStoreThatFailsOnReadIsNamed(t *testing.T) {
	keyring.MockInitWithError(errors.New("locked"))
	file := &File{Profiles: map[string]Profile{"default": {PublicKey: "pub"}}}
	_, err := PrivateKeyOf(&Settings{Profile: "default"}, file, nil)
	if err == nil || !strings.Contains(err.Error(), "OS credential store") {
		t.Errorf("err = %v", err)
	}
}

func TestKeyFileErrorsAndExposure(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadKeyFile(empty, nil); err == nil || !strings.Contains(err.Error(), "is empty") {
		t.Errorf("empty: %v", err)
	}
	if _, err := ReadKeyFile(filepath.Join(dir, "none"), nil); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing: %v", err)
	}
	open := filepath.Join(dir, "open")
	if err := os.WriteFile(open, []byte("k\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o644); err != nil {
		t.Fatal(err)
	}
	var warn bytes.Buffer
	if v, err := ReadKeyFile(open, &warn); v != "k" || err != nil || !strings.Contains(warn.String(), "chmod 600 "+open) || !strings.Contains(warn.String(), "0644") {
		t.Errorf("%q %v warning %q", v, err, warn.String())
	}
}

func TestSaveProfileGoesThroughTheStore(t *testing.T) {
	keyring.MockInit()
	path := filepath.Join(t.TempDir(), "config.toml")
	c := &Credentials{Path: path}
	where, err := SaveProfile(path, "ci", Profile{BaseURL: "https://om:8443", PublicKey: "pub", PrivateKey: testKey}, c)
	if err != nil || where != StoredInKeyring {
		t.Fatalf("%v %v", where, err)
	}
	file, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if file.ActiveProfile != "ci" || file.Profiles["ci"].PublicKey != "pub" || file.HoldsSecret() {
		t.Errorf("saved %+v", file)
	}
	if v, _ := keyring.Get("omctl:ci", "private_key"); v != testKey {
		t.Errorf("store %q", v)
	}
	c.Insecure = true
	if where, err := SaveProfile(path, "ci", Profile{PublicKey: "pub", PrivateKey: testKey}, c); err != nil || where != StoredInFile {
		t.Errorf("insecure: %v %v", where, err)
	}
}

// The D-Bus library's words never reach the user: the notice says what is
// missing.
func TestKeyringErrorsInAUsersWords(t *testing.T) {
	err := errors.New(`exec: "dbus-launch": executable file not found in $PATH`)
	if got := describeKeyringError(err); strings.Contains(got, "exec:") || strings.Contains(got, "$PATH") || !strings.Contains(got, "no Secret Service") {
		t.Errorf("describeKeyringError = %q", got)
	}
}
