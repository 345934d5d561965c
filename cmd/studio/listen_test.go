package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	pebbleca "github.com/letsencrypt/pebble/v2/ca"
	pebbledb "github.com/letsencrypt/pebble/v2/db"
	pebbleva "github.com/letsencrypt/pebble/v2/va"
	pebblewfe "github.com/letsencrypt/pebble/v2/wfe"
	"github.com/miekg/dns"
	"golang.org/x/crypto/acme"

	"studio/content"
	"studio/internal/config"
	"studio/internal/server"
	"studio/internal/sitecontent"
	"studio/web"
)

// DOMAIN set: the server gets a certificate from an ACME certificate
// authority by itself and serves the site over HTTPS with HSTS, and plain
// HTTP answers with a redirect. End to end against Pebble, Let's Encrypt's
// test authority, run in this process: it checks the HTTP-01 challenge on
// the server's HTTP listener, as Let's Encrypt would on port 80.
func TestCertificatesFromACME(t *testing.T) {
	t.Setenv("PEBBLE_VA_NOSLEEP", "1")      // validate at once
	t.Setenv("PEBBLE_WFE_NONCEREJECT", "0") // no deliberately bad nonces
	const domain = "www.studio.test"

	cat, err := sitecontent.Load(content.Files)
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	srv, err := server.New(quiet, web.Client(), cat)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Config{Domains: []string{domain}, HTTPAddr: "127.0.0.1:0", HTTPSAddr: "127.0.0.1:0", DataDir: t.TempDir()}
	client := &acme.Client{} // pointed at Pebble below, once its challenge port is known
	listeners, err := listen(cfg, srv.Handler(), log.New(io.Discard, "", 0), client)
	if err != nil {
		t.Fatal(err)
	}
	httpsAddr, httpAddr := listeners[0].Addr().String(), listeners[1].Addr().String()
	for _, l := range listeners {
		go func() {
			if err := l.serve(); !errors.Is(err, http.ErrServerClosed) {
				t.Errorf("serve %s: %v", l.Addr(), err)
			}
		}()
		t.Cleanup(func() { l.server.Close() })
	}

	// Pebble: its authority, its validator (which resolves every name to
	// this machine through a DNS server of the test's own, and fetches the
	// challenge from the server's HTTP port) and its ACME front end.
	pebbleLog := log.New(io.Discard, "", 0)
	store := pebbledb.NewMemoryStore()
	authority := pebbleca.New(pebbleLog, store, "", "ecdsa", 0, 1, map[string]pebbleca.Profile{"default": {Description: "default"}})
	validator := pebbleva.New(pebbleLog, listeners[1].Addr().(*net.TCPAddr).Port, 0, false, loopbackDNS(t), store)
	frontEnd := pebblewfe.New(pebbleLog, store, validator, authority, []string{"pebble.letsencrypt.org"}, false, false, 0, 0)
	acmeServer := httptest.NewTLSServer(frontEnd.Handler())
	t.Cleanup(acmeServer.Close)
	client.DirectoryURL = acmeServer.URL + pebblewfe.DirectoryPath
	client.HTTPClient = acmeServer.Client()

	// A browser that trusts Pebble's root and finds the domain here.
	roots := x509.NewCertPool()
	roots.AddCert(authority.GetRootCert(0).Cert)
	browser := &http.Client{
		Transport: &http.Transport{
			TLSClientConfig:   &tls.Config{RootCAs: roots},
			ForceAttemptHTTP2: true,
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				to := httpsAddr
				if _, port, _ := net.SplitHostPort(addr); port == "80" {
					to = httpAddr
				}
				return (&net.Dialer{}).DialContext(ctx, network, to)
			},
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}

	res, err := browser.Get("https://" + domain + "/")
	if err != nil {
		t.Fatalf("HTTPS with a certificate from the ACME server: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("GET / over HTTPS: %s", res.Status)
	}
	if got := res.TLS.PeerCertificates[0].DNSNames; len(got) != 1 || got[0] != domain {
		t.Errorf("certificate names %v, want [%s]", got, domain)
	}
	if res.Header.Get("Strict-Transport-Security") == "" {
		t.Error("no HSTS over HTTPS")
	}
	if res.ProtoMajor != 2 {
		t.Errorf("HTTPS spoke %s, want HTTP/2", res.Proto)
	}

	res, err = browser.Get("http://" + domain + "/products?x=1")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if loc := res.Header.Get("Location"); res.StatusCode/100 != 3 || loc != "https://"+domain+"/products?x=1" {
		t.Errorf("plain HTTP answered %s to %q, want a redirect to HTTPS", res.Status, loc)
	}
	if res.Header.Get("Strict-Transport-Security") != "" {
		t.Error("HSTS sent over plain HTTP")
	}

	// The certificate is kept in DATA_DIR, for the next start.
	if _, err := os.Stat(filepath.Join(cfg.DataDir, "certs", domain)); err != nil {
		t.Errorf("certificate not cached: %v", err)
	}
	// A name not in DOMAIN gets no certificate.
	if _, err := browser.Get("https://other.studio.test/"); err == nil {
		t.Error("a certificate for a name not in DOMAIN")
	}
}

// loopbackDNS serves DNS on loopback, over UDP and TCP (Pebble asks over
// TCP), answering 127.0.0.1 for every A question and nothing for the rest
// (no AAAA, no CAA records).
func loopbackDNS(t *testing.T) string {
	t.Helper()
	answer := dns.HandlerFunc(func(w dns.ResponseWriter, q *dns.Msg) {
		reply := new(dns.Msg)
		reply.SetReply(q)
		for _, question := range q.Question {
			if question.Qtype == dns.TypeA {
				reply.Answer = append(reply.Answer, &dns.A{
					Hdr: dns.RR_Header{Name: question.Name, Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 60},
					A:   net.IPv4(127, 0, 0, 1),
				})
			}
		}
		w.WriteMsg(reply)
	})
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	udp, err := net.ListenPacket("udp", tcp.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*dns.Server{{Listener: tcp, Handler: answer}, {PacketConn: udp, Handler: answer}} {
		go s.ActivateAndServe()
		t.Cleanup(func() { s.Shutdown() })
	}
	return tcp.Addr().String()
}
