package store

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store/storetest"
)

// The person erased in the raw-file tests, with words found nowhere else.
const (
	rawEmail      = "wilhelmina.q7731@erase-test.example"
	rawName       = "Wilhelmina Quarrington-Xu"
	rawPhone      = "+44 7700 900613"
	rawMessage    = "ochre-velvet-settee-7731"
	rawItemNote   = "zqx-item-note-7731"
	rawStudioNote = "zqx-studio-note-7731"
	rawReply      = "zqx-reply-body-7731"
	rawFileName   = "zqx-quote-7731.pdf"
	rawFileWords  = "zqx-attachment-phrase-7731"
	keptEmail     = "ravi.kept8842@erase-test.example"
)

// rawSecrets are the strings of the erased person a raw file must not
// hold after the erasure.
var rawSecrets = []string{rawEmail, rawName, rawPhone, rawMessage, rawItemNote, rawStudioNote, rawReply, rawFileName, rawFileWords}

// fillPerson stores, as the studio would over a few days, everything the
// raw-file tests look for: a quote request with a piece's note, status
// changes (each rewrites the row), a studio's note, a reply with a PDF, a
// bounced acknowledgement and a newsletter sign-up; and one enquiry of
// another person, which must stay.
func fillPerson(t testing.TB, s *Store) {
	t.Helper()
	ctx := context.Background()
	quote := sample(enquiry.Quote, rawName)
	quote.Email, quote.Phone = rawEmail, rawPhone
	quote.Message = "I would like the " + rawMessage + " in a darker shade."
	quote.IdempotencyKey = "raw-test-key-" + rand.Text()
	quote.Items = []enquiry.Item{{ProductID: 1, ProductName: "Marwar chair", Quantity: 2, Note: rawItemNote}}
	id, err := s.CreateEnquiry(ctx, quote, true)
	must(t, err)
	kept := sample(enquiry.Contact, "Ravi Kept")
	kept.Email = keptEmail
	_, err = s.CreateEnquiry(ctx, kept, false)
	must(t, err)
	for i, status := range []enquiry.Status{enquiry.Quoted, enquiry.Won, enquiry.Archived} {
		must(t, s.SetStatus(ctx, id, status, "owner@studio.test", t0.Add(time.Duration(i)*time.Minute)))
	}
	must(t, s.AddNote(ctx, id, "owner@studio.test", rawStudioNote+": lives at 4 Lake Road", t0))
	// A PDF of random bytes (which no database compresses) with the
	// person's words in it every kilobyte or so.
	var pdf bytes.Buffer
	pdf.WriteString("%PDF-1.4\n% Quote for " + rawName + "\n")
	for range 12 {
		noise := make([]byte, 1000)
		rand.Read(noise)
		pdf.Write(noise)
		pdf.WriteString(rawFileWords)
	}
	_, err = s.AddReply(ctx, Reply{EnquiryID: id, Author: "owner@studio.test", To: rawEmail, Subject: "Your quote, " + rawName,
		Body: "Dear " + rawName + ", " + rawReply, FormKey: "raw-test-reply-" + rand.Text(), AttachmentName: rawFileName, Attachment: pdf.Bytes()}, t0)
	must(t, err)
	due, err := s.DueMails(ctx, t0.Add(time.Minute), 50)
	must(t, err)
	for _, m := range due {
		if m.Recipient == RecipientVisitor && m.Enquiry.ID == id {
			must(t, s.MailFailed(ctx, m.ID, "550 no mailbox <"+rawEmail+">", t0, true, t0))
		}
	}
	_, err = s.Subscribe(ctx, rawEmail, false, t0)
	must(t, err)
}

// found names the strings of want that data holds.
func found(data []byte, want []string) []string {
	var got []string
	for _, w := range want {
		if bytes.Contains(data, []byte(w)) {
			got = append(got, w)
		}
	}
	return got
}

