package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"time"

	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"

	"studio/internal/config"
	"studio/internal/datadir"
)

// listener is one http.Server and where it serves.
type listener struct {
	server *http.Server
	net.Listener
	tls bool // serve with server.TLSConfig (HTTP/2 and HTTP/1.1)
}

func (l listener) serve() error {
	if l.tls {
		return l.server.ServeTLS(l.Listener, "", "")
	}
	return l.server.Serve(l.Listener)
}

// listen opens what the configuration asks for: plain HTTP on LISTEN_ADDR
// (behind a reverse proxy, or for trying it out), or, with DOMAIN, HTTPS
// on HTTPS_ADDR with certificates from the ACME directory (client), and
// on HTTP_ADDR the ACME challenges and a redirect to HTTPS. Certificates
// are kept in DATA_DIR/certs, so a restart does not ask for new ones.
func listen(cfg config.Config, site http.Handler, errorLog *log.Logger, client *acme.Client) ([]listener, error) {
	if len(cfg.Domains) == 0 {
		l, err := openListener("LISTEN_ADDR", cfg.ListenAddr)
		if err != nil {
			return nil, err
		}
		return []listener{{server: newHTTPServer(site, errorLog), Listener: l}}, nil
	}
	certs := &autocert.Manager{
		Prompt:     autocert.AcceptTOS,
		Cache:      autocert.DirCache(datadir.Dir(cfg.DataDir).Certificates()),
		HostPolicy: domainsOnly(cfg.Domains),
		Email:      cfg.ACMEEmail,
		Client:     client,
	}
	httpsListener, err := openListener("HTTPS_ADDR", cfg.HTTPSAddr)
	if err != nil {
		return nil, err
	}
	httpListener, err := openListener("HTTP_ADDR", cfg.HTTPAddr)
	if err != nil {
		httpsListener.Close()
		return nil, err
	}
	https := newHTTPServer(site, errorLog)
	https.TLSConfig = certs.TLSConfig()
	https.TLSConfig.MinVersion = tls.VersionTLS12
	// Port 80 answers the ACME challenges and sends everything else to
	// HTTPS (autocert's fallback redirects GET and HEAD).
	redirect := newHTTPServer(certs.HTTPHandler(nil), errorLog)
	return []listener{{server: https, Listener: httpsListener, tls: true}, {server: redirect, Listener: httpListener}}, nil
}

// domainsOnly is the policy of which names get certificates: those of
// DOMAIN, whatever port the request named (the challenge's Host carries
// one when HTTP_ADDR is not port 80).
func domainsOnly(domains []string) autocert.HostPolicy {
	listed := autocert.HostWhitelist(domains...)
	return func(ctx context.Context, host string) error {
		if name, _, err := net.SplitHostPort(host); err == nil {
			host = name
		}
		return listed(ctx, host)
	}
}

func newHTTPServer(h http.Handler, errorLog *log.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          errorLog,
	}
}

func openListener(setting, addr string) (net.Listener, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("cannot listen on %s (%s): %w", addr, setting, unwrapOpError(err))
	}
	return l, nil
}

// unwrapOpError keeps the reason ("address already in use") and drops the
// repeated "listen tcp :8080" prefix.
func unwrapOpError(err error) error {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err
	}
	return err
}
