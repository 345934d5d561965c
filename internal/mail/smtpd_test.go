package mail

import (
	"bufio"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// aiosmtpd is the real SMTP server of the mail tests: Debian's
// python3-aiosmtpd, run by testdata/smtpd.py. Unlike the small server of
// mail_test.go it holds the client to RFC 5321, and refuses a line over
// 1000 bytes, so an unfolded header fails the test.
type aiosmtpd struct {
	port int
	dir  string
}

// received is one message the server took, with its envelope.
type received struct {
	Raw      string
	MailFrom string   `json:"mail_from"`
	RcptTos  []string `json:"rcpt_tos"`
	TLS      bool     `json:"tls"`
	Auth     string   `json:"auth"`
}

// python3WithAiosmtpd finds a python3 that can import aiosmtpd: Debian's
// package installs it for /usr/bin/python3, which need not be the first
// python3 on PATH.
func python3WithAiosmtpd() string {
	candidates := []string{"/usr/bin/python3"}
	if p, err := exec.LookPath("python3"); err == nil {
		candidates = append(candidates, p)
	}
	for _, p := range candidates {
		if exec.Command(p, "-c", "import aiosmtpd").Run() == nil {
			return p
		}
	}
	return ""
}

type smtpdOptions struct {
	auth        string // "user:password": AUTH required
	certFile    string // with keyFile: STARTTLS offered
	keyFile     string
	implicitTLS bool // with certFile and keyFile: TLS from the start instead
	port        int  // 0: a free port
}

// startAiosmtpd starts the server, stopped when the test ends. Without
// python3-aiosmtpd the test is skipped, except under CI, where .ci/run
// installs it and its absence is a failure.
func startAiosmtpd(t *testing.T, opts smtpdOptions) *aiosmtpd {
	t.Helper()
	python := python3WithAiosmtpd()
	if python == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("python3-aiosmtpd is not installed: CI must run the mail tests against it (.ci/run installs it)")
		}
		t.Skip("python3-aiosmtpd is not installed (apt-get install python3-aiosmtpd); skipped outside CI")
	}
	dir := t.TempDir()
	args := []string{filepath.Join("testdata", "smtpd.py"), dir}
	if opts.auth != "" {
		args = append(args, "--auth", opts.auth)
	}
	if opts.certFile != "" {
		args = append(args, "--tls", opts.certFile, opts.keyFile)
	}
	if opts.implicitTLS {
		args = append(args, "--implicit-tls")
	}
	if opts.port != 0 {
		args = append(args, "--port", strconv.Itoa(opts.port))
	}
	cmd := exec.Command(python, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer // read only after Wait
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() && stderr.Len() > 0 {
			t.Logf("smtpd.py said:\n%s", stderr.String())
		}
	})
	ports := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		ports <- strings.TrimSpace(line)
	}()
	select {
	case line := <-ports:
		port, err := strconv.Atoi(line)
		if err != nil {
			t.Fatalf("smtpd.py did not say its port: %q", line)
		}
		return &aiosmtpd{port: port, dir: dir}
	case <-time.After(2 * time.Minute):
		t.Fatal("smtpd.py did not start")
	}
	return nil
}

// messages returns the messages taken so far, in the order they came.
func (s *aiosmtpd) messages(t *testing.T) []received {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(s.dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(names, func(i, j int) bool { return seq(names[i]) < seq(names[j]) })
	var list []received
	for _, name := range names {
		var r received
		b, err := os.ReadFile(name)
		if err == nil {
			err = json.Unmarshal(b, &r)
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		raw, err := os.ReadFile(strings.TrimSuffix(name, ".json") + ".eml")
		if err != nil {
			t.Fatal(err)
		}
		r.Raw = string(raw)
		list = append(list, r)
	}
	return list
}

func seq(name string) int {
	n, _ := strconv.Atoi(strings.TrimSuffix(filepath.Base(name), ".json"))
	return n
}

// selfSigned writes a certificate for 127.0.0.1 and its key, and returns
// them with a pool that trusts the certificate.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IsCA: true,
		BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// trusting is a TLS configuration for 127.0.0.1 that trusts pool.
func trusting(pool *x509.CertPool) *tls.Config {
	return &tls.Config{ServerName: "127.0.0.1", RootCAs: pool, MinVersion: tls.VersionTLS12}
}
