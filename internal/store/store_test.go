package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store/storetest"
)

// PostgresURLVar names the PostgreSQL database the store suite also runs
// against (.ci/run starts one and sets it).
const PostgresURLVar = storetest.URLVar

// eachStore runs test against a fresh SQLite database and a fresh
// PostgreSQL schema, the two at once. Without a PostgreSQL URL the second half is skipped,
// unless CI=true, where a missing half is a failure.
func eachStore(t *testing.T, test func(t *testing.T, s *Store)) {
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		test(t, newSQLite(t))
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		test(t, NewPostgresForTest(t))
	})
}

func newSQLite(t *testing.T) *Store {
	t.Helper()
	s, err := OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "studio.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// NewPostgresForTest opens the test PostgreSQL database in a schema of its
// own, dropped when the test ends.
func NewPostgresForTest(t testing.TB) *Store {
	t.Helper()
	s, err := OpenPostgres(context.Background(), storetest.PostgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

var t0 = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

func sample(kind enquiry.Kind, name string) enquiry.Enquiry {
	e := enquiry.Enquiry{Kind: kind, Name: name, Email: "asha@example.com", Phone: "+91 1", Message: "Hello\nthere", CreatedAt: t0}
	if kind != enquiry.Contact {
		e.ProductID, e.ProductName, e.Material, e.Finish = 1, "Marwar chair", "Wood", "Walnut"
	}
	return e
}

func TestEnquiries(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		var ids []int64
		for i, e := range []enquiry.Enquiry{sample(enquiry.Contact, "A"), sample(enquiry.Quote, "B"), sample(enquiry.Customize, "C")} {
			e.CreatedAt = t0.Add(time.Duration(i) * time.Minute)
			id, err := s.CreateEnquiry(ctx, e, false)
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		spam := sample(enquiry.Contact, "Bot")
		spam.Spam = true
		if _, err := s.CreateEnquiry(ctx, spam, false); err != nil {
			t.Fatal(err)
		}

		all, err := s.Enquiries(ctx, EnquiryFilter{})
		if err != nil {
			t.Fatal(err)
		}
		if names := enquiryNames(all); names != "C,B,A" {
			t.Errorf("inbox = %s, want newest first without spam: C,B,A", names)
		}
		got := all[1]
		want := sample(enquiry.Quote, "B")
		want.ID, want.CreatedAt, want.Status = ids[1], t0.Add(time.Minute), enquiry.New
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("stored\n %+v\nwant\n %+v", got, want)
		}
		if all[2].ProductID != 0 || all[2].ProductName != "" {
			t.Errorf("contact has a product: %+v", all[2])
		}

		quotes, _ := s.Enquiries(ctx, EnquiryFilter{Kind: enquiry.Quote})
		spamOnly, _ := s.Enquiries(ctx, EnquiryFilter{Spam: true})
		page, _ := s.Enquiries(ctx, EnquiryFilter{BeforeID: ids[2], Limit: 1})
		every, _ := s.Enquiries(ctx, EnquiryFilter{AllSpam: true})
		for _, c := range []struct{ got, want string }{
			{enquiryNames(quotes), "B"}, {enquiryNames(spamOnly), "Bot"}, {enquiryNames(page), "B"}, {enquiryNames(every), "Bot,C,B,A"},
		} {
			if c.got != c.want {
				t.Errorf("filtered = %s, want %s", c.got, c.want)
			}
		}

	})
}

func enquiryNames(list []enquiry.Enquiry) string {
	var names []string
	for _, e := range list {
		names = append(names, e.Name)
	}
	return strings.Join(names, ",")
}

func TestConcurrentWritesEachStoredOnce(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		var wg sync.WaitGroup
		ids := make(chan int64, 160)
		for c := 0; c < 16; c++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 10; i++ {
					e := sample(enquiry.Contact, fmt.Sprintf("%d-%d", c, i))
					e.Email = fmt.Sprintf("visitor-%d-%d@example.com", c, i) // each acknowledged: under the limit to one address
					id, err := s.CreateEnquiry(ctx, e, true)
					if err != nil {
						t.Error(err)
						return
					}
					ids <- id
				}
			}()
		}
		wg.Wait()
		close(ids)
		seen := map[int64]bool{}
		for id := range ids {
			if seen[id] {
				t.Errorf("id %d given twice", id)
			}
			seen[id] = true
		}
		all, err := s.Enquiries(ctx, EnquiryFilter{})
		if err != nil || len(all) != 160 || len(seen) != 160 {
			t.Errorf("stored %d, acknowledged %d, want 160 (%v)", len(all), len(seen), err)
		}
		// Each with its two mails, committed with it (on SQLite, in the batches of batch.go).
		if f, err := s.MailFigures(ctx); f.Pending != 320 || err != nil {
			t.Errorf("%d mails queued (%v), want 320: the studio's copy and the acknowledgement of each", f.Pending, err)
		}
	})
}

