package server

import (
	"context"
	"crypto/ecdsa"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/client"
	"github.com/omctl/omctl/internal/cmdutil"
	"github.com/omctl/omctl/internal/iostreams"
	srv "github.com/omctl/omctl/internal/server"
)

// lockedBuffer lets the test read output while the server writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func start(t *testing.T, opts *Options) (baseURL string, out, errOut *lockedBuffer, stop func() error) {
	t.Helper()
	ios, _, _, _ := iostreams.Test()
	out, errOut = &lockedBuffer{}, &lockedBuffer{}
	ios.Out, ios.ErrOut = out, errOut
	opts.IO = ios
	if opts.Listen == "" {
		opts.Listen = "127.0.0.1:0"
	}
	ready := make(chan string, 1)
	opts.Ready = func(u string) { ready <- u }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, opts) }()
	select {
	case baseURL = <-ready:
	case err := <-done:
		cancel()
		t.Fatalf("server ended: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("server did not start")
	}
	return baseURL, out, errOut, func() error {
		cancel()
		return <-done
	}
}

func TestServerPrintsURLFirstAndStopsCleanly(t *testing.T) {
	envFile := filepath.Join(t.TempDir(), "omctl.env")
	base, out, errOut, stop := start(t, &Options{Demo: true, EnvFile: envFile, NonceTTL: time.Minute})
	if first := strings.SplitN(out.String(), "\n", 2)[0]; first != base || !strings.HasPrefix(base, "http://127.0.0.1:") || !strings.HasSuffix(base, "/api/public/v1.0") {
		t.Errorf("first line %q, base %q", first, base)
	}
	if !strings.Contains(errOut.String(), "demoowner      11111111-aaaa-4bbb-8ccc-000000000001  roles=GLOBAL_OWNER") {
		t.Errorf("banner = %q", errOut.String())
	}
	st, err := os.Stat(envFile)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("env file: %v %v", err, st)
	}
	env, _ := os.ReadFile(envFile)
	if !strings.Contains(string(env), "export OMCTL_BASE_URL='"+base+"'") || !strings.Contains(string(env), "export OMCTL_PRIVATE_KEY='11111111-aaaa-4bbb-8ccc-000000000001'") {
		t.Errorf("env file = %s", env)
	}
	c, _ := client.New(client.Options{BaseURL: base, PublicKey: "demoowner", PrivateKey: "11111111-aaaa-4bbb-8ccc-000000000001"})
	if _, err := c.Get(context.Background(), "/globalAlerts", nil); err != nil {
		t.Fatal(err)
	}
	if err := stop(); err != nil {
		t.Errorf("stop: %v", err)
	}
}

func TestSelfSignedTLSWorksWithCACert(t *testing.T) {
	base, _, errOut, stop := start(t, &Options{TLSSelfSigned: true})
	defer stop()
	if !strings.HasPrefix(base, "https://") {
		t.Fatalf("base = %s", base)
	}
	i := strings.Index(errOut.String(), "--ca-cert: ")
	if i < 0 {
		t.Fatalf("no CA path in %q", errOut.String())
	}
	caFile := strings.TrimSpace(strings.SplitN(errOut.String()[i+len("--ca-cert: "):], "\n", 2)[0])
	creds := strings.Fields(strings.SplitN(errOut.String(), "\n", 3)[1])
	c, _ := client.New(client.Options{BaseURL: base, PublicKey: creds[0], PrivateKey: creds[1], CACertFile: caFile})
	if _, err := c.Get(context.Background(), "/globalAlerts", nil); err != nil {
		t.Fatalf("with --ca-cert: %v", err)
	}
	plain, _ := client.New(client.Options{BaseURL: base, PublicKey: creds[0], PrivateKey: creds[1]})
	if _, err := plain.Get(context.Background(), "/globalAlerts", nil); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("without the CA: %v", err)
	}
}

func TestBadFixturesAndFlagsAreRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fx.json")
	os.WriteFile(path, []byte(`{"orgs":[{"id":"123"}]}`), 0o600)
	ios, _, _, _ := iostreams.Test()
	err := Run(context.Background(), &Options{Deps: cmdutil.Deps{IO: ios}, Listen: "127.0.0.1:0", FixturesFile: path})
	if err == nil || !strings.Contains(err.Error(), path+": orgs[0]: id 123 must be 24 hexadecimal digits") || cmdutil.ExitCode(err) != cmdutil.ExitUsage {
		t.Errorf("err = %v", err)
	}
	err = Run(context.Background(), &Options{Deps: cmdutil.Deps{IO: ios}, Listen: "127.0.0.1:0", Clock: "noon"})
	if err == nil || !strings.Contains(err.Error(), "invalid --clock") {
		t.Errorf("err = %v", err)
	}
}

func TestStateFileSurvivesRestart(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.json")
	base, _, _, stop := start(t, &Options{Demo: true, StateFile: state})
	c, _ := client.New(client.Options{BaseURL: base, PublicKey: "demoowner", PrivateKey: "11111111-aaaa-4bbb-8ccc-000000000001"})
	_, err := c.Send(context.Background(), "PATCH", "/groups/5e2b0c2e8f9d4b0012340001/alertConfigs/5f2a0c2e8f9d4b0000000001", map[string]bool{"enabled": false})
	if err != nil {
		t.Fatal(err)
	}
	stop()
	base, _, _, stop = start(t, &Options{StateFile: state})
	defer stop()
	c, _ = client.New(client.Options{BaseURL: base, PublicKey: "demoowner", PrivateKey: "11111111-aaaa-4bbb-8ccc-000000000001"})
	body, err := c.Get(context.Background(), "/groups/5e2b0c2e8f9d4b0012340001/alertConfigs", nil)
	if err != nil || !strings.Contains(string(body), `"enabled":false,"eventTypeName":"HOST_DOWN"`) {
		t.Errorf("after restart: %v %.300s", err, body)
	}
}

func TestServesHTTPSWithGivenCertificate(t *testing.T) {
	cert, certPEM, err := srv.SelfSignedCert()
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(cert.PrivateKey.(*ecdsa.PrivateKey))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile, caFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem"), filepath.Join(dir, "ca.pem")
	os.WriteFile(certFile, certPEM, 0o600)
	os.WriteFile(caFile, certPEM, 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600)
	base, _, _, stop := start(t, &Options{Demo: true, TLSCert: certFile, TLSKey: keyFile})
	defer stop()
	if !strings.HasPrefix(base, "https://") {
		t.Fatalf("base = %s", base)
	}
	c, _ := client.New(client.Options{BaseURL: base, PublicKey: "demoowner", PrivateKey: "11111111-aaaa-4bbb-8ccc-000000000001", CACertFile: caFile})
	if _, err := c.Get(context.Background(), "/globalAlerts", nil); err != nil {
		t.Fatalf("with the certificate's CA: %v", err)
	}
	ios, _, _, _ := iostreams.Test()
	err = Run(context.Background(), &Options{Deps: cmdutil.Deps{IO: ios}, Listen: "127.0.0.1:0", TLSCert: certFile, TLSKey: certFile})
	if err == nil || !strings.Contains(err.Error(), "loading --tls-cert/--tls-key") {
		t.Errorf("mismatched key: %v", err)
	}
}
