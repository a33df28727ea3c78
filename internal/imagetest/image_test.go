package imagetest

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
)

// The seed a CI job would mount: one oplog store, and the private key of
// a second key as a mounted secret.
const seedStore = `kind: OplogStore
id: oplog-ci
acceptedTos: true
pathStyleAccessEnabled: false
sseEnabled: false
s3AuthMethod: IAM_ROLE
s3BucketEndpoint: https://s3.example.com
s3BucketName: ci-oplogs
s3MaxConnections: 10
uri: mongodb://meta.example.com:27017
`

// serverEnv is all the configuration the server gets, seedDir being where
// it sees the seed: fixtures off, keys the job chose, the documents.
func serverEnv(seedDir string) []string {
	return []string{
		"OMCTL_SERVER_KEYS=ci:ci-secret:GLOBAL_OWNER audit:@" + seedDir + "/audit.key:GLOBAL_READ_ONLY",
		"OMCTL_SERVER_APPLY=" + seedDir + "/stores.yaml",
	}
}

// imageConfig is what the test reads of `podman image inspect`.
type imageConfig struct {
	Config struct {
		User         string
		Env          []string
		Entrypoint   []string
		Cmd          []string
		WorkingDir   string
		ExposedPorts map[string]any
		Healthcheck  *healthcheck
	}
	Healthcheck *healthcheck // where podman shows it
}

type healthcheck struct{ Test []string }

func TestImage(t *testing.T) {
	ref := os.Getenv("OMCTL_TEST_IMAGE")
	if ref == "" {
		t.Skip("make test-image builds the image and runs this test (OMCTL_TEST_IMAGE names the image)")
	}
	podman := strings.Fields(os.Getenv("OMCTL_TEST_PODMAN"))
	if len(podman) == 0 {
		podman = []string{"podman"}
	}
	cfg := inspect(t, podman, ref)
	seed := seedDir(t)
	t.Run("container", func(t *testing.T) {
		srv := runContainer(t, podman, ref, seed)
		if srv == nil {
			t.Skip("this machine runs no container: the exported filesystem's run checks the image")
		}
		checkImageServer(t, srv)
	})
	t.Run("exported filesystem", func(t *testing.T) {
		checkImageServer(t, runExported(t, podman, ref, cfg, seed))
	})
}

// checkImageServer checks a running image: its health check passes, and
// then what a CI job relies on (checkServer) and its log.
func checkImageServer(t *testing.T, srv *server) {
	defer func() {
		if t.Failed() {
			t.Logf("the server's log:\n%s", srv.log())
		}
		srv.stop()
	}()
	if err := srv.healthy(); err != nil {
		t.Fatalf("the image's health check (omctl server wait) did not pass: %v", err)
	}
	checkServer(t, srv.base)
	if log := srv.log(); !strings.Contains(log, "created OplogStore oplog-ci") || strings.Contains(log, "ci-secret") || strings.Contains(log, "audit-secret") {
		t.Errorf("the log should tell the seeding and no private key given:\n%s", log)
	}
}

// server is the image's server running, however it runs.
type server struct {
	base    string       // http://host:port
	healthy func() error // the image's health check, until it passes
	log     func() string
	stop    func()
}