// sqliteFiles reads the database file at path and its -wal and -shm
// files, as they are on disk, one after the other.
func sqliteFiles(t *testing.T, path string) []byte {
	t.Helper()
	var all []byte
	for _, name := range []string{path, path + "-wal", path + "-shm"} {
		b, err := os.ReadFile(name)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	return all
}

// An erasure leaves none of the person's data in studio.db or its WAL,
// not even in free space: the bytes on disk are searched. Before the
// erasure the same search finds every string, so it can see them.
func TestErasureLeavesNothingInTheSQLiteFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "studio.db")
	s, err := OpenSQLite(context.Background(), path)
	must(t, err)
	defer s.Close()
	fillPerson(t, s)
	if got := found(sqliteFiles(t, path), rawSecrets); len(got) != len(rawSecrets) {
		t.Fatalf("before the erasure the search finds only %q of %q", got, rawSecrets)
	}
	if n, err := s.ErasePerson(context.Background(), rawEmail, "owner@studio.test", t0.Add(time.Hour)); n != 1 || err != nil {
		t.Fatalf("ErasePerson = %d, %v; want 1", n, err)
	}
	data := sqliteFiles(t, path)
	if got := found(data, rawSecrets); len(got) != 0 {
		t.Errorf("after the erasure the database files still hold %q", got)
	}
	if !bytes.Contains(data, []byte(keptEmail)) {
		t.Errorf("another person's address is gone from the database files")
	}
}

// A database written before erasures overwrote what they remove (without
// secure_delete) holds old copies of a row in free space: an erasure
// removes those too.
func TestErasureClearsOldCopiesInTheSQLiteFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "studio.db")
	s, err := OpenSQLite(context.Background(), path)
	must(t, err)
	fillPerson(t, s)
	must(t, s.Close())
	// More changes, made the way they were before: each leaves the old
	// row's bytes in the page's free space.
	old, err := sql.Open("sqlite", "file:"+path+"?_pragma=secure_delete(OFF)")
	must(t, err)
	for _, status := range []string{"new", "quoted", "won", "archived"} {
		_, err := old.Exec(`UPDATE enquiries SET status = ? WHERE email = ?`, status, rawEmail)
		must(t, err)
	}
	_, err = old.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
	must(t, err)
	must(t, old.Close())
	if n := bytes.Count(sqliteFiles(t, path), []byte(rawPhone)); n < 2 {
		t.Fatalf("the file holds the phone number %d times; want old copies beside the row", n)
	}

	s, err = OpenSQLite(context.Background(), path)
	must(t, err)
	defer s.Close()
	if n, err := s.ErasePerson(context.Background(), rawEmail, "owner@studio.test", t0.Add(time.Hour)); n != 1 || err != nil {
		t.Fatalf("ErasePerson = %d, %v; want 1", n, err)
	}
	if got := found(sqliteFiles(t, path), rawSecrets); len(got) != 0 {
		t.Errorf("after the erasure the database files still hold %q", got)
	}
}

// Between erasures, SQLite overwrites what is deleted (secure_delete): a
// deleted enquiry's row is zeros in the file once its pages are
// checkpointed, which SQLite does by itself as the WAL grows (the test
// asks for it at once).
func TestDeletedEnquiryIsZeroedInTheSQLiteFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "studio.db")
	s, err := OpenSQLite(context.Background(), path)
	must(t, err)
	defer s.Close()
	ctx := context.Background()
	e := sample(enquiry.Contact, rawName)
	e.Email, e.Phone, e.Message = rawEmail, rawPhone, rawMessage
	id, err := s.CreateEnquiry(ctx, e, false)
	must(t, err)
	kept := sample(enquiry.Contact, "Ravi Kept")
	kept.Email = keptEmail
	_, err = s.CreateEnquiry(ctx, kept, false)
	must(t, err)
	checkpoint := func() {
		t.Helper()
		_, err := s.write.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
		must(t, err)
	}
	checkpoint()
	secrets := []string{rawEmail, rawName, rawPhone, rawMessage}
	if got := found(sqliteFiles(t, path), secrets); len(got) != len(secrets) {
		t.Fatalf("before the deletion the search finds only %q of %q", got, secrets)
	}
	must(t, s.DeleteEnquiry(ctx, id, "owner@studio.test", t0))
	checkpoint()
	data := sqliteFiles(t, path)
	if got := found(data, secrets); len(got) != 0 {
		t.Errorf("after the deletion the database file still holds %q", got)
	}
	if !bytes.Contains(data, []byte(keptEmail)) {
		t.Errorf("another person's address is gone from the database file")
	}
}

