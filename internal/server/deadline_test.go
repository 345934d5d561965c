package server

import (
	"bytes"
	"context"
	"database/sql"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"studio/internal/store"
	"studio/internal/store/storetest"
	"studio/internal/workspace"
	"studio/internal/workspace/accounts"
	"studio/internal/workspace/page"
)

// stallingProxy forwards TCP connections to a database until stall is
// called; from then on it holds every byte, as a network partition or a
// stopped database server would, until resume.
type stallingProxy struct {
	ln      net.Listener
	target  string
	mu      sync.Mutex
	stalled bool
	resumed *sync.Cond
}

func newStallingProxy(t *testing.T, target string) *stallingProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &stallingProxy{ln: ln, target: target}
	p.resumed = sync.NewCond(&p.mu)
	t.Cleanup(func() { p.resume(); ln.Close() })
	go func() {
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", target)
			if err != nil {
				client.Close()
				continue
			}
			go p.pipe(client, server)
			go p.pipe(server, client)
		}
	}()
	return p
}

func (p *stallingProxy) pipe(from, to net.Conn) {
	defer from.Close()
	defer to.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := from.Read(buf)
		p.mu.Lock()
		for p.stalled {
			p.resumed.Wait()
		}
		p.mu.Unlock()
		if n > 0 {
			if _, werr := to.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *stallingProxy) stall() { p.mu.Lock(); p.stalled = true; p.mu.Unlock() }

func (p *stallingProxy) resume() {
	p.mu.Lock()
	p.stalled = false
	p.mu.Unlock()
	p.resumed.Broadcast()
}

// stuckDatabase is a store whose database can be made to stop answering
// writes (and, for PostgreSQL, reads).
type stuckDatabase struct {
	name          string
	st            *store.Store
	stop, restart func()
}

func stuckDatabases(t *testing.T) []func(t *testing.T) stuckDatabase {
	sqlite := func(t *testing.T) stuckDatabase {
		path := filepath.Join(t.TempDir(), "studio.db")
		st, err := store.OpenSQLite(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		// Another process holding the write lock, as a backup tool or a
		// stuck disk would: every write waits (up to SQLite's busy timeout).
		other, err := sql.Open("sqlite", "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { other.Close() })
		var tx *sql.Conn
		return stuckDatabase{name: "sqlite", st: st,
			stop: func() {
				tx, err = other.Conn(context.Background())
				if err == nil {
					_, err = tx.ExecContext(context.Background(), "BEGIN IMMEDIATE")
				}
				if err != nil {
					t.Fatal(err)
				}
			},
			restart: func() { tx.ExecContext(context.Background(), "ROLLBACK"); tx.Close() },
		}
	}
	postgres := func(t *testing.T) stuckDatabase {
		u, err := url.Parse(storetest.PostgresURL(t))
		if err != nil {
			t.Fatal(err)
		}
		proxy := newStallingProxy(t, u.Host)
		u.Host = proxy.ln.Addr().String()
		st, err := store.OpenPostgres(context.Background(), u.String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return stuckDatabase{name: "postgres", st: st, stop: proxy.stall, restart: proxy.resume}
	}
	return []func(t *testing.T) stuckDatabase{sqlite, postgres}
}

// A database that stops answering gets every request that needs it a 503
// with Retry-After once DATABASE_TIMEOUT has passed, not a wait of its
// own; readiness says so, and says ready again once the database answers.
// An enquiry answered 503 and sent again is stored once.
func TestStuckDatabaseAnswers503WithinTheDeadline(t *testing.T) {
	const deadline = 300 * time.Millisecond
	for i, open := range stuckDatabases(t) {
		t.Run([]string{"sqlite", "postgres"}[i], func(t *testing.T) {
			db := open(t)
			hash, err := accounts.HashPassword(staffPassword)
			if err != nil {
				t.Fatal(err)
			}
			if err := db.st.CreateAccount(context.Background(), staffEmail, hash, time.Now()); err != nil {
				t.Fatal(err)
			}
			now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
			var clock sync.Mutex
			var logs lockedLog
			log := slog.New(slog.NewTextHandler(&logs, nil))
			ws := workspace.New(db.st, log, workspace.Options{Visitor: page.Visitor{
				IP: func(r *http.Request) string { return VisitorKey(r, nil) }, IsHTTPS: func(*http.Request) bool { return false }}})
			s, err := New(log, testBuild(), testCatalogue(t, 1, 2), WithStore(db.st), WithEvents(db.st), WithWorkspace(ws),
				WithDatabaseTimeout(deadline), WithClock(func() time.Time { clock.Lock(); defer clock.Unlock(); return now }))
			if err != nil {
				t.Fatal(err)
			}
			h := s.Handler()
			// A session made directly: signing in takes argon2's time, which
			// a deadline this short would not leave to the database.
			account, err := db.st.AccountByEmail(context.Background(), staffEmail)
			if err != nil {
				t.Fatal(err)
			}
			secret := accounts.NewSecret()
			if err := db.st.CreateSession(context.Background(), accounts.SecretHash(secret), account.ID, time.Now(), time.Now().Add(-time.Hour)); err != nil {
				t.Fatal(err)
			}
			cookie := &http.Cookie{Name: "studio", Value: secret}
			const enquiry = `{"kind":"contact","name":"Asha","email":"asha@example.com","message":"Hello","fillMs":5000,"idempotencyKey":"stuck-database-0001"}`
			if w := post(h, "/api/enquiries", `{"kind":"contact","name":"Ravi","email":"ravi@example.com","message":"Hi","fillMs":5000}`); w.Code != 201 {
				t.Fatalf("enquiry before = %d %s", w.Code, w.Body)
			}

			db.stop()
			requests := map[string]func() *httptest.ResponseRecorder{
				"an enquiry": func() *httptest.ResponseRecorder { return post(h, "/api/enquiries", enquiry) },
				"a sign-up":  func() *httptest.ResponseRecorder { return post(h, "/api/newsletter", `{"email":"asha@example.com"}`) },
				"a form": func() *httptest.ResponseRecorder {
					return postForm(h, "/api/newsletter", url.Values{"email": {"ravi@example.com"}})
				},
				"a studio note": func() *httptest.ResponseRecorder {
					return postForm(h, "/studio/enquiries/1/notes", url.Values{"note": {"Call back"}}, func(r *http.Request) { r.AddCookie(cookie) })
				},
			}
			if db.name == "postgres" { // SQLite's readers do not wait on its writer
				requests["the inbox"] = func() *httptest.ResponseRecorder {
					r := httptest.NewRequest("GET", "/studio", nil)
					r.AddCookie(cookie)
					w := httptest.NewRecorder()
					h.ServeHTTP(w, r)
					return w
				}
			}
			for what, do := range requests {
				before := logs.String()
				w := do()
				if w.Code != 503 || w.Header().Get("Retry-After") == "" {
					t.Errorf("%s on a stuck database = %d (Retry-After %q), want 503 with Retry-After", what, w.Code, w.Header().Get("Retry-After"))
				}
				// It was the deadline that ended the wait, not the
				// database's own time-outs (SQLite's 10 s busy timeout,
				// PostgreSQL's TCP ones): the error logged says so. How
				// soon is not asserted, as it depends on the machine.
				if logged := strings.TrimPrefix(logs.String(), before); !strings.Contains(logged, context.DeadlineExceeded.Error()) {
					t.Errorf("%s on a stuck database logged %q, want the deadline's error", what, logged)
				}
			}
			if code, reason := readiness(t, h); code != 503 || !strings.Contains(reason, "database") {
				t.Errorf("readyz with the database stuck = %d %q, want 503 naming the database", code, reason)
			}

			db.restart()
			clock.Lock()
			now = now.Add(readyCheckEvery)
			clock.Unlock()
			if code, reason := readiness(t, h); code != 200 {
				t.Errorf("readyz a second after the database answers again = %d (%s), want 200", code, reason)
			}
			if w := post(h, "/api/enquiries", enquiry); w.Code != 201 {
				t.Errorf("the enquiry sent again = %d %s, want 201", w.Code, w.Body)
			}
			all, err := db.st.Enquiries(context.Background(), store.EnquiryFilter{AllSpam: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(all) != 2 {
				t.Errorf("%d enquiries stored, want 2: the one before, and the one sent during the stall and again after, once", len(all))
			}
		})
	}
}

// lockedLog is a log's output that the server's goroutines may write
// while the test reads it.
type lockedLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