func run(ctx context.Context, podman []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, podman[0], append(slices.Clone(podman[1:]), args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("%s %s: %v: %s", podman[0], strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// inspect checks the image's configuration: the entrypoint, a user that is
// not root, the environment's listen address, the port, the health check.
func inspect(t *testing.T, podman []string, ref string) *imageConfig {
	out, err := run(context.Background(), podman, "image", "inspect", ref)
	if err != nil {
		t.Fatal(err)
	}
	var cfgs []imageConfig
	if err := json.Unmarshal([]byte(out), &cfgs); err != nil || len(cfgs) != 1 {
		t.Fatalf("image inspect: %v: %.300s", err, out)
	}
	cfg := &cfgs[0]
	c := cfg.Config
	if !slices.Equal(c.Entrypoint, []string{"omctl", "server"}) {
		t.Errorf("entrypoint %q, want [omctl server]", c.Entrypoint)
	}
	if user, _, _ := strings.Cut(c.User, ":"); user == "" || user == "0" || user == "root" {
		t.Errorf("user %q: the image must not run as root", c.User)
	}
	if !slices.Contains(c.Env, "OMCTL_SERVER_LISTEN=0.0.0.0:8080") || c.ExposedPorts["8080/tcp"] == nil {
		t.Errorf("env %q, ports %v: want OMCTL_SERVER_LISTEN=0.0.0.0:8080 and 8080/tcp", c.Env, c.ExposedPorts)
	}
	hc := cfg.Healthcheck
	if hc == nil {
		hc = c.Healthcheck
	}
	if hc == nil || len(hc.Test) < 4 || !slices.Equal(hc.Test[:4], []string{"CMD", "omctl", "server", "wait"}) {
		t.Errorf("health check %+v, want CMD omctl server wait", hc)
	}
	return cfg
}

// seedDir writes the seed where a container's user can read it.
func seedDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "omctl-test-image-seed-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	for name, text := range map[string]string{"stores.yaml": seedStore, "audit.key": "audit-secret\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runAttempts are the ways to run a container, tried in turn: as is; with
// limits lowered to what the process has (a sandbox without
// CAP_SYS_RESOURCE refuses podman's higher defaults); with runc, which
// runs where crun refuses cgroups in hybrid mode.
func runAttempts() [][]string {
	limits := []string{"--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024"}
	attempts := [][]string{nil, limits}
	if _, err := exec.LookPath("runc"); err == nil {
		attempts = append(attempts, append([]string{"--runtime", "runc"}, limits...))
	}
	return attempts
}

// runContainer runs the image as a CI service runs it, publishing 8080 on
// a free loopback port; nil when the machine runs no container.
func runContainer(t *testing.T, podman []string, ref, seed string) *server {
	ctx := context.Background()
	name := fmt.Sprintf("omctl-test-image-%d", os.Getpid())
	var why []string
	for _, extra := range runAttempts() {
		args := []string{"run", "-d", "--name", name, "-p", "127.0.0.1::8080", "-v", seed + ":/seed:ro"}
		for _, e := range serverEnv("/seed") {
			args = append(args, "-e", e)
		}
		args = append(append(args, extra...), ref)
		if _, err := run(ctx, podman, args...); err != nil {
			why = append(why, err.Error())
			run(ctx, podman, "rm", "-f", name)
			continue
		}
		srv := &server{
			// podman runs health checks on systemd timers, which a sandbox
			// may lack: run the image's check itself until it passes.
			healthy: func() error {
				return retry(ctx, func() error { _, err := run(ctx, podman, "healthcheck", "run", name); return err })
			},
			log: func() string {
				// The server logs on standard error: both streams.
				out, err := exec.Command(podman[0], append(slices.Clone(podman[1:]), "logs", name)...).CombinedOutput()
				if err != nil {
					return fmt.Sprintf("podman logs: %v: %s", err, out)
				}
				return string(out)
			},
			stop: func() { run(context.Background(), podman, "rm", "-f", name) },
		}
		port, err := run(ctx, podman, "port", name, "8080/tcp")
		if err != nil {
			srv.stop()
			t.Fatal(err)
		}
		srv.base = "http://" + strings.TrimSpace(strings.Split(port, "\n")[0])
		for _, w := range why {
			t.Logf("this machine refused: %s", w)
		}
		t.Logf("running the container (podman run %s) at %s", strings.Join(extra, " "), srv.base)
		return srv
	}
	t.Logf("this machine runs no container, so the image's filesystem is run instead:\n  %s", strings.Join(why, "\n  "))
	return nil
}

// runExported runs the image's entrypoint from its exported filesystem,
// with its environment, working directory and user (when the test may
// take it), and its health check the same way. Only the listen address
// differs: a free loopback port, since the machine's 8080 may be taken;
// inspect has checked the image's own.
func runExported(t *testing.T, podman []string, ref string, cfg *imageConfig, seed string) *server {
	ctx := context.Background()
	root := exportImage(ctx, t, podman, ref)
	listen := freeAddr(t)
	env := append(slices.Clone(cfg.Config.Env), serverEnv(seed)...)
	env = append(env, "OMCTL_SERVER_LISTEN="+listen, "HOME="+filepath.Join(root, "data"))
	command := func(argv []string) *exec.Cmd {
		cmd := exec.CommandContext(ctx, resolve(t, root, cfg.Config.Env, argv[0]), argv[1:]...)
		cmd.Env, cmd.Dir = env, filepath.Join(root, cfg.Config.WorkingDir)
		asImageUser(cmd, cfg.Config.User)
		return cmd
	}
	cmd := command(append(slices.Clone(cfg.Config.Entrypoint), cfg.Config.Cmd...))
	// The log is a file, which the test reads while the server writes it.
	log, err := os.CreateTemp(t.TempDir(), "server-*.log")
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Logf("running the image's entrypoint from its filesystem at %s", listen)
	hc := cfg.Healthcheck
	if hc == nil {
		hc = cfg.Config.Healthcheck
	}
	return &server{
		base: "http://" + listen,
		healthy: func() error {
			return retry(ctx, func() error {
				out, err := command(hc.Test[1:]).CombinedOutput()
				if err != nil {
					return fmt.Errorf("%v: %s", err, out)
				}
				return nil
			})
		},
		log: func() string {
			out, _ := os.ReadFile(log.Name())
			return string(out)
		},
		stop: func() {
			cmd.Process.Signal(syscall.SIGTERM)
			cmd.Wait()
			log.Close()
		},
	}
}

func exportImage(ctx context.Context, t *testing.T, podman []string, ref string) string {
	id, err := run(ctx, podman, "create", ref)
	if err != nil {
		t.Fatal(err)
	}
	defer run(context.Background(), podman, "rm", "-f", id)
	root, err := os.MkdirTemp("", "omctl-test-image-root-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	os.Chmod(root, 0o755)
	cmd := exec.CommandContext(ctx, podman[0], append(slices.Clone(podman[1:]), "export", id)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if err := untar(out, root); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	return root
}

// untar writes the files and directories of an exported filesystem under
// root, with their modes and, when the test may set them, their owners.
func untar(r io.Reader, root string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		path := filepath.Join(root, filepath.Clean("/"+h.Name))
		switch h.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(path, os.FileMode(h.Mode)&os.ModePerm)
		case tar.TypeReg:
			err = writeFile(path, tr, os.FileMode(h.Mode)&os.ModePerm)
		default:
			continue // the image has no links or devices
		}
		if err != nil {
			return err
		}
		os.Chmod(path, os.FileMode(h.Mode)&os.ModePerm)
		os.Lchown(path, h.Uid, h.Gid) // as root; else the test's user owns it
	}
}

func writeFile(path string, r io.Reader, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, r)
	return errors.Join(err, f.Close())
}

// resolve finds a command of the image as its PATH does, under root.
func resolve(t *testing.T, root string, env []string, name string) string {
	for _, kv := range env {
		if path, ok := strings.CutPrefix(kv, "PATH="); ok {
			for _, dir := range filepath.SplitList(path) {
				if st, err := os.Stat(filepath.Join(root, dir, name)); err == nil && st.Mode()&0o111 != 0 {
					return filepath.Join(root, dir, name)
				}
			}
		}
	}
	t.Fatalf("%s is not on the image's PATH", name)
	return ""
}

// asImageUser runs cmd as the image's numeric user when the test runs as
// root, as the container would.
func asImageUser(cmd *exec.Cmd, user string) {
	var uid, gid uint32
	if os.Getuid() != 0 {
		return
	}
	if _, err := fmt.Sscanf(user, "%d:%d", &uid, &gid); err == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: gid}}
	}
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// retry tries check every half second until it passes or 60 s pass.
func retry(ctx context.Context, check func() error) error {
	deadline := time.Now().Add(60 * time.Second)
	for {
		err := check()
		if err == nil || time.Now().After(deadline) || ctx.Err() != nil {
			return err
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// checkServer checks what a CI job relies on: health without
// credentials, the keys it chose, and the store the documents seeded.
func checkServer(t *testing.T, base string) {
	ctx := context.Background()
	res, err := http.Get(base + "/_omctl/health")
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("health: %v %v", err, res)
	}
	res.Body.Close()
	ci, _ := client.New(client.Options{BaseURL: base, PublicKey: "ci", PrivateKey: "ci-secret"})
	body, err := ci.Get(ctx, "/admin/backup/oplog/s3Configs", nil)
	var stores struct {
		Results []struct {
			ID               string `json:"id"`
			S3MaxConnections int    `json:"s3MaxConnections"`
		} `json:"results"`
	}
	if err != nil || json.Unmarshal(ci.Content(body), &stores) != nil || len(stores.Results) != 1 ||
		stores.Results[0].ID != "oplog-ci" || stores.Results[0].S3MaxConnections != 10 {
		t.Errorf("the oplog stores, as ci: %v %s", err, body)
	}
	audit, _ := client.New(client.Options{BaseURL: base, PublicKey: "audit", PrivateKey: "audit-secret"})
	if _, err := audit.Get(ctx, "/admin/backup/oplog/s3Configs/oplog-ci", nil); err != nil {
		t.Errorf("as audit, whose private key came from a file: %v", err)
	}
	if _, err := audit.Send(ctx, http.MethodPut, "/admin/backup/oplog/s3Configs/oplog-ci", map[string]any{"id": "oplog-ci"}); cmdutil.ExitCode(err) != cmdutil.ExitAuth {
		t.Errorf("a write as the read-only key: %v", err)
	}
	wrong, _ := client.New(client.Options{BaseURL: base, PublicKey: "ci", PrivateKey: "not-it"})
	if _, err := wrong.Get(ctx, "/orgs", nil); cmdutil.ExitCode(err) != cmdutil.ExitAuth {
		t.Errorf("with another private key: %v", err)
	}
}