// On PostgreSQL the files are the server's: the pages of the store's
// tables, their indexes and TOAST tables are read raw (pageinspect's
// get_raw_page, free space included) and searched. It needs the
// pageinspect extension (PostgreSQL's contrib, in Debian's postgresql
// package) and a superuser, as the test database has. The store has a
// database of its own: VACUUM FULL keeps the old row versions that a
// transaction open in the database, here another test's, may still see.
func TestErasureLeavesNothingInThePostgreSQLPages(t *testing.T) {
	t.Parallel()
	s := openOwnPostgres(t)
	ctx := context.Background()
	fillPerson(t, s)
	pages := rawPages(t, s)
	if got := found(pages(), rawSecrets); len(got) != len(rawSecrets) {
		t.Fatalf("before the erasure the search finds only %q of %q", got, rawSecrets)
	}
	if n, err := s.ErasePerson(ctx, rawEmail, "owner@studio.test", t0.Add(time.Hour)); n != 1 || err != nil {
		t.Fatalf("ErasePerson = %d, %v; want 1", n, err)
	}
	data := pages()
	if got := found(data, rawSecrets); len(got) != 0 {
		t.Errorf("after the erasure the tables' pages still hold %q", got)
	}
	if !bytes.Contains(data, []byte(keptEmail)) {
		t.Errorf("another person's address is gone from the tables' pages")
	}
}

