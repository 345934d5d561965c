package server

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"studio/internal/store"
)

// /metrics counts requests by route pattern, and enquiries and sign-ups
// by outcome, as they happen.
func TestMetricsCount(t *testing.T) {
	st, err := store.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "studio.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s, err := New(slog.New(slog.NewTextHandler(io.Discard, nil)), testBuild(), testCatalogue(t, 1), WithStore(st), WithMailQueue(st.MailStatus))
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	get := func(path string) { h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path, nil)) }
	get("/")
	get("/no/such/page")
	get("/no/other/page")
	post(h, "/api/enquiries", goodContact)
	post(h, "/api/enquiries", `{"kind":"contact","name":"A","email":"a@b.in","message":"m","fillMs":300}`) // too fast: spam
	post(h, "/api/enquiries", `{"kind":"contact","name":"","email":"not an address","fillMs":5000}`)
	post(h, "/api/newsletter", `{"email":"a@b.in"}`)
	post(h, "/api/newsletter", `{"email":"a@b.in"}`, func(r *http.Request) { r.Header.Set("Content-Type", "text/plain") })

	m := s.metrics
	for _, c := range []struct {
		labels []string
		want   float64
	}{
		{[]string{"/{path...}", "200"}, 1},
		{[]string{"/{path...}", "404"}, 2}, // two paths, one series
		{[]string{"POST /api/enquiries", "201"}, 2},
		{[]string{"POST /api/enquiries", "422"}, 1},
		{[]string{"POST /api/newsletter", "201"}, 1},
		{[]string{"POST /api/newsletter", "415"}, 1},
	} {
		if got := testutil.ToFloat64(m.requests.WithLabelValues(c.labels...)); got != c.want {
			t.Errorf("requests%v = %v, want %v", c.labels, got, c.want)
		}
	}
	for _, c := range []struct {
		labels []string
		want   float64
	}{
		{[]string{"enquiry", "accepted", ""}, 1},
		{[]string{"enquiry", "spam", ""}, 1},
		{[]string{"enquiry", "rejected", "invalid"}, 1},
		{[]string{"newsletter", "accepted", ""}, 1},
		{[]string{"newsletter", "rejected", "content_type"}, 1},
	} {
		if got := testutil.ToFloat64(m.submissions.WithLabelValues(c.labels...)); got != c.want {
			t.Errorf("submissions%v = %v, want %v", c.labels, got, c.want)
		}
	}

	// The exposition itself, as a scraper on this machine reads it.
	r := httptest.NewRequest("GET", "/metrics", nil)
	r.RemoteAddr = "127.0.0.1:9000"
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	body := w.Body.String()
	for _, want := range []string{
		`studio_http_requests_total{code="404",route="/{path...}"} 2`,
		`studio_submissions_total{form="enquiry",outcome="spam",reason=""} 1`,
		`studio_mail_queue_pending 0`,
		`studio_http_request_duration_seconds_bucket{route="/{path...}",le="+Inf"} 3`,
		"go_goroutines ",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if strings.Contains(body, "/no/such/page") {
		t.Error("/metrics names a raw path")
	}
}

// /metrics answers a scraper on this machine, or one with the token; to
// anyone else, including a visitor relayed by a proxy on this machine, it
// does not exist.
func TestMetricsAccess(t *testing.T) {
	s, err := New(slog.New(slog.NewTextHandler(io.Discard, nil)), testBuild(), testCatalogue(t, 1), WithMetricsToken("s3cret-token"))
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	for _, c := range []struct {
		name, peer string
		header     map[string]string
		want       int
	}{
		{"loopback", "127.0.0.1:9000", nil, 200},
		{"loopback IPv6", "[::1]:9000", nil, 200},
		{"remote", "203.0.113.4:9000", nil, 404},
		{"remote with the token", "203.0.113.4:9000", map[string]string{"Authorization": "Bearer s3cret-token"}, 200},
		{"remote with a wrong token", "203.0.113.4:9000", map[string]string{"Authorization": "Bearer guess"}, 404},
		{"remote claiming loopback", "203.0.113.4:9000", map[string]string{"X-Forwarded-For": "127.0.0.1"}, 404},
		{"relayed by a local proxy", "127.0.0.1:9000", map[string]string{"X-Forwarded-For": "203.0.113.4"}, 404},
	} {
		r := httptest.NewRequest("GET", "/metrics", nil)
		r.RemoteAddr = c.peer
		for k, v := range c.header {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != c.want {
			t.Errorf("%s: %d, want %d", c.name, w.Code, c.want)
		}
	}
}
