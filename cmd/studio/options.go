package main

import (
	"time"

	"context"
	"log/slog"
	"net/http"
	"sync"

	"studio/internal/config"
	"studio/internal/mail"
	"studio/internal/server"
	"studio/internal/sitecontent"
	"studio/internal/store"
	"studio/internal/workspace"
)

// serverOptions turns on the parts of the server the configuration asks
// for and starts their background work: the API and the studio's
// workspace always (the workspace is on once an account exists) with the
// insights' roll-ups, mail with SMTP settings (the studio's copy of each
// enquiry and the visitor's acknowledgement). The workspace's releases
// page shows and switches releases. stop ends the background work and
// waits for it.
func serverOptions(ctx context.Context, log *slog.Logger, cfg config.Config, siteContent *sitecontent.Content, st *store.Store, releases workspace.Releases) (options []server.Option, stop func()) {
	options = []server.Option{server.WithStore(st), server.WithTrustedProxies(cfg.TrustedProxies),
		server.WithMetricsToken(cfg.MetricsToken), server.WithMailQueue(st), server.WithDatabaseTimeout(cfg.DatabaseTimeout)}
	if cfg.DatabaseURL == "" {
		options = append(options, server.WithDataDir(cfg.DataDir)) // /readyz watches the SQLite disk's free space
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup

	if cfg.SMTP.Enabled() {
		to := cfg.SMTP.To
		if to == "" {
			to = siteContent.Site.Email
		}
		// The acknowledgement to the visitor takes the studio's name and
		// contact details from content/site.json and the reply time from
		// content/service.json, as the site's pages do.
		worker := mail.NewWorker(mail.Config{Host: cfg.SMTP.Host, Port: cfg.SMTP.Port, Username: cfg.SMTP.Username,
			Password: cfg.SMTP.Password, From: cfg.SMTP.From, To: to, Site: siteContent.Site, Service: siteContent.Service}, st, log)
		wg.Go(func() { worker.Run(ctx) })
		options = append(options, server.WithMail(worker.Wake))
		log.Info("mail: new enquiries are mailed to the studio and acknowledged to the visitor", "to", to, "smtp", cfg.SMTP.Host)
	} else {
		log.Info("mail off: SMTP_HOST is not set; enquiries are stored and shown in the inbox only")
	}

	// The site's own analytics: the days' counts are made from the events
	// every five minutes (workspace.Handler.RollUp), and events past
	// INSIGHTS_KEEP_DAYS are deleted.
	options = append(options, server.WithEvents(st))
	ws := workspace.New(st, log, workspaceOptions(cfg, siteContent, releases))
	wg.Go(func() { rollUpEvents(ctx, log, ws) })
	options = append(options, server.WithWorkspace(ws))
	return options, func() { cancel(); wg.Wait() }
}

// rollUpEvents makes the insights' counts now and then every five
// minutes, until ctx ends.
func rollUpEvents(ctx context.Context, log *slog.Logger, workspace *workspace.Handler) {
	tick := time.NewTicker(5 * time.Minute)
	defer tick.Stop()
	for {
		if err := workspace.RollUp(ctx); err != nil && ctx.Err() == nil {
			log.Error("insights: counting the events", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// workspaceOptions are the site's facts the workspace needs, and the
// publisher (a *publish.Publisher) its releases page shows.
func workspaceOptions(cfg config.Config, siteContent *sitecontent.Content, releases workspace.Releases) workspace.Options {
	opts := workspace.Options{
		Visitor: workspace.Visitor{
			IP:      func(r *http.Request) string { return server.VisitorKey(r, cfg.TrustedProxies) },
			IsHTTPS: func(r *http.Request) bool { return server.IsHTTPS(r, cfg.TrustedProxies) },
		},
		Location:        siteContent.Site.Location,
		KeepDays:        cfg.InsightsKeepDays,
		DatabaseTimeout: cfg.DatabaseTimeout,
		StudioPhone:     siteContent.Site.WhatsAppTel(),
		Releases:        releases,
	}
	for _, p := range siteContent.Products {
		opts.Products = append(opts.Products, workspace.Product{ID: p.ID, Name: p.Name})
	}
	return opts
}
