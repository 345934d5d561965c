package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"studio/internal/enquiry"
	"studio/internal/store"
	"studio/internal/store/testdb"
)

// flakyStore is a real SQLite store whose enquiry writes fail while
// failing is set, and whose write check fails while checkFailing is set,
// as on a full disk.
type flakyStore struct {
	*store.Store
	failing, checkFailing atomic.Bool
	checks                atomic.Int32
}

func (f *flakyStore) CreateEnquiry(ctx context.Context, e enquiry.Enquiry, mail bool) (int64, error) {
	if f.failing.Load() {
		return 0, errors.New("database or disk is full")
	}
	return f.Store.CreateEnquiry(ctx, e, mail)
}

func (f *flakyStore) CheckWrite(ctx context.Context, now time.Time) error {
	f.checks.Add(1)
	if f.checkFailing.Load() {
		return errors.New("database or disk is full")
	}
	return f.Store.CheckWrite(ctx, now)
}

func status(h http.Handler, path string) int {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
	return w.Code
}

func readiness(t *testing.T, h http.Handler) (int, string) {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/readyz", nil))
	var body struct{ Reason string }
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatalf("readyz body %q: %v", w.Body, err)
	}
	return w.Code, body.Reason
}

// /readyz is its own check of the database, and nothing else: a failed
// request makes the next probe check at once, but only the check decides,
// so a request that fails can never turn readiness off by itself; and
// readiness comes back a second after the database does.
func TestReadinessIsItsOwnCheck(t *testing.T) {
	st := testdb.SQLite(t)
	flaky := &flakyStore{Store: st}
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	s, err := New(discardLog(), testBuild(), testCatalogue(t, 1), WithStore(flaky), WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	if code, reason := readiness(t, h); code != 200 {
		t.Fatalf("readyz = %d (%s) on a working database, want 200", code, reason)
	}

	// An enquiry fails, the database's own write check does not: ready.
	flaky.failing.Store(true)
	if w := post(h, "/api/enquiries", goodContact); w.Code != 503 {
		t.Fatalf("enquiry on a failing database = %d, want 503", w.Code)
	}
	checks := flaky.checks.Load()
	if code, reason := readiness(t, h); code != 200 {
		t.Errorf("readyz after one failed enquiry, the write check passing = %d (%s), want 200", code, reason)
	}
	if flaky.checks.Load() != checks+1 {
		t.Errorf("the probe after a failed write did not check the database again at once")
	}

	// The database refuses writes: the next probe says so at once, by name.
	flaky.checkFailing.Store(true)
	post(h, "/api/enquiries", goodContact)
	code, reason := readiness(t, h)
	if code != 503 || !strings.HasPrefix(reason, "database:") {
		t.Errorf("readyz with the database refusing writes = %d %q, want 503 naming the database", code, reason)
	}
	if got := status(h, "/healthz"); got != 200 {
		t.Errorf("healthz = %d, want 200", got)
	}

	// Back a second later.
	flaky.failing.Store(false)
	flaky.checkFailing.Store(false)
	now = now.Add(readyCheckEvery)
	if code, reason := readiness(t, h); code != 200 {
		t.Errorf("readyz %s after the database works again = %d (%s), want 200", readyCheckEvery, code, reason)
	}

	// A visitor who goes away mid-request, or input the database refused,
	// says nothing of the database: no check is forced.
	checks = flaky.checks.Load()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s.writeFailed("create_enquiry", ctx.Err())
	s.writeFailed("create_enquiry", &pgconn.PgError{Code: "22021", Message: "invalid byte sequence for encoding \"UTF8\": 0x00"})
	readiness(t, h)
	if flaky.checks.Load() != checks {
		t.Errorf("a cancelled request or refused input forced a database check")
	}

	// The write check itself fails on a closed database.
	st.Close()
	now = now.Add(readyCheckEvery)
	if code, reason := readiness(t, h); code != 503 || !strings.HasPrefix(reason, "database:") {
		t.Errorf("readyz with the database closed = %d %q, want 503 naming the database", code, reason)
	}
}

// Readiness fails when the disk of DATA_DIR is nearly full.
func TestReadinessWatchesTheDisk(t *testing.T) {
	var free atomic.Uint64
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	h, _ := newAPI(t, WithDataDir(t.TempDir()), WithClock(func() time.Time { return now }), func(s *Server) {
		s.health.freeBytes = func(string) (uint64, error) { return free.Load(), nil }
	})
	free.Store(10 << 30)
	if got := status(h, "/readyz"); got != 200 {
		t.Errorf("readyz with 10 GiB free = %d, want 200", got)
	}
	free.Store(minFreeBytes - 1)
	now = now.Add(readyCheckEvery)
	if got := status(h, "/readyz"); got != 503 {
		t.Errorf("readyz with less than %d bytes free = %d, want 503", minFreeBytes, got)
	}
}

// The real statfs reads something for a real directory.
func TestDiskFreeBytes(t *testing.T) {
	if free, err := diskFreeBytes(t.TempDir()); err != nil || free == 0 {
		t.Errorf("diskFreeBytes = %d, %v", free, err)
	}
}

// countingStore counts the readiness writes.
type countingStore struct {
	*store.Store
	writes atomic.Int32
}

func (c *countingStore) CheckWrite(ctx context.Context, now time.Time) error {
	c.writes.Add(1)
	return c.Store.CheckWrite(ctx, now)
}

// /readyz is public: a flood of probes makes one database write a second,
// not one each, so it cannot queue writes ahead of the enquiries.
func TestReadinessWritesAtMostOnceASecond(t *testing.T) {
	st := testdb.SQLite(t)
	counting := &countingStore{Store: st}
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	s, err := New(discardLog(), testBuild(), testCatalogue(t, 1), WithStore(counting), WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	for range 100 {
		if got := status(h, "/readyz"); got != 200 {
			t.Fatalf("readyz = %d", got)
		}
	}
	if n := counting.writes.Load(); n != 1 {
		t.Errorf("%d writes for 100 probes within a second, want 1", n)
	}
	now = now.Add(readyCheckEvery)
	status(h, "/readyz")
	if n := counting.writes.Load(); n != 2 {
		t.Errorf("%d writes after a second, want 2", n)
	}
}

// What the publisher reports is said by /readyz; while it holds the pages
// (no release of the studio's content can be served), pages answer 503
// rather than the embedded build's shipped content, and the API, the
// workspace and the probes go on answering.
func TestReadinessSaysWhatPublishingReported(t *testing.T) {
	s, err := New(discardLog(), testBuild(), testCatalogue(t, 1), WithStore(testdb.SQLite(t)))
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	readyz := func() (int, map[string]string) {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", "/readyz", nil))
		var body map[string]string
		json.Unmarshal(w.Body.Bytes(), &body)
		return w.Code, body
	}
	damaged := "the live release 20261128-201900-abcdef1 was damaged (content/catalogue.json (changed)); serving 20261128-191000-1234567 while main is rebuilt"
	s.Report(damaged, false)
	if code, body := readyz(); code != 200 || body["publishing"] != damaged || body["status"] != "ok" {
		t.Errorf("readyz with a damaged release replaced = %d %v, want 200 saying what happened", code, body)
	}
	if got := status(h, "/"); got != 200 {
		t.Errorf("the home page while another release serves = %d, want 200", got)
	}

	held := "no release of the content has been built yet; the pages answer 503 while main is rebuilt"
	s.Report(held, true)
	if code, body := readyz(); code != 503 || body["reason"] != "publishing: "+held {
		t.Errorf("readyz while the pages are held = %d %v, want 503 with the reason", code, body)
	}
	for _, path := range []string{"/", "/products", "/product/1"} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		if w.Code != 503 || w.Header().Get("Retry-After") == "" || !strings.Contains(w.Body.String(), "Back in a minute") {
			t.Errorf("%s while held = %d (Retry-After %q), want 503 with a page saying to come back", path, w.Code, w.Header().Get("Retry-After"))
		}
	}
	if got := status(h, "/assets/app-abc123.js"); got != 200 {
		t.Errorf("a script while held = %d, want 200: the code is not the content (the workspace shows its icon)", got)
	}
	if got := status(h, "/healthz"); got != 200 {
		t.Errorf("healthz while held = %d, want 200", got)
	}
	if w := post(h, "/api/enquiries", goodContact); w.Code != 201 {
		t.Errorf("an enquiry while the pages are held = %d, want 201: enquiries never wait on publishing", w.Code)
	}

	s.Report("", false)
	if code, body := readyz(); code != 200 || body["publishing"] != "" {
		t.Errorf("readyz once all is well = %d %v", code, body)
	}
	if got := status(h, "/"); got != 200 {
		t.Errorf("the home page once a release serves = %d, want 200", got)
	}
}
