package server

import (
	"bytes"
	"context"
	"database/sql"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"studio/internal/store"
	"studio/internal/store/storetest"
)

// eachEventStore runs test on a fresh SQLite database and a fresh
// PostgreSQL schema; raw reads the tables the store keeps to itself.
func eachEventStore(t *testing.T, test func(t *testing.T, st *store.Store, raw *sql.DB)) {
	open := func(t *testing.T, driver, dsn string, st *store.Store, err error) {
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		raw, err := sql.Open(driver, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { raw.Close() })
		test(t, st, raw)
	}
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "studio.db")
		st, err := store.OpenSQLite(context.Background(), path)
		open(t, "sqlite", "file:"+path, st, err)
	})
	t.Run("postgres", func(t *testing.T) {
		url := storetest.PostgresURL(t)
		st, err := store.OpenPostgres(context.Background(), url)
		open(t, "pgx", url, st, err)
	})
}

// newEventServer is a server keeping its analytics in events, on the clock
// now (UTC).
func newEventServer(t *testing.T, events Events, now *time.Time, options ...Option) *Server {
	t.Helper()
	s, err := New(discardLog(), testBuild(), testCatalogue(t, 1, 2),
		append([]Option{WithEvents(events), WithClock(func() time.Time { return *now })}, options...)...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func storedEvents(t *testing.T, raw *sql.DB) int {
	t.Helper()
	var n int
	if err := raw.QueryRow(`SELECT COUNT(*) FROM events`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// pageViews is a batch body of n page views under id.
func pageViews(id string, n int) string {
	views := make([]string, n)
	for i := range views {
		views[i] = `{"name":"page_view","path":"/","params":{}}`
	}
	return `{"batchId":"` + id + `","events":[` + strings.Join(views, ",") + `]}`
}

func dropped(s *Server, reason string) int {
	return int(testutil.ToFloat64(s.metrics.analyticsDroppedEvents.WithLabelValues(reason)))
}

// A batch the page sends again (the same batchId) is answered as before
// and stored once; its events count as duplicate_batch in /metrics.
func TestEventBatchSentAgainStoredOnce(t *testing.T) {
	eachEventStore(t, func(t *testing.T, st *store.Store, raw *sql.DB) {
		now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
		s := newEventServer(t, st, &now)
		h := s.Handler()
		first, again := pageViews("retried-batch-000000001", 3), pageViews("another-batch-000000002", 3)
		for i, body := range []string{first, first, first, again} {
			if code, e := sendEvents(h, body); code != http.StatusNoContent {
				t.Fatalf("batch %d: %d %+v", i, code, e)
			}
		}
		if n := storedEvents(t, raw); n != 6 {
			t.Errorf("%d events stored, want 6: each batch once", n)
		}
		if got := dropped(s, "duplicate_batch"); got != 6 {
			t.Errorf("duplicate_batch = %d, want 6 (two sends of three events again)", got)
		}
		w := httptest.NewRecorder()
		r := httptest.NewRequest("GET", "/metrics", nil)
		r.RemoteAddr = "127.0.0.1:9000"
		h.ServeHTTP(w, r)
		for _, line := range []string{
			`studio_analytics_events_dropped_total{reason="duplicate_batch"} 6`,
			`studio_analytics_events_dropped_total{reason="daily_cap"} 0`,
			`studio_analytics_events_total 6`,
		} {
			if !strings.Contains(w.Body.String(), line+"\n") {
				t.Errorf("/metrics lacks %s", line)
			}
		}
	})
}

// Over a cap, events are dropped and the batch still answered 204; the
// caps are a day's, per address (an IPv6 /64 is one), and shared by two
// copies of the server on one database; no address is stored.
func TestEventCapsDropWhatIsOver(t *testing.T) {
	eachEventStore(t, func(t *testing.T, st *store.Store, raw *sql.DB) {
		now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
		key := bytes.Repeat([]byte{9}, 32) // store.Key's, in production
		copies := []*Server{newEventServer(t, st, &now, WithEventCaps(10, 3, key)), newEventServer(t, st, &now, WithEventCaps(10, 3, key))}
		from := func(addr string) func(*http.Request) { return func(r *http.Request) { r.RemoteAddr = addr } }
		steps := []struct {
			name      string
			copy      int
			addr      string
			n         int
			nextDay   bool
			wantTotal int // events stored after it
		}{
			{"under the caps", 0, "203.0.113.7:1", 2, false, 2},
			{"the address's cap within the batch, on the other copy", 1, "203.0.113.7:2", 2, false, 3},
			{"at the address's cap", 0, "203.0.113.7:3", 1, false, 3},
			{"another address", 1, "198.51.100.9:1", 3, false, 6},
			{"an IPv6 address", 0, "[2001:db8:1:2::1]:1", 2, false, 8},
			{"another address of its /64, which shares its cap", 1, "[2001:db8:1:2::2]:1", 2, false, 9},
			{"the day's cap within the batch", 0, "[2001:db8:9::1]:1", 2, false, 10},
			{"at the day's cap", 1, "192.0.2.44:1", 1, false, 10},
			{"the next day, the first address again", 1, "203.0.113.7:4", 3, true, 13},
		}
		for i, step := range steps {
			if step.nextDay {
				now = now.Add(24 * time.Hour)
			}
			code, e := sendEvents(copies[step.copy].Handler(), pageViews(newBatchID(), step.n), from(step.addr))
			if code != http.StatusNoContent {
				t.Fatalf("%s: %d %+v; want 204 whatever is dropped", step.name, code, e)
			}
			if n := storedEvents(t, raw); n != step.wantTotal {
				t.Errorf("step %d, %s: %d events stored, want %d", i, step.name, n, step.wantTotal)
			}
		}
		if a, d := dropped(copies[0], "address_cap")+dropped(copies[1], "address_cap"), dropped(copies[0], "daily_cap")+dropped(copies[1], "daily_cap"); a != 3 || d != 2 {
			t.Errorf("dropped: address_cap %d, daily_cap %d; want 3 and 2", a, d)
		}
		rows, err := raw.Query(`SELECT scope FROM event_quotas`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var scope string
			rows.Scan(&scope)
			if strings.Contains(scope, "203.0.113") || strings.Contains(scope, "198.51") || strings.Contains(scope, "2001") || (scope != "*" && len(scope) != len("a:")+22) {
				t.Errorf("event_quotas scope %q: want a hash of the address, never the address", scope)
			}
		}
	})
}

// leaving is the store as a visitor closing the page sees it: the request's
// context ends just as the events are written.
type leaving struct {
	Events
	t     *testing.T
	leave context.CancelFunc
}

func (l *leaving) AddEvents(ctx context.Context, caps store.EventCaps, b store.EventBatch) (store.EventsAdded, error) {
	l.leave()
	if _, ok := ctx.Deadline(); !ok {
		l.t.Error("the events are written without a time limit")
	}
	return l.Events.AddEvents(ctx, caps, b)
}

// A batch the server accepted is stored even when the request is cancelled
// while it is written (the browser closed the page): the write is the
// server's, with its own time limit, not the request's.
func TestEventWriteOutlivesTheRequest(t *testing.T) {
	eachEventStore(t, func(t *testing.T, st *store.Store, raw *sql.DB) {
		now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
		ctx, leave := context.WithCancel(context.Background())
		defer leave()
		s := newEventServer(t, &leaving{Events: st, t: t, leave: leave}, &now)
		code, e := sendEvents(s.Handler(), pageViews(newBatchID(), 4), func(r *http.Request) { *r = *r.WithContext(ctx) })
		if ctx.Err() == nil {
			t.Fatal("the request was not cancelled")
		}
		if code != http.StatusNoContent {
			t.Errorf("status %d %+v, want 204", code, e)
		}
		if n := storedEvents(t, raw); n != 4 {
			t.Errorf("%d events stored, want the 4 of the batch whose request was cancelled", n)
		}
	})
}

// stuck is a database that does not answer until the caller gives up.
type stuck struct{ deadline time.Time }

func (s *stuck) AddEvents(ctx context.Context, _ store.EventCaps, _ store.EventBatch) (store.EventsAdded, error) {
	s.deadline, _ = ctx.Deadline()
	<-ctx.Done()
	return store.EventsAdded{}, ctx.Err()
}

// A database that does not answer within DATABASE_TIMEOUT: 503 with
// Retry-After, as for the other writes.
func TestEventWriteTimesOut(t *testing.T) {
	now := time.Now()
	db := &stuck{}
	s := newEventServer(t, db, &now, WithDatabaseTimeout(50*time.Millisecond))
	before := time.Now()
	w := post(s.Handler(), "/api/events", pageViews(newBatchID(), 1), agent(browserAgent))
	after := time.Now()
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "5" {
		t.Errorf("%d, Retry-After %q; want 503 with Retry-After: 5", w.Code, w.Header().Get("Retry-After"))
	}
	// The limit was set during the request, DATABASE_TIMEOUT from its
	// start: however slow the machine, it lies in this window.
	if earliest, latest := before.Add(50*time.Millisecond), after.Add(50*time.Millisecond); db.deadline.Before(earliest) || db.deadline.After(latest) {
		t.Errorf("the write's time limit was %v, want DATABASE_TIMEOUT (50ms) from the request, between %v and %v", db.deadline, earliest, latest)
	}
}
