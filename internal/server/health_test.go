package server

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store"
)

// flakyStore is a real SQLite store whose enquiry writes fail while
// failing is set, as on a full disk.
type flakyStore struct {
	*store.Store
	failing atomic.Bool
}

func (f *flakyStore) CreateEnquiry(ctx context.Context, e enquiry.Enquiry, mail bool) (int64, error) {
	if f.failing.Load() {
		return 0, errors.New("database or disk is full")
	}
	return f.Store.CreateEnquiry(ctx, e, mail)
}

func status(h http.Handler, path string) int {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
	return w.Code
}

// /readyz says 503 as soon as an enquiry fails to be stored, for
// writeFailureShows, and 200 again once writes work; /healthz (liveness)
// stays 200 throughout.
func TestReadinessFollowsFailedWrites(t *testing.T) {
	st, err := store.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "studio.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	flaky := &flakyStore{Store: st}
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	s, err := New(slog.New(slog.NewTextHandler(io.Discard, nil)), testBuild(), testCatalogue(t, 1), WithStore(flaky), WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	if got := status(h, "/readyz"); got != 200 {
		t.Fatalf("readyz = %d on a working database, want 200", got)
	}

	flaky.failing.Store(true)
	if w := post(h, "/api/enquiries", goodContact); w.Code != 500 {
		t.Fatalf("enquiry on a failing database = %d, want 500", w.Code)
	}
	flaky.failing.Store(false)
	if got := status(h, "/readyz"); got != 503 {
		t.Errorf("readyz right after a failed write = %d, want 503", got)
	}
	if got := status(h, "/healthz"); got != 200 {
		t.Errorf("healthz = %d, want 200", got)
	}
	now = now.Add(writeFailureShows)
	if got := status(h, "/readyz"); got != 200 {
		t.Errorf("readyz %s after the failure, writes working again = %d, want 200", writeFailureShows, got)
	}

	// A visitor who goes away mid-request is no failure of the database.
	r := httptest.NewRequest("POST", "/api/enquiries", nil)
	ctx, cancel := context.WithCancel(r.Context())
	cancel()
	s.writeFailed("create_enquiry", now, ctx.Err())
	if got := status(h, "/readyz"); got != 200 {
		t.Errorf("readyz after a cancelled request = %d, want 200", got)
	}

	// The write check itself fails on a database that takes no writes.
	st.Close()
	now = now.Add(readyCheckEvery)
	if got := status(h, "/readyz"); got != 503 {
		t.Errorf("readyz with the database closed = %d, want 503", got)
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
	st, err := store.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "studio.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	counting := &countingStore{Store: st}
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	s, err := New(slog.New(slog.NewTextHandler(io.Discard, nil)), testBuild(), testCatalogue(t, 1), WithStore(counting), WithClock(func() time.Time { return now }))
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
