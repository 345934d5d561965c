package store

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"studio/internal/enquiry"
)

// recipients lists the outbox's mails as "enquiry:recipient", in the order
// the worker would take them.
func recipients(t *testing.T, s *Store) []string {
	t.Helper()
	due, err := s.DueMails(context.Background(), t0.Add(time.Hour), 100)
	if err != nil {
		t.Fatal(err)
	}
	var list []string
	for _, m := range due {
		list = append(list, fmt.Sprintf("%s:%s", m.Enquiry.Name, m.Recipient))
	}
	return list
}

// A mailed enquiry queues the studio's copy and the visitor's
// acknowledgement; spam never gets an acknowledgement, even when the
// caller asks for mail; no mail asked, none queued.
func TestAcknowledgementIsQueuedWithTheEnquiry(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		if _, err := s.CreateEnquiry(ctx, sample(enquiry.Quote, "Asha"), true); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateEnquiry(ctx, sample(enquiry.Contact, "Quiet"), false); err != nil {
			t.Fatal(err)
		}
		spam := sample(enquiry.Contact, "Bot")
		spam.Spam = true
		if _, err := s.CreateEnquiry(ctx, spam, true); err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprint(recipients(t, s))
		if want := "[Asha:studio Asha:visitor Bot:studio]"; got != want {
			t.Errorf("outbox = %s, want %s", got, want)
		}
	})
}

// The acknowledgement is in the enquiry's transaction: when it cannot be
// stored, neither are the enquiry and the studio's copy. A trigger refuses
// the acknowledgement's row; the plain path (PostgreSQL) and the batched
// one (SQLite, batch.go) both go through insertEnquiry.
func TestAcknowledgementSharesTheEnquirysTransaction(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		var refuse []string
		switch s.dialect {
		case SQLite:
			refuse = []string{`CREATE TRIGGER refuse_ack BEFORE INSERT ON mail_outbox WHEN NEW.recipient = 'visitor'
				BEGIN SELECT RAISE(ABORT, 'acknowledgement refused'); END`}
		case Postgres:
			refuse = []string{`CREATE FUNCTION refuse_ack() RETURNS trigger LANGUAGE plpgsql AS $$
				BEGIN IF NEW.recipient = 'visitor' THEN RAISE EXCEPTION 'acknowledgement refused'; END IF; RETURN NEW; END $$`,
				`CREATE TRIGGER refuse_ack BEFORE INSERT ON mail_outbox FOR EACH ROW EXECUTE FUNCTION refuse_ack()`}
		}
		for _, q := range refuse {
			if _, err := s.write.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.CreateEnquiry(ctx, sample(enquiry.Quote, "Asha"), true); err == nil {
			t.Fatal("stored an enquiry whose acknowledgement could not be queued")
		}
		// Unmailed enquiries are not held up by it.
		if _, err := s.CreateEnquiry(ctx, sample(enquiry.Contact, "Quiet"), false); err != nil {
			t.Fatal(err)
		}
		list, err := s.Enquiries(ctx, EnquiryFilter{AllSpam: true})
		if err != nil || enquiryNames(list) != "Quiet" {
			t.Errorf("enquiries = %s (%v), want only Quiet", enquiryNames(list), err)
		}
		if f, err := s.MailFigures(ctx); f != (MailFigures{}) || err != nil {
			t.Errorf("the studio's copy stayed without its enquiry: %+v (%v)", f, err)
		}
	})
}

