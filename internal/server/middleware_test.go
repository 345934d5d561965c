package server

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestLogRequestsWritesOneStructuredLine(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, nil))
	h := logRequests(log, nil, &proxyWarning{log: log, now: time.Now})(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTeapot)
		w.Write([]byte("short and stout"))
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/pot?x=1", nil))

	var line struct {
		Msg    string `json:"msg"`
		Method string `json:"method"`
		Path   string `json:"path"`
		Status int    `json:"status"`
		Bytes  int    `json:"bytes"`
	}
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatalf("log line is not JSON: %q", buf.String())
	}
	if line.Msg != "request" || line.Method != "GET" || line.Path != "/pot" || line.Status != 418 || line.Bytes != 15 {
		t.Errorf("log line = %+v", line)
	}
}

func TestRecoverPanicsAnswers500(t *testing.T) {
	var buf bytes.Buffer
	h := recoverPanics(slog.New(slog.NewJSONHandler(&buf, nil)))(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic("boom")
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Code != http.StatusInternalServerError {
		t.Errorf("status = %d, want 500", rec.Code)
	}
	if !bytes.Contains(buf.Bytes(), []byte("boom")) {
		t.Errorf("the panic was not logged: %q", buf.String())
	}
}

// Behind a proxy the server knows of, the log names the visitor, and HSTS
// and the Secure cookie follow the visitor's scheme; from anyone else the
// forwarded headers are not believed.
func TestForwardedHeadersOnlyFromTrustedProxies(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.1/32")}
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, nil))
	h := chain(http.NotFoundHandler(), logRequests(log, trusted, &proxyWarning{log: log, trusted: trusted, now: time.Now}), secureHeaders(trusted))

	for _, tt := range []struct {
		name, peer string
		wantHSTS   bool
		wantRemote string
	}{
		{"trusted proxy", "10.0.0.1:4000", true, "203.0.113.9"},
		{"anyone else", "198.51.100.7:4000", false, "198.51.100.7"},
	} {
		buf.Reset()
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tt.peer
		r.Header.Set("X-Forwarded-For", "203.0.113.9")
		r.Header.Set("X-Forwarded-Proto", "https")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if got := w.Header().Get("Strict-Transport-Security") != ""; got != tt.wantHSTS {
			t.Errorf("%s: HSTS sent = %v, want %v", tt.name, got, tt.wantHSTS)
		}
		if got := IsHTTPS(r, trusted); got != tt.wantHSTS {
			t.Errorf("%s: IsHTTPS = %v, want %v", tt.name, got, tt.wantHSTS)
		}
		var line struct{ Msg, Remote, Peer string }
		for _, text := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
			if err := json.Unmarshal([]byte(text), &line); err != nil {
				t.Fatalf("%s: log: %v: %q", tt.name, err, text)
			}
			if line.Msg == "request" {
				break
			}
		}
		if line.Remote != tt.wantRemote || line.Peer != tt.peer {
			t.Errorf("%s: logged remote %q peer %q, want %q and %q", tt.name, line.Remote, line.Peer, tt.wantRemote, tt.peer)
		}
	}

	// Plain HTTP through the trusted proxy: no HSTS.
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "10.0.0.1:4000"
	r.Header.Set("X-Forwarded-Proto", "http")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Header().Get("Strict-Transport-Security") != "" {
		t.Error("HSTS sent for plain HTTP through the proxy")
	}
}

// X-Forwarded-For from an address not in TRUSTED_PROXIES is warned about
// once an hour, naming what to set; trusted proxies and plain requests
// are not.
func TestUntrustedProxyWarnedAtMostHourly(t *testing.T) {
	var buf bytes.Buffer
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	warning := &proxyWarning{log: slog.New(slog.NewJSONHandler(&buf, nil)), trusted: []netip.Prefix{netip.MustParsePrefix("10.0.0.1/32")}, now: func() time.Time { return now }}
	request := func(peer string, forwarded bool) {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = peer + ":5000"
		if forwarded {
			r.Header.Set("X-Forwarded-For", "203.0.113.9")
		}
		warning.check(r)
	}
	warnings := func() int { return strings.Count(buf.String(), "TRUSTED_PROXIES=172.16.0.2") }

	request("172.16.0.2", false)
	request("10.0.0.1", true)
	if buf.Len() != 0 {
		t.Fatalf("warned without cause: %s", buf.String())
	}
	for range 100 {
		request("172.16.0.2", true)
	}
	if warnings() != 1 {
		t.Fatalf("%d warnings for 100 requests in one moment, want 1: %s", warnings(), buf.String())
	}
	now = now.Add(59 * time.Minute)
	request("172.16.0.2", true)
	if warnings() != 1 {
		t.Fatalf("warned again after 59 minutes")
	}
	now = now.Add(time.Minute)
	request("172.16.0.2", true)
	if warnings() != 2 {
		t.Fatalf("%d warnings after an hour, want 2", warnings())
	}
}

// The middleware runs in the order it is listed.
func TestChainRunsInTheOrderListed(t *testing.T) {
	var order []string
	step := func(name string) Middleware {
		return func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				order = append(order, name)
				next.ServeHTTP(w, r)
			})
		}
	}
	h := chain(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { order = append(order, "handler") }), step("first"), step("second"))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	if got := strings.Join(order, " "); got != "first second handler" {
		t.Errorf("ran %q, want first, second, then the handler", got)
	}
}

// A request through the whole handler is logged in one line with the
// fields it always had, in their order, and counted once in the metrics,
// the log and the metrics sharing one record of the response.
func TestRequestLogLineAndCountThroughTheHandler(t *testing.T) {
	var buf bytes.Buffer
	s, err := New(slog.New(slog.NewJSONHandler(&buf, nil)), testBuild(), testCatalogue(t, 1, 2))
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest("GET", "/product/1", nil)
	r.RemoteAddr = "192.0.2.7:5100"
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, r)

	text := strings.TrimSpace(buf.String())
	if strings.Count(text, "\n") != 0 {
		t.Fatalf("want one line, got %q", text)
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var keys []string
	line := map[string]any{}
	dec.Token() // {
	for dec.More() {
		key, _ := dec.Token()
		var value any
		if err := dec.Decode(&value); err != nil {
			t.Fatalf("log line %q: %v", text, err)
		}
		keys = append(keys, key.(string))
		line[key.(string)] = value
	}
	if got, want := strings.Join(keys, " "), "time level msg method path status bytes duration_ms remote peer"; got != want {
		t.Errorf("log fields %q, want %q", got, want)
	}
	if _, err := time.Parse(time.RFC3339Nano, line["time"].(string)); err != nil {
		t.Errorf("time: %v", err)
	}
	want := map[string]any{"level": "INFO", "msg": "request", "method": "GET", "path": "/product/1", "status": json.Number("200"),
		"bytes": json.Number(strconv.Itoa(w.Body.Len())), "remote": "192.0.2.7", "peer": "192.0.2.7:5100"}
	for k, v := range want {
		if line[k] != v {
			t.Errorf("%s = %#v, want %#v", k, line[k], v)
		}
	}
	if ms, err := line["duration_ms"].(json.Number).Float64(); err != nil || ms < 0 {
		t.Errorf("duration_ms = %v, want a number of milliseconds", line["duration_ms"])
	}
	if n := testutil.ToFloat64(s.metrics.requests.WithLabelValues("GET /product/{id}", "200")); n != 1 {
		t.Errorf("counted %v times, want 1", n)
	}
	if n := testutil.CollectAndCount(s.metrics.duration); n != 1 {
		t.Errorf("%d duration series, want 1", n)
	}
}