// openOwnPostgres opens a store on a PostgreSQL database of its own, which
// no other test's transactions hold snapshots of (storetest).
func openOwnPostgres(t *testing.T) *Store {
	t.Helper()
	s, err := OpenPostgres(context.Background(), storetest.PostgresDatabaseURL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// rawPages returns a function that reads every page of the relations of
// the store's schema (tables, indexes, and their TOAST tables and
// indexes) as stored, one after the other.
func rawPages(t *testing.T, s *Store) func() []byte {
	t.Helper()
	ctx := context.Background()
	var schema string
	err := s.read.QueryRowContext(ctx, `SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pageinspect'`).Scan(&schema)
	if err == sql.ErrNoRows {
		if _, err := s.read.ExecContext(ctx, `CREATE EXTENSION IF NOT EXISTS pageinspect SCHEMA public`); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("pageinspect, which reads the raw pages: %v", err)
			}
			t.Skipf("pageinspect, which reads the raw pages, is not available: %v", err)
		}
		schema = "public"
	} else if err != nil {
		t.Fatal(err)
	}
	return func() []byte {
		rows, err := s.read.QueryContext(ctx, `
			WITH mine AS (SELECT oid, reltoastrelid FROM pg_class WHERE relnamespace = current_schema()::regnamespace)
			SELECT c.oid::regclass::text, pg_relation_size(c.oid) / current_setting('block_size')::int
			FROM pg_class c
			WHERE c.oid IN (SELECT oid FROM mine)
			   OR c.oid IN (SELECT reltoastrelid FROM mine)
			   OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid IN (SELECT reltoastrelid FROM mine))`)
		if err != nil {
			t.Fatal(err)
		}
		type relation struct {
			name   string
			blocks int64
		}
		var rels []relation
		for rows.Next() {
			var r relation
			must(t, rows.Scan(&r.name, &r.blocks))
			rels = append(rels, r)
		}
		must(t, rows.Err())
		rows.Close()
		var all []byte
		for _, r := range rels {
			for b := range r.blocks {
				var page []byte
				if err := s.read.QueryRowContext(ctx, `SELECT `+quoteIdent(schema)+`.get_raw_page($1, 'main', $2::int)`, r.name, b).Scan(&page); err != nil {
					t.Fatalf("page %d of %s: %v", b, r.name, err)
				}
				all = append(all, page...)
			}
		}
		return all
	}
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// go test ./internal/store -run '^$' -bench ErasePerson -benchtime 3x
// (it first stores 1,050,000 analytics events: about half a minute)
//
// An erasure, its overwrite included, in a database of 20,000 enquiries
// whose analytics hold 30 days of 35,000 events: the overwrite rewrites
// the whole file on SQLite, and the enquiries' tables only on PostgreSQL.
func BenchmarkErasePerson(b *testing.B) {
	eachBenchStore(b, func(b *testing.B, s *Store) {
		ctx := context.Background()
		fillEventDays(b, s, "2026-11-30", 30, 35000)
		_, err := s.write.ExecContext(ctx, s.q(`WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
			INSERT INTO enquiries (kind, name, email, phone, message, created_at)
			SELECT 'contact', 'Customer ' || i, 'customer' || i || '@example.com', '+91 98290 ' || i,
				'A message of a few lines about a piece, its wood and its finish, and when it is needed: ' || i, ? FROM n`), t0)
		must(b, err)
		for b.Loop() {
			b.StopTimer()
			fillPerson(b, s)
			b.StartTimer()
			if n, err := s.ErasePerson(ctx, rawEmail, "owner@studio.test", t0.Add(time.Hour)); n != 1 || err != nil {
				b.Fatalf("ErasePerson = %d, %v; want 1", n, err)
			}
		}
		var size int64
		if s.dialect == SQLite {
			must(b, s.read.QueryRowContext(ctx, `SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()`).Scan(&size))
		} else {
			must(b, s.read.QueryRowContext(ctx, `SELECT sum(pg_total_relation_size(oid)) FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r'`).Scan(&size))
		}
		b.ReportMetric(float64(size)/1e6, "MB-database")
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/erasure")
	})
}

// A snapshot taken before the erasure and still open (a backup's, say)
// would have VACUUM FULL copy the old rows into the new files: the
// erasure stands, but says the files were not overwritten; once that
// snapshot ends, erasing again overwrites them.
func TestAnOlderSnapshotIsWaitedForThenSaid(t *testing.T) {
	t.Parallel()
	s := openOwnPostgres(t)
	s.snapshotWait = 200 * time.Millisecond
	ctx := context.Background()
	fillPerson(t, s)
	pages := rawPages(t, s)
	reader, err := s.read.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var one int
	if err := reader.QueryRowContext(ctx, `SELECT 1`).Scan(&one); err != nil { // takes its snapshot, and locks no table
		t.Fatal(err)
	}
	erased, err := s.ErasePerson(ctx, rawEmail, "owner@studio.test", t0.Add(time.Hour))
	if erased != 1 || !errors.Is(err, ErrNotOverwritten) {
		t.Fatalf("with an older snapshot open: ErasePerson = %d, %v; want 1 and ErrNotOverwritten", erased, err)
	}
	reader.Rollback()
	// Other tests' sessions of the same server may hold snapshots a while
	// (VACUUM FULL minds every session's): wait for them as a store would.
	s.snapshotWait = time.Minute
	if _, err := s.ErasePerson(ctx, rawEmail, "owner@studio.test", t0.Add(2*time.Hour)); err != nil {
		t.Fatalf("once the snapshot ended: %v", err)
	}
	if got := found(pages(), rawSecrets); len(got) != 0 {
		t.Errorf("after the second erasure the tables' pages still hold %q", got)
	}
}
