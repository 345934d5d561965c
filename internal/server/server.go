// Package server is bin/studio's HTTP handler: the prerendered pages, the
// assets and, as they arrive, the API.
package server

import (
	"context"
	"crypto/rand"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"syscall"
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
	log    *slog.Logger
	live   atomic.Pointer[release]          // the release that answers new requests (release.go)
	recent recentReleases                   // the releases last made, for an instant switch back (release.go)
	report atomic.Pointer[publishingReport] // what the publisher says went wrong (Report); nil when all is well
	drafts draftPages                       // the draft's pages rendered for the studio's preview (draftpages.go)

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

// What the server is given (options.go): the store's parts and the
// workspace, each by the few methods the handlers call. These, and the
// state below, are declared here beside Server, not with their handlers,
// so that server.go uses no file that uses it back (docs/layering_test.go).

// Enquiries is the storage the API needs (a *store.Store).
type Enquiries interface {
	CreateEnquiry(ctx context.Context, e enquiry.Enquiry, mail bool) (int64, error)
	Subscribe(ctx context.Context, email string, mail bool, at time.Time) (bool, error)
	CheckWrite(ctx context.Context, now time.Time) error
}

// Workspace is the studio's workspace (a *workspace.Handler), which
// serves /studio and everything under it (its routes are in
// internal/workspace). It is on once an account exists; until then those
// paths are the 404 page.
type Workspace interface {
	http.Handler
	On(ctx context.Context) (bool, error)
	// Previewing is the tree of the draft the request may see the site
	// as: a studio account's, signed in, that asked for it; "" for
	// everyone else, who see the live release.
	Previewing(r *http.Request) string
	// SignedIn says whether the request comes from a browser signed in to
	// the workspace: the studio's own visits, which the analytics leave out.
	SignedIn(r *http.Request) bool
}

// Events is the storage of analytics events (a *store.Store).
type Events interface {
	AddEvents(ctx context.Context, caps store.EventCaps, b store.EventBatch) (store.EventsAdded, error)
}

// Newsletter is what the links change on the list (a *store.Store).
type Newsletter interface {
	ConfirmSubscription(ctx context.Context, email string, at time.Time) error
	Unsubscribe(ctx context.Context, email string, at time.Time) error
}

// The state the handlers of one concern keep between requests.

// health is what /readyz remembers between probes. Readiness is its own
// check of the database and the disk, and nothing else: a request that
// failed, for its own input or for the database, never sets it; a
// database failure only makes the next probe check at once.
type health struct {
	dataDir   string // where the SQLite database lives; "" when there is none to watch (PostgreSQL)
	freeBytes func(dir string) (uint64, error)
	recheck   atomic.Bool // a request's database work failed: the next probe checks, whatever the time

	checkMu     sync.Mutex
	checkedAt   time.Time
	checkReason string // the last check's answer: "" when ready
}

// diskFreeBytes is the space left to an unprivileged writer in dir.
func diskFreeBytes(dir string) (uint64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return st.Bavail * uint64(st.Bsize), nil
}

// Option adds an optional part to the Server.
type Option func(*Server)

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