func TestSubscribe(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		for _, c := range []struct {
			email   string
			created bool
		}{{"Asha@Example.com", true}, {"asha@example.com", false}, {"ASHA@EXAMPLE.COM", false}, {"ravi@example.com", true}} {
			created, err := s.Subscribe(ctx, c.email, false, t0)
			if err != nil || created != c.created {
				t.Errorf("Subscribe(%q) = %v, %v; want %v", c.email, created, err, c.created)
			}
		}
		subs, err := s.Subscribers(ctx)
		if err != nil || len(subs) != 2 || subs[0].Email != "Asha@Example.com" || !subs[0].CreatedAt.Equal(t0) {
			t.Errorf("Subscribers = %+v, %v", subs, err)
		}
	})
}

func TestMailOutbox(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		id, err := s.CreateEnquiry(ctx, sample(enquiry.Quote, "Mailed"), true)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateEnquiry(ctx, sample(enquiry.Contact, "Not mailed"), false); err != nil {
			t.Fatal(err)
		}
		if due, _ := s.DueMails(ctx, t0.Add(-time.Second), 10); len(due) != 0 {
			t.Errorf("due before its time: %+v", due)
		}
		due, err := s.DueMails(ctx, t0, 10)
		if err != nil || len(due) != 2 || due[0].Enquiry.ID != id || due[0].Enquiry.ProductName != "Marwar chair" ||
			due[1].Enquiry.ID != id || due[0].Recipient != RecipientStudio || due[1].Recipient != RecipientVisitor {
			t.Fatalf("DueMails = %+v, %v; want the studio's copy, then the acknowledgement", due, err)
		}
		m, ack := due[0], due[1]
		// The acknowledgement goes at once; the studio's copy is tried below.
		if ok, err := s.ClaimMail(ctx, ack, t0.Add(time.Minute)); !ok || err != nil {
			t.Fatalf("claim of the acknowledgement = %v, %v", ok, err)
		}
		if err := s.MailSent(ctx, ack.ID, t0); err != nil {
			t.Fatal(err)
		}
		if ok, err := s.ClaimMail(ctx, m, t0.Add(time.Minute)); !ok || err != nil {
			t.Fatalf("first claim = %v, %v", ok, err)
		}
		if ok, _ := s.ClaimMail(ctx, m, t0.Add(time.Minute)); ok {
			t.Error("a mail was claimed twice")
		}
		if due, _ := s.DueMails(ctx, t0.Add(30*time.Second), 10); len(due) != 0 {
			t.Error("a claimed mail is due again before its lease ends")
		}
		if err := s.MailFailed(ctx, m.ID, "451 try later", t0.Add(2*time.Minute), false, t0); err != nil {
			t.Fatal(err)
		}
		due, _ = s.DueMails(ctx, t0.Add(2*time.Minute), 10)
		if len(due) != 1 || due[0].Attempts != 1 {
			t.Fatalf("after a failure: %+v", due)
		}
		if ok, _ := s.ClaimMail(ctx, due[0], t0.Add(3*time.Minute)); !ok {
			t.Fatal("claim after failure")
		}
		if err := s.MailSent(ctx, m.ID, t0); err != nil {
			t.Fatal(err)
		}
		if due, _ := s.DueMails(ctx, t0.Add(time.Hour), 10); len(due) != 0 {
			t.Error("a sent mail is still due")
		}
		// Both sent; one attempt failed, the second was accepted.
		if f, err := s.MailFigures(ctx); f != (MailFigures{Sent: 2, FailedAttempts: 1}) || err != nil {
			t.Errorf("figures = %+v, %v; want two sent after one failed attempt, nothing pending or given up", f, err)
		}
	})
}

