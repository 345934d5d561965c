// Package server is bin/studio's HTTP handler: the prerendered pages, the
// assets and, as they arrive, the API.
package server

import (
	"crypto/rand"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"sync/atomic"
	"time"

	"studio/internal/enquiry"
	"studio/internal/ratelimit"
	"studio/internal/sitecontent"
	"studio/internal/store"
)

// Server holds what the handlers need. Everything in it is read-only after
// New but live, which Switch replaces whole, so one Server serves any
// number of requests at once.
type Server struct {
	log      *slog.Logger
	live     atomic.Pointer[release]          // the release that answers new requests (release.go)
	recent   recentReleases                   // the releases last made, for an instant switch back (release.go)
	report   atomic.Pointer[publishingReport] // what the publisher says went wrong (Report); nil when all is well
	previews previews                         // the preview last asked for by the studio (preview.go)

	// The API and the inbox (options.go); without a store the API answers 503.
	store           Enquiries
	formTimer       *enquiry.FormTimer
	mail            bool
	wakeMail        func()
	newsletter      Newsletter // the mailed links' changes (newsletter.go); nil: off
	newsletterKey   []byte
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
	builds          *buildMetrics // the publisher's builds (ObserveBuild) and the live release
	dbTimeout       time.Duration // how long a request's database work may take
}

// New makes the first release, "embedded", from the client build and the
// content, and checks that they match, so a stale build fails at start-up
// rather than in front of a visitor.
func New(log *slog.Logger, client fs.FS, content *sitecontent.Content, options ...Option) (*Server, error) {
	s := &Server{log: log,
		now: time.Now, dbTimeout: 3 * time.Second, crossOrigin: http.NewCrossOriginProtection(),
		enquiryLimit: ratelimit.New(enquiriesPerWindow, limitWindow), newsletterLimit: ratelimit.New(enquiriesPerWindow, limitWindow),
		eventLimit: ratelimit.New(eventBatchesPerWindow, eventWindow)}
	s.health.freeBytes = diskFreeBytes
	s.metrics = newMetrics()
	s.builds = s.metrics.watchBuilds()
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
	rel, err := s.makeRelease(embeddedRelease, client, content)
	if err != nil {
		return nil, err
	}
	s.live.Store(rel)
	s.recent.add(rel)
	s.builds.switched(rel.id)
	return s, nil
}

// Handler is the whole site: every route of the live release (serveLive),
// behind the middleware in the order a request passes through it: logged,
// given the security headers, counted, and kept from taking the server
// down if a handler panics.
func (s *Server) Handler() http.Handler {
	warning := &proxyWarning{log: s.log, trusted: s.trusted, now: time.Now}
	return chain(http.HandlerFunc(s.serveLive), logRequests(s.log, s.trusted, warning), secureHeaders(s.trusted), s.metrics.instrument, recoverPanics(s.log))
}