// MailDeliveries tells, for the enquiries of a page, where each mail stands.
func TestMailDeliveries(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		create := func(name string, mail bool) int64 {
			t.Helper()
			id, err := s.CreateEnquiry(ctx, sample(enquiry.Quote, name), mail)
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
		sentOne, failedOne, quiet, fresh := create("Sent", true), create("Failed", true), create("Quiet", false), create("Fresh", true)

		due, err := s.DueMails(ctx, t0, 100)
		if err != nil || len(due) != 6 {
			t.Fatalf("due = %d mails, %v; want 6", len(due), err)
		}
		mail := func(enquiryID int64, recipient string) PendingMail {
			for _, m := range due {
				if m.Enquiry.ID == enquiryID && m.Recipient == recipient {
					return m
				}
			}
			t.Fatalf("no %s mail for enquiry %d", recipient, enquiryID)
			return PendingMail{}
		}
		claim := func(m PendingMail) {
			t.Helper()
			if ok, err := s.ClaimMail(ctx, m, t0.Add(time.Minute)); !ok || err != nil {
				t.Fatalf("claim %d: %v %v", m.ID, ok, err)
			}
		}
		// "Sent": the studio's copy went at the first try; the
		// acknowledgement failed once and waits for its next attempt.
		claim(mail(sentOne, RecipientStudio))
		must(t, s.MailSent(ctx, mail(sentOne, RecipientStudio).ID, t0.Add(time.Second)))
		claim(mail(sentOne, RecipientVisitor))
		must(t, s.MailFailed(ctx, mail(sentOne, RecipientVisitor).ID, "451 4.3.0 greylisted", t0.Add(5*time.Minute), false, t0.Add(2*time.Second)))
		// "Failed": the acknowledgement was refused for good.
		claim(mail(failedOne, RecipientVisitor))
		must(t, s.MailFailed(ctx, mail(failedOne, RecipientVisitor).ID, "550 5.1.1 no such user", t0.Add(time.Hour), true, t0.Add(3*time.Second)))

		// The page's ids, an unknown one among them; padded past one
		// query's chunk of ids.
		ids := []int64{fresh, quiet, failedOne, sentOne, 99999}
		for i := int64(100000); len(ids) < 1200; i++ {
			ids = append(ids, i)
		}
		got, err := s.MailDeliveries(ctx, ids)
		if err != nil {
			t.Fatal(err)
		}
		want := map[int64][]MailDelivery{
			sentOne: {
				{Recipient: RecipientStudio, State: MailSent, Attempts: 1, At: t0.Add(time.Second)},
				{Recipient: RecipientVisitor, State: MailPending, Attempts: 1, LastError: "451 4.3.0 greylisted", At: t0.Add(5 * time.Minute)},
			},
			failedOne: {
				{Recipient: RecipientStudio, State: MailPending, At: t0},
				{Recipient: RecipientVisitor, State: MailFailed, Attempts: 1, LastError: "550 5.1.1 no such user", At: t0.Add(3 * time.Second)},
			},
			fresh: {
				{Recipient: RecipientStudio, State: MailPending, At: t0},
				{Recipient: RecipientVisitor, State: MailPending, At: t0},
			},
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("MailDeliveries =\n %v\nwant\n %v", got, want)
		}
		for id, list := range got {
			for _, d := range list {
				if d.At.Location() != time.UTC {
					t.Errorf("enquiry %d: time %v not in UTC", id, d.At)
				}
			}
		}
		// Only the enquiries asked about.
		if got, err := s.MailDeliveries(ctx, []int64{fresh}); err != nil || len(got) != 1 || len(got[fresh]) != 2 {
			t.Errorf("one enquiry: %v, %v", got, err)
		}
		if got, err := s.MailDeliveries(ctx, nil); err != nil || len(got) != 0 {
			t.Errorf("no ids: %v, %v", got, err)
		}
	})
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Migration 0004: a row written the old way (without recipient) is the
// studio's copy. (Since 0011 the worker, not the table, refuses a kind
// it does not know: mail's TestUnknownKindIsGivenUp.)
func TestRecipientColumn(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		id, err := s.CreateEnquiry(ctx, sample(enquiry.Contact, "Old"), false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.write.ExecContext(ctx, s.q(`INSERT INTO mail_outbox (enquiry_id, next_attempt_ms) VALUES (?, ?)`), id, millis(t0)); err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(recipients(t, s)); got != "[Old:studio]" {
			t.Errorf("outbox = %s, want the old row as the studio's copy", got)
		}
	})
}

