package server

import (
	"context"
	"crypto/subtle"
	"maps"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"studio/internal/store"
)

// metrics are the server's figures for Prometheus, at /metrics. Requests
// are counted by route pattern (routes.go), never by path, so a scan of
// random URLs cannot grow the series.
type metrics struct {
	registry    *prometheus.Registry
	requests    *prometheus.CounterVec
	duration    *prometheus.HistogramVec
	submissions *prometheus.CounterVec
	invalid     *prometheus.CounterVec
	dbErrors    *prometheus.CounterVec
	// The site's own analytics (events.go): batches by outcome, events kept.
	analyticsBatches *prometheus.CounterVec
	analyticsEvents  prometheus.Counter
	// Events of accepted batches not stored, by reason.
	analyticsDroppedEvents *prometheus.CounterVec
	token                  string // METRICS_TOKEN: lets a scraper in from elsewhere than loopback

	// Each route pattern's and status code's series, by routeKey (route).
	routes   atomic.Pointer[map[routeKey]routeSeries]
	routesMu sync.Mutex // held to add to routes
}

func newMetrics() *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "studio_http_requests_total", Help: "HTTP requests answered, by route pattern and status code.",
		}, []string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "studio_http_request_duration_seconds", Help: "Time to answer an HTTP request, by route pattern.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"route"}),
		submissions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "studio_submissions_total",
			Help: "Enquiries and newsletter sign-ups, by form and outcome (accepted, spam, rejected) and, when rejected, why.",
		}, []string{"form", "outcome", "reason"}),
		invalid: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "studio_submission_invalid_fields_total",
			Help: "Fields found wrong in enquiries and sign-ups rejected as invalid, by form and field (one submission may count several).",
		}, []string{"form", "field"}),
		dbErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "studio_database_errors_total", Help: "Database operations that failed, by operation.",
		}, []string{"operation"}),
		analyticsBatches: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "studio_analytics_batches_total",
			Help: "Batches of analytics events sent to /api/events, by outcome: accepted, refused, not_collected (Global Privacy Control, a bot, or the studio's own signed-in browser).",
		}, []string{"outcome"}),
		analyticsEvents: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "studio_analytics_events_total", Help: "Analytics events kept.",
		}),
		analyticsDroppedEvents: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "studio_analytics_events_dropped_total",
			Help: "Analytics events of accepted batches not stored, by reason: daily_cap (the day's cap was reached), address_cap (the sender's address reached its cap for the day), duplicate_batch (the batch was stored before).",
		}, []string{"reason"}),
	}
	m.routes.Store(&map[routeKey]routeSeries{})
	// Each reason from the start, at zero, so an alert can compare with it.
	for _, reason := range []string{"daily_cap", "address_cap", "duplicate_batch"} {
		m.analyticsDroppedEvents.WithLabelValues(reason)
	}
	m.registry.MustRegister(m.requests, m.duration, m.submissions, m.invalid, m.dbErrors, m.analyticsBatches, m.analyticsEvents, m.analyticsDroppedEvents,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func (m *metrics) analyticsBatch(outcome string) { m.analyticsBatches.WithLabelValues(outcome).Inc() }

// analyticsDropped counts the events of a batch that were not stored.
func (m *metrics) analyticsDropped(a store.EventsAdded) {
	for reason, n := range map[string]int{"daily_cap": a.OverDay, "address_cap": a.OverSender, "duplicate_batch": a.Duplicate} {
		if n > 0 {
			m.analyticsDroppedEvents.WithLabelValues(reason).Add(float64(n))
		}
	}
}

// MailQueue is the mail outbox (a *store.Store).
type MailQueue interface {
	MailFigures(ctx context.Context) (store.MailFigures, error)
}

// mailCollector reads the outbox at each scrape, in one query. When the
// database does not answer, its series are left out (and the error
// counted) rather than given a made-up value.
type mailCollector struct {
	queue                      MailQueue
	dbErrors                   *prometheus.CounterVec
	pending, givenUp, failures *prometheus.Desc
}

func (m *metrics) watchMailQueue(q MailQueue) {
	m.registry.MustRegister(&mailCollector{queue: q, dbErrors: m.dbErrors,
		pending:  prometheus.NewDesc("studio_mail_queue_pending", "Enquiry mails waiting to be sent.", nil, nil),
		givenUp:  prometheus.NewDesc("studio_mail_failed", "Enquiry mails given up on after every retry.", nil, nil),
		failures: prometheus.NewDesc("studio_mail_send_failures_total", "Attempts to send an enquiry mail that the mail server did not accept (each retry counts).", nil, nil),
	})
}

func (c *mailCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.pending
	ch <- c.givenUp
	ch <- c.failures
}

func (c *mailCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	f, err := c.queue.MailFigures(ctx)
	if err != nil {
		c.dbErrors.WithLabelValues("mail_status").Inc()
		return
	}
	ch <- prometheus.MustNewConstMetric(c.pending, prometheus.GaugeValue, float64(f.Pending))
	ch <- prometheus.MustNewConstMetric(c.givenUp, prometheus.GaugeValue, float64(f.GivenUp))
	ch <- prometheus.MustNewConstMetric(c.failures, prometheus.CounterValue, float64(f.FailedAttempts))
}

// submission counts one enquiry or sign-up.
func (m *metrics) submission(form, outcome, reason string) {
	m.submissions.WithLabelValues(form, outcome, reason).Inc()
}

// invalidFields counts the fields that made a submission invalid. Their
// names come from the validation's fixed set (enquiry.Check), never from
// the request, and a piece's index is left out (items[].finish for
// items[7].finish), so the series stay few.
func (m *metrics) invalidFields(form string, fields map[string]string) {
	for field := range fields {
		m.invalid.WithLabelValues(form, itemIndex.ReplaceAllString(field, "[]")).Inc()
	}
}

var itemIndex = regexp.MustCompile(`\[[0-9]+\]`)

// instrument counts and times every request by the pattern the mux chose
// for it (ServeMux sets r.Pattern on the request it is given).
func (m *metrics) instrument(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := recordResponse(w) // the log's, begun when the request came in
		next.ServeHTTP(rec, r)
		status := rec.status
		if status == 0 {
			status = http.StatusOK
		}
		route := r.Pattern
		if route == "" {
			route = "none" // answered by the mux itself (a path it cleans and redirects) or refused before routing
		}
		o := m.route(route, status)
		o.requests.Inc()
		o.duration.Observe(time.Since(rec.start).Seconds())
	})
}

