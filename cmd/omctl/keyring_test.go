package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestKeyringStoresTheKeyInTheSecretService saves a profile's key with
// omctl into a real Secret Service, a gnome-keyring-daemon of its own on
// a D-Bus session of its own, reads it back with secret-tool, and finds
// no key in config.toml. `make test-keyring` installs the tools (Debian:
// gnome-keyring, dbus-daemon, libsecret-tools) and runs it.
func TestKeyringStoresTheKeyInTheSecretService(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the Secret Service test runs on Linux; macOS and Windows stores are go-keyring's own tests")
	}
	for _, tool := range []string{"dbus-run-session", "gnome-keyring-daemon", "secret-tool"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: run `make test-keyring`, which installs gnome-keyring, dbus-daemon and libsecret-tools", tool)
		}
	}
	const key = "11111111-aaaa-4bbb-8ccc-00000000beef"
	dir := t.TempDir()
	omctl, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// One session: the daemon creates and unlocks a login keyring with a
	// password read from its standard input (an empty one would need a
	// graphical prompt), then omctl saves and reads the key, and
	// secret-tool looks it up as any Secret Service client.
	script := `set -e
printf 'omctl-test' | gnome-keyring-daemon --unlock --components=secrets >/dev/null
printf '%s\n' "$KEY" | "$OMCTL" config set private_key
"$OMCTL" config list
echo "reveal=$("$OMCTL" config get private_key --reveal)"
echo "lookup=$(secret-tool lookup service omctl:default username private_key)"
printf 'older-key-cafe\n' | "$OMCTL" config set -P old private_key --insecure-storage
"$OMCTL" config migrate-secrets
echo "migrated=$(secret-tool lookup service omctl:old username private_key)"
`
	cmd := exec.Command("dbus-run-session", "--", "sh", "-c", script)
	cmd.Env = append(os.Environ(),
		asOmctl+"=1", "OMCTL="+omctl, "KEY="+key,
		"HOME="+dir, "XDG_DATA_HOME="+filepath.Join(dir, "data"), "XDG_RUNTIME_DIR="+dir,
		"OMCTL_CONFIG_DIR="+filepath.Join(dir, "config"), "OMCTL_PROFILE=", "OMCTL_PRIVATE_KEY=",
		"GORACE=atexit_sleep_ms=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got := string(out)
	for _, want := range []string{
		`Set private_key = ********beef in profile "default" (in the OS credential store)`,
		"private_key = ********beef  # in the OS credential store",
		"reveal=" + key + "\n",
		"lookup=" + key + "\n",
		"Moved old/private_key into the OS credential store",
		"migrated=older-key-cafe\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Notice:") {
		t.Errorf("omctl fell back to the file:\n%s", got)
	}
	data, err := os.ReadFile(filepath.Join(dir, "config", "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "beef") || strings.Contains(string(data), "cafe") || strings.Contains(string(data), "private_key") {
		t.Errorf("config.toml holds the key:\n%s", data)
	}
}