func TestMigrationsAreAppliedOnce(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "studio.db")
	for i := 0; i < 2; i++ {
		s, err := OpenSQLite(context.Background(), path)
		if err != nil {
			t.Fatalf("open #%d: %v", i+1, err)
		}
		var n int
		s.read.QueryRow(`SELECT count(*) FROM schema_migrations`).Scan(&n)
		list, _ := s.migrations()
		if n != len(list) || n == 0 {
			t.Errorf("open #%d: %d versions recorded, want %d", i+1, n, len(list))
		}
		s.Close()
	}
}

func TestSQLiteIsDurable(t *testing.T) {
	t.Parallel()
	s := newSQLite(t)
	for pragma, want := range map[string]string{"journal_mode": "wal", "synchronous": "2", "busy_timeout": "10000"} {
		var got string
		if err := s.write.QueryRow("PRAGMA " + pragma).Scan(&got); err != nil || got != want {
			t.Errorf("PRAGMA %s = %q (%v), want %q", pragma, got, err, want)
		}
	}
}

func TestPing(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		if err := s.Ping(context.Background()); err != nil {
			t.Fatal(err)
		}
		s.Close()
		if err := s.Ping(context.Background()); err == nil {
			t.Error("ping of a closed store succeeded")
		}
	})
}

func TestCreateEnquiryRespectsContextAndClose(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := s.CreateEnquiry(ctx, sample(enquiry.Contact, "Gone"), false); !errors.Is(err, context.Canceled) {
			t.Errorf("with a cancelled context: %v, want context.Canceled", err)
		}
		if list, _ := s.Enquiries(context.Background(), EnquiryFilter{}); len(list) != 0 {
			t.Errorf("a cancelled enquiry was stored: %+v", list)
		}
		s.Close()
		done := make(chan error, 1)
		go func() {
			_, err := s.CreateEnquiry(context.Background(), sample(enquiry.Contact, "Late"), false)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil {
				t.Error("stored into a closed store")
			}
		case <-time.After(2 * time.Minute):
			t.Fatal("CreateEnquiry on a closed store hangs")
		}
	})
}

func TestCheckWrite(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		for i := range 2 { // the first write makes the row, the next ones rewrite it
			if err := s.CheckWrite(context.Background(), time.Now()); err != nil {
				t.Fatalf("write check #%d: %v", i+1, err)
			}
		}
		s.Close()
		if err := s.CheckWrite(context.Background(), time.Now()); err == nil {
			t.Error("write check on a closed store succeeded")
		}
	})
}

// A SQLite database that takes no writes (here: query_only, as a
// read-only file would be) fails the write check.
func TestCheckWriteFailsWhenSQLiteTakesNoWrites(t *testing.T) {
	t.Parallel()
	s := newSQLite(t)
	if _, err := s.write.Exec("PRAGMA query_only = ON"); err != nil {
		t.Fatal(err)
	}
	if err := s.CheckWrite(context.Background(), time.Now()); err == nil {
		t.Error("write check passed on a database that takes no writes")
	}
}

// PostgreSQL's placeholders are numbered; a ? in a quoted literal is text.
func TestPlaceholdersForPostgres(t *testing.T) {
	t.Parallel()
	s := &Store{dialect: Postgres}
	for query, want := range map[string]string{
		`SELECT a FROM t WHERE b = ? AND c = ?`:          `SELECT a FROM t WHERE b = $1 AND c = $2`,
		`SELECT '?' || ? FROM t WHERE d LIKE '%?%' OR ?`: `SELECT '?' || $1 FROM t WHERE d LIKE '%?%' OR $2`,
		`SELECT 'it''s ?', ?`:                            `SELECT 'it''s ?', $1`,
	} {
		if got := s.q(query); got != want {
			t.Errorf("q(%s) = %s, want %s", query, got, want)
		}
	}
	if got := (&Store{dialect: SQLite}).q(`SELECT ?`); got != `SELECT ?` {
		t.Errorf("SQLite query rewritten: %s", got)
	}
}