// routeKey and routeSeries: a route pattern and status code, and their
// series, looked up once (WithLabelValues hashes the labels and takes a
// lock at every call) and then kept.
type routeKey struct {
	route  string
	status int
}

type routeSeries struct {
	requests prometheus.Counter
	duration prometheus.Observer
}

// route is the series of a route pattern and status code. A request reads
// the map without a lock; a pair not seen before (at most a few dozen:
// the patterns of routes.go and the codes the handlers answer with, the
// same bound the series themselves have) copies it under one.
func (m *metrics) route(route string, status int) routeSeries {
	key := routeKey{route, status}
	if o, ok := (*m.routes.Load())[key]; ok {
		return o
	}
	m.routesMu.Lock()
	defer m.routesMu.Unlock()
	known := *m.routes.Load()
	if o, ok := known[key]; ok {
		return o
	}
	o := routeSeries{m.requests.WithLabelValues(route, strconv.Itoa(status)), m.duration.WithLabelValues(route)}
	next := maps.Clone(known)
	next[key] = o
	m.routes.Store(&next)
	return o
}

// handler serves /metrics to a scraper on this machine (the connection's
// own address, never a forwarded one), or with the bearer token; to
// anyone else it does not exist.
func (m *metrics) handler() http.Handler {
	exposition := promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !m.allowed(r) {
			http.NotFound(w, r)
			return
		}
		exposition.ServeHTTP(w, r)
	})
}

func (m *metrics) allowed(r *http.Request) bool {
	if ip, ok := peer(r); ok && ip.IsLoopback() && !forwarded(r) {
		return true
	}
	given, ok := bearerToken(r)
	return ok && m.token != "" && subtle.ConstantTimeCompare([]byte(given), []byte(m.token)) == 1
}

// forwarded: a request relayed by a proxy on this machine comes from
// loopback too, but from a visitor elsewhere.
func forwarded(r *http.Request) bool {
	_, xff := r.Header["X-Forwarded-For"]
	_, fwd := r.Header["Forwarded"]
	return xff || fwd
}

func bearerToken(r *http.Request) (string, bool) {
	// The scheme's name is case-insensitive (RFC 9110, 11.1).
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", false
	}
	return token, true
}
