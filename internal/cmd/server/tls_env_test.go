package server

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/omctl/omctl/internal/client"
)

// With --tls-cert for localhost only, the env file's base URL names
// localhost (not 127.0.0.1, which the certificate does not cover) and
// carries OMCTL_CA_CERT, so that a job sourcing it connects.
func TestEnvFileOfTLSServerNamesACoveredHostAndTheCA(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: "localhost"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true, DNSNames: []string{"localhost"}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalECPrivateKey(key)
	dir := t.TempDir()
	certFile, keyFile, envFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem"), filepath.Join(dir, "omctl.env")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600)
	_, _, _, stop := start(t, &Options{Demo: true, TLSCert: certFile, TLSKey: keyFile, EnvFile: envFile})
	defer stop()
	data, err := os.ReadFile(envFile)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^export (\w+)='([^']*)'$`).FindAllStringSubmatch(string(data), -1) {
		env[m[1]] = m[2]
	}
	if !strings.HasPrefix(env["OMCTL_BASE_URL"], "https://localhost:") || env["OMCTL_CA_CERT"] != certFile {
		t.Fatalf("env file:\n%s", data)
	}
	c, err := client.New(client.Options{BaseURL: env["OMCTL_BASE_URL"], PublicKey: env["OMCTL_PUBLIC_KEY"], PrivateKey: env["OMCTL_PRIVATE_KEY"], CACertFile: env["OMCTL_CA_CERT"]})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(context.Background(), "/globalAlerts", nil); err != nil {
		t.Errorf("with the env file's settings: %v", err)
	}
}