// An address gets at most AcknowledgementsPerDay acknowledgements in any
// 24 hours, however its case is typed and however many enquiries come at
// once; past that each enquiry is still stored, with the studio's copy.
// Spam, and other addresses, count nothing.
func TestAcknowledgementsToOneAddressAreLimited(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		to := func(name, email string, at time.Time) enquiry.Enquiry {
			e := sample(enquiry.Contact, name)
			e.Email, e.CreatedAt = email, at
			return e
		}
		bot := to("Bot", "stranger@example.com", t0)
		bot.Spam = true
		first := []enquiry.Enquiry{bot, to("A", "stranger@example.com", t0), to("Other", "asha@example.com", t0.Add(time.Minute))}
		for _, e := range first {
			if _, err := s.CreateEnquiry(ctx, e, true); err != nil {
				t.Fatal(err)
			}
		}
		// Six at once, the address in other cases: two more get theirs.
		var wg sync.WaitGroup
		errs := make(chan error, 6)
		for i, email := range []string{"Stranger@example.com", "STRANGER@EXAMPLE.COM", "stranger@Example.com", "stranger@example.com", "Stranger@Example.Com", "sTranger@example.com"} {
			wg.Go(func() {
				_, err := s.CreateEnquiry(ctx, to(fmt.Sprintf("B%d", i), email, t0.Add(time.Hour)), true)
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			must(t, err)
		}
		count := func() (studio, visitor int) {
			t.Helper()
			var n [2]int
			for i, r := range []string{RecipientStudio, RecipientVisitor} {
				must(t, s.write.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM mail_outbox o JOIN enquiries e ON e.id = o.enquiry_id
					WHERE LOWER(e.email) = 'stranger@example.com' AND o.recipient = ?`), r).Scan(&n[i]))
			}
			return n[0], n[1]
		}
		if studio, visitor := count(); studio != 8 || visitor != AcknowledgementsPerDay {
			t.Errorf("%d studio's copies and %d acknowledgements to the address, want 8 and %d", studio, visitor, AcknowledgementsPerDay)
		}
		list, err := s.Enquiries(ctx, EnquiryFilter{AllSpam: true})
		if err != nil || len(list) != 9 {
			t.Errorf("%d enquiries stored (%v), want all 9", len(list), err)
		}
		// Another address is not held back by it.
		if got := fmt.Sprint(recipients(t, s)); !strings.Contains(got, "Other:visitor") {
			t.Errorf("outbox %s lacks the acknowledgement to another address", got)
		}
		// 23 hours after the first, still full; a day after it, one more.
		if _, err := s.CreateEnquiry(ctx, to("C", "stranger@example.com", t0.Add(23*time.Hour)), true); err != nil {
			t.Fatal(err)
		}
		if _, visitor := count(); visitor != AcknowledgementsPerDay {
			t.Errorf("%d acknowledgements within the day, want %d", visitor, AcknowledgementsPerDay)
		}
		if _, err := s.CreateEnquiry(ctx, to("D", "stranger@example.com", t0.Add(24*time.Hour+time.Second)), true); err != nil {
			t.Fatal(err)
		}
		if _, visitor := count(); visitor != AcknowledgementsPerDay+1 {
			t.Errorf("%d acknowledgements once the first is a day old, want %d", visitor, AcknowledgementsPerDay+1)
		}
	})
}

// The count is the database's: a restart does not reset it.
func TestAcknowledgementLimitSurvivesARestart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "studio.db")
	for round := range 2 {
		s, err := OpenSQLite(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			e := sample(enquiry.Contact, fmt.Sprintf("R%d-%d", round, i))
			e.CreatedAt = t0.Add(time.Duration(round*2+i) * time.Minute)
			if _, err := s.CreateEnquiry(ctx, e, true); err != nil {
				t.Fatal(err)
			}
		}
		if round == 1 {
			got := fmt.Sprint(recipients(t, s))
			if want := "[R0-0:studio R0-0:visitor R0-1:studio R0-1:visitor R1-0:studio R1-0:visitor R1-1:studio]"; got != want {
				t.Errorf("outbox = %s, want %s", got, want)
			}
		}
		must(t, s.Close())
	}
}
