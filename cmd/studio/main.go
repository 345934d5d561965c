// Command studio serves the studio's website: the prerendered pages, their
// assets and the API, from one binary.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
	_ "time/tzdata" // site.json's time zone, on a machine without /usr/share/zoneinfo

	"golang.org/x/crypto/acme"

	"studio/content"
	"studio/internal/config"
	"studio/internal/server"
	"studio/internal/sitecontent"
	"studio/internal/store"
	"studio/web"
)

func main() {
	if len(os.Args) > 1 {
		if err := command(os.Args[1:], os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "studio:", err)
			os.Exit(2)
		}
		return
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "studio:", err)
		os.Exit(1)
	}
}

func run() error {
	logOut := newLogWriter(os.Stdout, 250*time.Millisecond)
	defer logOut.Close()
	log := slog.New(slog.NewJSONHandler(logOut, nil))

	cfg, err := config.FromEnv(os.LookupEnv)
	if err != nil {
		return err
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	// One server per DATA_DIR; `studio restore` waits for it to stop.
	lock, err := store.LockDataDir(cfg.DataDir)
	if err != nil {
		return err
	}
	defer lock.Close()
	siteContent, err := sitecontent.Load(content.Files)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	st, err := store.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return err
	}
	defer st.Close()
	if cfg.StudioPassword != "" {
		if err := bootstrapAccount(ctx, st, cfg.StudioPassword); err != nil {
			return fmt.Errorf("STUDIO_PASSWORD: making the account studio: %w", err)
		}
		log.Info("studio: STUDIO_PASSWORD signs in to /studio as the account studio (type studio in the E-mail field)")
	}
	// The key that signs the forms' start times lives in the database, so
	// every copy of the server on it agrees, and a restart keeps it.
	formKey, err := st.Key(ctx, store.KeyFormStart)
	if err != nil {
		return err
	}
	// So is the key an address is hashed with for its analytics cap, so
	// copies count an address once, and a restart does not reset its count.
	eventKey, err := st.Key(ctx, store.KeyEventSender)
	if err != nil {
		return err
	}
	// And the key that signs the newsletter's links to confirm and to
	// unsubscribe, so a link mailed by one copy works on every other.
	newsletterKey, err := st.Key(ctx, store.KeyNewsletterLinks)
	if err != nil {
		return err
	}
	// The publisher is made first, for the workspace's releases page, and
	// started below, once the server it switches exists.
	publisher, err := newPublisher(ctx, log, cfg, st)
	if err != nil {
		return err
	}
	if publisher.Shared != nil {
		defer publisher.Shared.Close()
	}
	live := &liveContent{embedded: siteContent}
	options, stopWorkers := serverOptions(ctx, log, cfg, live, st, publisher, newsletterKey)
	defer stopWorkers()
	options = append(options, server.WithFormKey(formKey),
		server.WithEventCaps(cfg.InsightsMaxEventsPerDay, cfg.InsightsMaxEventsPerAddress, eventKey))

	srv, err := server.New(log, web.Client(), siteContent, options...)
	if err != nil {
		return err
	}
	// The live release replaces the embedded build before the first request.
	live.server.Store(srv)
	publisher.Target, publisher.Observe = srv, srv.ObserveBuild
	if err := publisher.Start(ctx); err != nil {
		return err
	}
	prepareBundles(ctx, log, publisher)

	listeners, err := listen(cfg, srv.Handler(), slog.NewLogLogger(log.Handler(), slog.LevelWarn), &acme.Client{DirectoryURL: cfg.ACMEDirectory})
	if err != nil {
		return err
	}
	serveErr := make(chan error, len(listeners))
	for _, l := range listeners {
		go func() { serveErr <- l.serve() }()
		log.Info("serving", "addr", l.Addr().String(), "tls", l.tls, "domains", cfg.Domains, "data_dir", cfg.AbsDataDir(),
			"products", len(siteContent.Products), "database", string(st.Dialect()))
	}
	if len(cfg.TrustedProxies) == 0 && len(cfg.Domains) == 0 {
		log.Info("TRUSTED_PROXIES is not set: X-Forwarded-For and X-Forwarded-Proto are ignored (set it to the reverse proxy's address when there is one)")
	}

	select {
	case err := <-serveErr:
		return err
	case <-ctx.Done():
	}
	stop() // a second signal ends the process at once
	log.Info("shutting down: finishing requests in flight")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for _, l := range listeners {
		if err := l.server.Shutdown(shutdownCtx); err != nil {
			return fmt.Errorf("shutdown: %w", err)
		}
	}
	for range listeners {
		if err := <-serveErr; !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	}
	// A build under way is stopped with its process group (ctx ended), not
	// left running after the server.
	publisher.Wait()
	log.Info("stopped")
	return nil
}
