// Package server is bin/studio's HTTP handler: the prerendered pages, the
// assets and, as they arrive, the API.
package server

import (
	"crypto/rand"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"studio/internal/enquiry"
	"studio/internal/ratelimit"
	"studio/internal/sitecontent"
	"studio/internal/store"
)

// notFoundPage is the home page's content prerendered through the
// catch-all route (web/app/lib/paths.ts, NOT_FOUND_PATH).
const notFoundPage = "__not-found/index.html"

// Server holds what the handlers need. Everything in it is read-only after
// New, so one Server serves any number of requests at once.
type Server struct {
	log      *slog.Logger
	content  *sitecontent.Content
	client   fs.FS                    // the client build
	files    map[string]*file         // its files held in memory, by path without the leading slash
	images   map[string]*streamedFile // its raster images, read from client on each request
	pages    map[string]*file         // prerendered pages by URL path: "/", "/products", ...
	notFound *file

	// The API and the inbox (options.go); without a store the API answers 503.
	store           Enquiries
	formTimer       *enquiry.FormTimer
	mail            bool
	wakeMail        func()
	trusted         []netip.Prefix
	workspace       Workspace
	now             func() time.Time
	crossOrigin     *http.CrossOriginProtection
	enquiryLimit    *ratelimit.Limiter
	newsletterLimit *ratelimit.Limiter
	eventStore      Events
	eventLimit      *ratelimit.Limiter
	eventCaps       store.EventCaps // events stored a day, in all and per address (zero: none)
	eventKey        []byte          // hashes an address for its cap (senderKey)
	salts           visitorSalts
	health          health
	metrics         *metrics
	dbTimeout       time.Duration // how long a request's database work may take
}

// New reads the client build into memory and checks that it matches the
// catalogue, so a stale build fails at start-up rather than in front of a
// visitor.
func New(log *slog.Logger, client fs.FS, content *sitecontent.Content, options ...Option) (*Server, error) {
	files, images, err := loadFiles(client)
	if err != nil {
		return nil, err
	}
	s := &Server{log: log, content: content, client: client, files: files, images: images, pages: make(map[string]*file),
		now: time.Now, dbTimeout: 3 * time.Second, crossOrigin: http.NewCrossOriginProtection(),
		enquiryLimit: ratelimit.New(enquiriesPerWindow, limitWindow), newsletterLimit: ratelimit.New(enquiriesPerWindow, limitWindow),
		eventLimit: ratelimit.New(eventBatchesPerWindow, eventWindow)}
	s.health.freeBytes = diskFreeBytes
	s.metrics = newMetrics()
	for _, o := range options {
		o(s)
	}
	if s.formTimer == nil {
		key := make([]byte, 32)
		rand.Read(key)
		s.formTimer = enquiry.NewFormTimer(key)
	}
	if s.eventKey == nil {
		s.eventKey = make([]byte, 32)
		rand.Read(s.eventKey)
	}
	for name, f := range files {
		switch {
		case name == notFoundPage:
			s.notFound = f
		case strings.HasPrefix(name, "_"):
			// build internals (the SPA fallback), not pages of their own
		case name == "index.html":
			s.pages["/"] = f
		case strings.HasSuffix(name, "/index.html"):
			s.pages["/"+strings.TrimSuffix(name, "/index.html")] = f
		}
	}
	policy := newContentPolicy(content)
	for name, f := range files {
		if strings.HasSuffix(name, ".html") {
			f.csp = []string{policy.forPage(f.scripts)}
		}
	}
	if s.notFound == nil || s.pages["/"] == nil {
		return nil, fmt.Errorf("server: the client build has no home page or %s: run make build", notFoundPage)
	}
	// Where a form sent without JavaScript leads (forms.go): pages of the
	// front end (web/app/lib/paths.ts, THANKS_PATHS).
	for _, p := range []string{thanksPath, newsletterThanksPath} {
		if s.pages[p] == nil {
			return nil, fmt.Errorf("server: the client build has no page %s: run make build", p)
		}
	}
	pagePaths := make([]string, 0, len(s.pages))
	for p, f := range s.pages {
		if !f.noindex {
			pagePaths = append(pagePaths, p)
		}
	}
	s.files["sitemap.xml"] = generatedFile("sitemap.xml", sitemap(content.Site.BaseURL, pagePaths))
	s.files["robots.txt"] = generatedFile("robots.txt", robotsTxt(content.Site.BaseURL))
	for _, p := range content.Products {
		if s.pages[productPath(p.ID)] == nil {
			return nil, fmt.Errorf("server: product %d is in the catalogue but has no prerendered page: run make build", p.ID)
		}
	}
	return s, nil
}

func productPath(id int) string {
	return "/product/" + strconv.Itoa(id)
}

// Handler is the whole site: every route, behind the middleware in the
// order a request passes through it: logged, given the security headers,
// counted, and kept from taking the server down if a handler panics.
func (s *Server) Handler() http.Handler {
	warning := &proxyWarning{log: s.log, trusted: s.trusted, now: time.Now}
	return chain(s.routes(), logRequests(s.log, s.trusted, warning), secureHeaders(s.trusted), s.metrics.instrument, recoverPanics(s.log))
}
