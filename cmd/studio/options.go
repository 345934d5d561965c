package main

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"studio/internal/accountlink"
	"studio/internal/config"
	"studio/internal/datadir"
	"studio/internal/mail"
	"studio/internal/publish"
	"studio/internal/publish/build"
	"studio/internal/server"
	"studio/internal/sitecontent"
	"studio/internal/store"
	"studio/internal/workspace"
	"studio/internal/workspace/edit"
	"studio/internal/workspace/page"

	"github.com/prometheus/client_golang/prometheus"
)

// serverOptions turns on the parts of the server the configuration asks
// for and starts their background work: the API and the studio's
// workspace always (the workspace is on once an account exists) with the
// insights' roll-ups, mail with SMTP settings (the studio's copy of each
// enquiry and the visitor's acknowledgement). The workspace's releases
// page shows and switches the publisher's releases, and its previews of
// the draft are rendered by the publisher on request (draftPages). stop ends the background work and
// waits for it.
func serverOptions(ctx context.Context, log *slog.Logger, cfg config.Config, live *liveContent, st *store.Store, publisher *publish.Publisher, newsletterKey []byte) (options []server.Option, stop func()) {
	siteContent := live.embedded
	options = []server.Option{server.WithStore(st), server.WithTrustedProxies(cfg.TrustedProxies),
		server.WithMetricsToken(cfg.MetricsToken), server.WithMailQueue(st), server.WithDatabaseTimeout(cfg.DatabaseTimeout)}
	if cfg.DatabaseURL == "" {
		options = append(options, server.WithDataDir(cfg.DataDir)) // /readyz watches the SQLite disk's free space
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wsOptions := workspaceOptions(cfg, live, publisher)

	if cfg.SMTP.Enabled() {
		to := cfg.SMTP.To
		if to == "" {
			to = siteContent.Site.Email
		}
		// The acknowledgement to the visitor takes the studio's name and
		// contact details from site.json and the reply time from
		// service.json of the live release, as the site's pages do.
		worker := mail.NewWorker(mail.Config{Host: cfg.SMTP.Host, Port: cfg.SMTP.Port, Username: cfg.SMTP.Username,
			Password: cfg.SMTP.Password, From: cfg.SMTP.From, To: to, Live: live.get,
			AccountToken: accountlink.NewSigner(st).Token, LinkKey: newsletterKey, LinkBase: mailedLinksBase(ctx, log, cfg, st)}, st, log)
		wg.Go(func() { worker.Run(ctx) })
		options = append(options, server.WithMail(worker.Wake))
		wsOptions.WakeMail = worker.Wake // replies, invitations and password resets
		log.Info("mail: new enquiries are mailed to the studio and acknowledged to the visitor", "to", to, "smtp", cfg.SMTP.Host)
	} else {
		log.Info("mail off: SMTP_HOST is not set; enquiries are stored and shown in the inbox only, replies go from the studio's own mail program, and invitations and password resets wait in the outbox (meanwhile `studio user password EMAIL` sets a password)")
	}

	// The newsletter's links, and its sign-ups left unconfirmed for seven
	// days dropped every hour (Subscribe drops them too, but only when
	// someone signs up).
	options = append(options, server.WithNewsletter(st, newsletterKey))
	wg.Go(func() { dropUnconfirmed(ctx, log, st) })

	// The site's own analytics: the days' counts are made from the events
	// every five minutes (workspace.Handler.RollUp, package insights), and events past
	// INSIGHTS_KEEP_DAYS are deleted.
	options = append(options, server.WithEvents(st))
	ws := workspace.New(st, log, wsOptions)
	wg.Go(func() { rollUpEvents(ctx, log, ws) })
	options = append(options, server.WithWorkspace(ws), server.WithPreviews(draftPages{publisher}))
	if b, ok := publisher.Builder.(interface{ Metrics() prometheus.Collector }); ok {
		options = append(options, server.WithCollectors(b.Metrics()))
	}
	return options, func() { cancel(); wg.Wait() }
}

// mailedLinksBase is where the links in mails lead (a password reset's, an
// invitation's, the newsletter's, the inbox's), as the log says at start:
// PUBLIC_URL or DOMAIN, or else the address an owner last signed in to
// the workspace at (workspace.Handler.rememberAddress keeps it in the
// database, so a restart and every copy of the server know it). Never
// content's baseUrl, which staff can change in a draft. Nor the Host of
// the request that led to the mail: a reset is asked for, and an enquiry
// sent, by anyone, who may name any host.
func mailedLinksBase(ctx context.Context, log *slog.Logger, cfg config.Config, st *store.Store) func(context.Context) (string, error) {
	if base := cfg.MailedLinksBase(); base != "" {
		from := "PUBLIC_URL"
		if cfg.PublicURL == "" {
			from = "DOMAIN"
		}
		log.Info("mail: links in mails lead to "+base, "from", from)
		return func(context.Context) (string, error) { return base, nil }
	}
	now, err := st.SignInAddress(ctx)
	if err != nil || now == "" {
		now = "none yet: until an owner signs in, invitations, password resets and newsletter confirmations wait"
	}
	log.Warn("mail: PUBLIC_URL and DOMAIN are not set: links in mails lead to the address an owner last signed in to /studio at",
		"address", now)
	return st.SignInAddress
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
// publisher, whose releases its releases page shows, whose repository the
// Content section edits and which builds its previews. The time zone is the
// embedded content's: its pages' templates are made with it once.
func workspaceOptions(cfg config.Config, live *liveContent, publisher *publish.Publisher) workspace.Options {
	opts := workspace.Options{
		Visitor: page.Visitor{
			IP:      func(r *http.Request) string { return server.VisitorKey(r, cfg.TrustedProxies) },
			IsHTTPS: func(r *http.Request) bool { return server.IsHTTPS(r, cfg.TrustedProxies) },
		},
		Location:        live.embedded.Site.Location,
		KeepDays:        cfg.InsightsKeepDays,
		DatabaseTimeout: cfg.DatabaseTimeout,
		Facts:           live.workspaceFacts,
		Releases:        publisher,
		Previews:        publisher,
		// The Content section edits the repository the publisher builds,
		// checking each change with its builder.
		Content: publisher.Repo,
	}
	if b, ok := publisher.Builder.(*build.NodeBuilder); ok {
		opts.Builder, opts.Scratch = b, b.Scratch
	}
	// The photographs' files are made from the upload on (workspace.New asks).
	var _ edit.ImagePreparer = (*build.NodeBuilder)(nil)
	// A product's photographs wait for their form's save in a folder of
	// their own, which a restart keeps (the scratch folder it empties).
	opts.Uploads = datadir.Dir(cfg.DataDir).Uploads()
	return opts
}

// liveContent is the content of the release being served, for the parts
// made before the server (the mails, the workspace): the embedded content
// until the server exists, then its live release's.
type liveContent struct {
	embedded *sitecontent.Content
	server   atomic.Pointer[server.Server]

	mu    sync.Mutex
	from  *sitecontent.Content // the content facts was made from
	facts page.Facts
}

func (l *liveContent) get() *sitecontent.Content {
	if s := l.server.Load(); s != nil {
		return s.Content()
	}
	return l.embedded
}

// workspaceFacts is the live content as the workspace takes it, made once
// per release.
func (l *liveContent) workspaceFacts() page.Facts {
	s := l.server.Load()
	c := l.get()
	l.mu.Lock()
	defer l.mu.Unlock()
	// Made again with a new release, and once the server is there: the
	// pages' titles are its release's.
	if c != l.from || s != nil && l.facts.PageTitles == nil {
		facts := page.Facts{StudioPhone: c.Site.WhatsAppTel(), StudioName: c.Site.Name}
		for _, t := range c.ReplyTemplates {
			facts.ReplyTemplates = append(facts.ReplyTemplates, page.ReplyTemplate{Name: t.Name, Body: t.Body})
		}
		if s != nil {
			facts.PageTitles = s.PageTitles()
		}
		for _, p := range c.Products {
			facts.Products = append(facts.Products, page.Product{ID: p.ID, Name: p.Name})
		}
		l.from, l.facts = c, facts
	}
	return l.facts
}

// dropUnconfirmed drops the newsletter's unconfirmed sign-ups past their
// seven days now and then every hour, until ctx ends.
func dropUnconfirmed(ctx context.Context, log *slog.Logger, st *store.Store) {
	tick := time.NewTicker(time.Hour)
	defer tick.Stop()
	for {
		if err := st.DropUnconfirmed(ctx, time.Now()); err != nil && ctx.Err() == nil {
			log.Error("newsletter: dropping unconfirmed sign-ups", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
