package server

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"studio/internal/store"
	"studio/internal/store/testdb"
)

// /metrics, scraped over HTTP from this machine, counts requests by route
// pattern, enquiries and sign-ups by outcome and reason, and the mail
// outbox, as they happen.
func TestMetricsCount(t *testing.T) {
	st := testdb.SQLite(t)
	s, err := New(discardLog(), testBuild(), testCatalogue(t, 1),
		WithStore(st), WithMail(func() {}), WithMailQueue(st))
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	get := func(path string) { h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path, nil)) }
	get("/")
	get("/no/such/page")
	get("/no/other/page")
	post(h, "/api/enquiries", goodContact)
	post(h, "/api/enquiries", `{"kind":"contact","name":"A","email":"a@b.in","message":"m","started":"`+startForm(t, h)+`"}`) // too fast: spam
	post(h, "/api/enquiries", `{"kind":"contact","name":"","email":"not an address","message":"m","fillMs":5000}`)
	post(h, "/api/enquiries", goodContact, func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") })
	post(h, "/api/enquiries", `{"message":"`+strings.Repeat("x", maxBody)+`"}`)
	post(h, "/api/newsletter", `{"email":"a@b.in"}`)
	post(h, "/api/newsletter", `{"email":"a@b.in"}`, func(r *http.Request) { r.Header.Set("Content-Type", "text/plain") })

	// The accepted enquiry's mails (the studio's copy and the visitor's
	// acknowledgement) and the sign-up's confirmation: one attempt of the
	// first fails, so all three are pending.
	ctx := context.Background()
	due, err := st.DueMails(ctx, time.Now().Add(time.Minute), 10)
	if err != nil || len(due) != 3 {
		t.Fatalf("due mails: %d, %v; want the accepted enquiry's two and the confirmation", len(due), err)
	}
	if ok, err := st.ClaimMail(ctx, due[0], time.Now().Add(time.Minute)); !ok || err != nil {
		t.Fatalf("claim: %v %v", ok, err)
	}
	if err := st.MailFailed(ctx, due[0].ID, "451 try later", time.Now().Add(time.Minute), false, time.Now()); err != nil {
		t.Fatal(err)
	}

	srv := httptest.NewServer(h) // a scraper on this machine
	t.Cleanup(srv.Close)
	want := `
# HELP studio_http_requests_total HTTP requests answered, by route pattern and status code.
# TYPE studio_http_requests_total counter
studio_http_requests_total{code="200",route="/{path...}"} 1
studio_http_requests_total{code="404",route="/{path...}"} 2
studio_http_requests_total{code="201",route="POST /api/enquiries"} 2
studio_http_requests_total{code="403",route="POST /api/enquiries"} 1
studio_http_requests_total{code="413",route="POST /api/enquiries"} 1
studio_http_requests_total{code="422",route="POST /api/enquiries"} 1
studio_http_requests_total{code="202",route="POST /api/newsletter"} 1
studio_http_requests_total{code="415",route="POST /api/newsletter"} 1
studio_http_requests_total{code="200",route="POST /api/form-start"} 1
# HELP studio_submissions_total Enquiries and newsletter sign-ups, by form and outcome (accepted, spam, rejected) and, when rejected, why.
# TYPE studio_submissions_total counter
studio_submissions_total{form="enquiry",outcome="accepted",reason=""} 1
studio_submissions_total{form="enquiry",outcome="spam",reason=""} 1
studio_submissions_total{form="enquiry",outcome="rejected",reason="invalid"} 1
studio_submissions_total{form="enquiry",outcome="rejected",reason="cross_site"} 1
studio_submissions_total{form="enquiry",outcome="rejected",reason="too_large"} 1
studio_submissions_total{form="newsletter",outcome="accepted",reason=""} 1
studio_submissions_total{form="newsletter",outcome="rejected",reason="content_type"} 1
# HELP studio_submission_invalid_fields_total Fields found wrong in enquiries and sign-ups rejected as invalid, by form and field (one submission may count several).
# TYPE studio_submission_invalid_fields_total counter
studio_submission_invalid_fields_total{field="email",form="enquiry"} 1
studio_submission_invalid_fields_total{field="name",form="enquiry"} 1
# HELP studio_mail_queue_pending Enquiry mails waiting to be sent.
# TYPE studio_mail_queue_pending gauge
studio_mail_queue_pending 3
# HELP studio_mail_failed Enquiry mails given up on after every retry.
# TYPE studio_mail_failed gauge
studio_mail_failed 0
# HELP studio_mail_send_failures_total Attempts to send an enquiry mail that the mail server did not accept (each retry counts).
# TYPE studio_mail_send_failures_total counter
studio_mail_send_failures_total 1
`
	if err := testutil.ScrapeAndCompare(srv.URL+"/metrics", strings.NewReader(want),
		"studio_http_requests_total", "studio_submissions_total", "studio_submission_invalid_fields_total",
		"studio_mail_queue_pending", "studio_mail_failed", "studio_mail_send_failures_total"); err != nil {
		t.Error(err)
	}

	// The latency histogram, and the Go and process collectors.
	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	body := string(b)
	for _, want := range []string{
		`studio_http_request_duration_seconds_count{route="/{path...}"} 3` + "\n",
		`studio_http_request_duration_seconds_count{route="POST /api/enquiries"} 5` + "\n",
		`studio_http_request_duration_seconds_bucket{route="/{path...}",le="+Inf"} 3` + "\n",
		`studio_http_requests_total{code="200",route="GET /metrics"} 1` + "\n", // the first scrape
		"\ngo_goroutines ",
		"\nprocess_start_time_seconds ",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if strings.Contains(body, "/no/such/page") {
		t.Error("/metrics names a raw path")
	}
}

// A database that stops answering shows as errors by operation, and the
// mail figures are left out rather than made up.
func TestMetricsDatabaseErrors(t *testing.T) {
	st, err := store.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "studio.db"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(discardLog(), testBuild(), testCatalogue(t, 1), WithStore(st), WithMailQueue(st))
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	st.Close()
	if w := post(h, "/api/enquiries", goodContact); w.Code != http.StatusServiceUnavailable {
		t.Fatalf("enquiry on a closed database: %d, want 503", w.Code)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	body := string(b)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `studio_database_errors_total{operation="create_enquiry"} 1`+"\n") {
		t.Errorf("/metrics (%d) lacks the failed enquiry's database error:\n%s", resp.StatusCode, body)
	}
	for _, name := range []string{"studio_mail_queue_pending", "studio_mail_failed", "studio_mail_send_failures_total"} {
		if strings.Contains(body, "\n"+name+" ") {
			t.Errorf("/metrics gives %s from a database that does not answer", name)
		}
	}
	// Collectors run side by side, so the failed read may show in this
	// scrape or the next; the counter itself has it already.
	if got := testutil.ToFloat64(s.metrics.dbErrors.WithLabelValues("mail_status")); got != 1 {
		t.Errorf("database errors reading the mail queue = %v, want 1", got)
	}
}

// /metrics answers a scraper on this machine, or one with the token; to
// anyone else, including a visitor relayed by a proxy on this machine, it
// does not exist.
func TestMetricsAccess(t *testing.T) {
	s, err := New(discardLog(), testBuild(), testCatalogue(t, 1), WithMetricsToken("s3cret-token"))
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
		{"remote with the token's first half", "203.0.113.4:9000", map[string]string{"Authorization": "Bearer s3cret"}, 404},
		{"scheme in lower case", "203.0.113.4:9000", map[string]string{"Authorization": "bearer s3cret-token"}, 200},
		{"the token as Basic", "203.0.113.4:9000", map[string]string{"Authorization": "Basic s3cret-token"}, 404},
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

// Without METRICS_TOKEN, no Authorization header opens /metrics from
// elsewhere, an empty token least of all.
func TestMetricsWithoutToken(t *testing.T) {
	s, err := New(discardLog(), testBuild(), testCatalogue(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	for _, auth := range []string{"", "Bearer ", "Bearer  ", "Bearer x"} {
		r := httptest.NewRequest("GET", "/metrics", nil)
		r.RemoteAddr = "203.0.113.4:9000"
		r.Header.Set("Authorization", auth)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusNotFound {
			t.Errorf("Authorization %q from elsewhere: %d, want 404", auth, w.Code)
		}
	}
}
