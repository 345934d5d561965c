package server

import (
	"context"
	"crypto/subtle"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the server's figures for Prometheus, at /metrics. Requests
// are counted by route pattern (routes.go), never by path, so a scan of
// random URLs cannot grow the series.
type metrics struct {
	registry    *prometheus.Registry
	requests    *prometheus.CounterVec
	duration    *prometheus.HistogramVec
	submissions *prometheus.CounterVec
	dbErrors    *prometheus.CounterVec
	token       string // METRICS_TOKEN: lets a scraper in from elsewhere than loopback
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
		dbErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "studio_database_errors_total", Help: "Database operations that failed, by operation.",
		}, []string{"operation"}),
	}
	m.registry.MustRegister(m.requests, m.duration, m.submissions, m.dbErrors,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// watchMailQueue adds the mail outbox's figures, read from the database
// at each scrape.
func (m *metrics) watchMailQueue(status func(context.Context) (pending, sent, failed int, err error)) {
	read := func(pick func(pending, failed int) int) func() float64 {
		return func() float64 {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			pending, _, failed, err := status(ctx)
			if err != nil {
				m.dbErrors.WithLabelValues("mail_status").Inc()
				return -1
			}
			return float64(pick(pending, failed))
		}
	}
	m.registry.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "studio_mail_queue_pending", Help: "Enquiry mails waiting to be sent (-1: the database did not answer)."},
			read(func(pending, _ int) int { return pending })),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "studio_mail_failed", Help: "Enquiry mails given up on after every retry (-1: the database did not answer)."},
			read(func(_, failed int) int { return failed })),
	)
}

// submission counts one enquiry or sign-up.
func (m *metrics) submission(form, outcome, reason string) {
	m.submissions.WithLabelValues(form, outcome, reason).Inc()
}

// instrument counts and times every request by the pattern the mux chose
// for it (ServeMux sets r.Pattern on the request it is given).
func (m *metrics) instrument(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		route := r.Pattern
		if route == "" {
			route = "none" // refused before routing (a malformed request)
		}
		m.requests.WithLabelValues(route, strconv.Itoa(rec.status)).Inc()
		m.duration.WithLabelValues(route).Observe(time.Since(start).Seconds())
	})
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
	const prefix = "Bearer "
	h := r.Header.Get("Authorization")
	if len(h) <= len(prefix) || h[:len(prefix)] != prefix {
		return "", false
	}
	return h[len(prefix):], true
}
