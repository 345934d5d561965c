package server

import (
	"net/netip"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store"

	"github.com/prometheus/client_golang/prometheus"
)

// WithStore turns the API on: enquiries and subscribers go to st.
func WithStore(st Enquiries) Option { return func(s *Server) { s.store = st } }

// WithEvents turns the site's own analytics on: POST /api/events keeps
// its events in st.
func WithEvents(st Events) Option { return func(s *Server) { s.eventStore = st } }

// WithMail says that enquiries are mailed to the studio: each non-spam
// enquiry is queued for mail with it, and wake is called after, so the
// mail worker does not wait for its next round.
func WithMail(wake func()) Option {
	return func(s *Server) { s.mail = true; s.wakeMail = wake }
}

// WithEventCaps caps the analytics events stored in a day, in all and from
// one address (INSIGHTS_MAX_EVENTS_PER_DAY and _PER_ADDRESS), and sets the
// key an address is hashed with for its count. Every copy of the server on
// one database must have the same key (store.Key gives it), to count an
// address once. Without this option nothing is capped, and each Server
// makes a random key of its own.
func WithEventCaps(perDay, perAddress int64, key []byte) Option {
	return func(s *Server) {
		s.eventCaps = store.EventCaps{PerDay: perDay, PerSender: perAddress}
		s.eventKey = key
	}
}

// WithFormKey sets the key that signs the time a visitor started a form
// (POST /api/form-start, enquiry.FormTimer). Every copy of the server on
// one database must have the same key (store.Key gives it); without this
// option each Server makes a random key of its own.
func WithFormKey(key []byte) Option {
	return func(s *Server) { s.formTimer = enquiry.NewFormTimer(key) }
}

// WithTrustedProxies names the reverse proxies whose X-Forwarded-For
// header is believed.
func WithTrustedProxies(p []netip.Prefix) Option { return func(s *Server) { s.trusted = p } }

// WithDataDir names the directory of the SQLite database, whose free
// space /readyz watches.
func WithDataDir(dir string) Option {
	return func(s *Server) { s.health.dataDir = dir }
}

// WithMetricsToken lets a scraper that sends "Authorization: Bearer
// token" read /metrics from elsewhere than this machine.
func WithMetricsToken(token string) Option { return func(s *Server) { s.metrics.token = token } }

// WithMailQueue adds the mail outbox's figures to /metrics.
func WithMailQueue(q MailQueue) Option {
	return func(s *Server) { s.metrics.watchMailQueue(q) }
}

// WithWorkspace serves the studio's workspace under /studio.
func WithWorkspace(w Workspace) Option { return func(s *Server) { s.workspace = w } }

// WithPreviews answers the requests the workspace says are previewing
// (Workspace.Previewing) with the draft's pages, which pages renders on
// request (draftpages.go).
func WithPreviews(pages DraftPages) Option {
	return func(s *Server) { s.drafts.pages = pages }
}

// WithClock replaces the clock, for tests.
func WithClock(now func() time.Time) Option { return func(s *Server) { s.now = now } }

// WithDatabaseTimeout sets how long a request's database work may take
// before the answer is 503 with Retry-After (DATABASE_TIMEOUT).
func WithDatabaseTimeout(d time.Duration) Option { return func(s *Server) { s.dbTimeout = d } }

// WithCollectors adds other parts' figures to /metrics (the publishing
// builder's warm renderer, its memory).
func WithCollectors(cs ...prometheus.Collector) Option {
	return func(s *Server) { s.metrics.registry.MustRegister(cs...) }
}
