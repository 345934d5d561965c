package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"studio/internal/enquiry"
)

func listed(t *testing.T, s *Store) []string {
	t.Helper()
	subs, err := s.Subscribers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var emails []string
	for _, sub := range subs {
		emails = append(emails, sub.Email)
	}
	return emails
}

func dueConfirmations(t *testing.T, s *Store, now time.Time) []PendingMail {
	t.Helper()
	due, err := s.DueMails(context.Background(), now, 50)
	if err != nil {
		t.Fatal(err)
	}
	var out []PendingMail
	for _, m := range due {
		if m.Recipient == RecipientConfirm {
			out = append(out, m)
		}
	}
	return out
}

func TestDoubleOptIn(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		created, err := s.Subscribe(ctx, "Mira@Example.com", true, t0)
		if err != nil || !created {
			t.Fatalf("Subscribe = %v, %v", created, err)
		}
		if got := listed(t, s); len(got) != 0 {
			t.Errorf("listed before confirming: %q", got)
		}
		// The confirmation mail was queued with the row, about it.
		due := dueConfirmations(t, s, t0)
		if len(due) != 1 || due[0].Subscriber == nil || due[0].Subscriber.Email != "Mira@Example.com" || due[0].Subscribed {
			t.Fatalf("confirmation mails = %+v", due)
		}
		// Asking again at once sends no other confirmation (a form sent
		// over and over floods no mailbox); an hour later, another.
		if created, err := s.Subscribe(ctx, "mira@example.com", true, t0.Add(time.Minute)); err != nil || !created {
			t.Errorf("second sign-up = %v, %v", created, err)
		}
		if n := len(dueConfirmations(t, s, t0.Add(time.Minute))); n != 1 {
			t.Errorf("%d confirmations a minute later, want still 1", n)
		}
		if created, err := s.Subscribe(ctx, "mira@example.com", true, t0.Add(ConfirmationsEvery+time.Minute)); err != nil || !created {
			t.Errorf("sign-up an hour later = %v, %v", created, err)
		}
		if n := len(dueConfirmations(t, s, t0.Add(ConfirmationsEvery+time.Minute))); n != 2 {
			t.Errorf("%d confirmations an hour later, want 2", n)
		}
		if err := s.ConfirmSubscription(ctx, "MIRA@example.com", t0.Add(90*time.Minute)); err != nil {
			t.Fatal(err)
		}
		if got := listed(t, s); len(got) != 1 || got[0] != "mira@example.com" {
			t.Errorf("listed after confirming = %q", got)
		}
		if ok, err := s.IsSubscribed(ctx, "Mira@example.COM"); !ok || err != nil {
			t.Errorf("IsSubscribed = %v, %v", ok, err)
		}
		// Signed up already: nothing new, no mail.
		if created, err := s.Subscribe(ctx, "mira@example.com", true, t0.Add(2*time.Hour)); err != nil || created {
			t.Errorf("sign-up when subscribed = %v, %v", created, err)
		}
		if n := len(dueConfirmations(t, s, t0.Add(2*time.Hour))); n != 2 {
			t.Errorf("%d confirmations, want still 2", n)
		}

		if err := s.Unsubscribe(ctx, "mira@EXAMPLE.com", t0.Add(3*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if got := listed(t, s); len(got) != 0 {
			t.Errorf("listed after unsubscribing: %q", got)
		}
		// The old confirmation link does not bring an unsubscribed address back.
		if err := s.ConfirmSubscription(ctx, "mira@example.com", t0.Add(4*time.Hour)); !errors.Is(err, ErrNoSubscriber) {
			t.Errorf("confirming after unsubscribing = %v, want ErrNoSubscriber", err)
		}
		if got := listed(t, s); len(got) != 0 {
			t.Errorf("listed after an old confirmation: %q", got)
		}
		// Signing up again works: a new confirmation.
		if created, err := s.Subscribe(ctx, "mira@example.com", true, t0.Add(5*time.Hour)); err != nil || !created {
			t.Errorf("sign-up after unsubscribing = %v, %v", created, err)
		}
		if n := len(dueConfirmations(t, s, t0.Add(5*time.Hour))); n != 3 {
			t.Errorf("%d confirmations, want 3", n)
		}
		if err := s.ConfirmSubscription(ctx, "mira@example.com", t0.Add(6*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if got := listed(t, s); len(got) != 1 {
			t.Errorf("listed after confirming again = %q", got)
		}
		if err := s.ConfirmSubscription(ctx, "nobody@example.com", t0); !errors.Is(err, ErrNoSubscriber) {
			t.Errorf("confirming an unknown address = %v", err)
		}
	})
}

func TestUnconfirmedAreDropped(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		if _, err := s.Subscribe(ctx, "late@example.com", true, t0); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Subscribe(ctx, "kept@example.com", true, t0.Add(2*24*time.Hour)); err != nil {
			t.Fatal(err)
		}
		// On the seventh day it may still be confirmed; after it, not.
		if err := s.DropUnconfirmed(ctx, t0.Add(UnconfirmedFor)); err != nil {
			t.Fatal(err)
		}
		if err := s.ConfirmSubscription(ctx, "late@example.com", t0.Add(UnconfirmedFor)); err != nil {
			t.Errorf("confirming within seven days = %v", err)
		}
		if _, err := s.Subscribe(ctx, "gone@example.com", true, t0); err != nil {
			t.Fatal(err)
		}
		if err := s.DropUnconfirmed(ctx, t0.Add(UnconfirmedFor+time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		if err := s.ConfirmSubscription(ctx, "gone@example.com", t0.Add(8*24*time.Hour)); !errors.Is(err, ErrNoSubscriber) {
			t.Errorf("confirming after seven days = %v, want ErrNoSubscriber", err)
		}
		// Its confirmation mail went with it; the younger one's stays.
		due := dueConfirmations(t, s, t0.Add(8*24*time.Hour))
		if len(due) != 2 || due[0].Subscriber.Email != "late@example.com" || due[1].Subscriber.Email != "kept@example.com" {
			t.Errorf("confirmations left = %+v", due)
		}
		if got := listed(t, s); len(got) != 1 || got[0] != "late@example.com" {
			t.Errorf("listed = %q", got)
		}
	})
}

func TestMailsSaySubscribed(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		if _, err := s.CreateEnquiry(ctx, sample(enquiry.Contact, "Asha"), true); err != nil {
			t.Fatal(err)
		}
		visitorSubscribed := func() bool {
			due, err := s.DueMails(ctx, t0, 50)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range due {
				if m.Recipient == RecipientVisitor {
					return m.Subscribed
				}
			}
			t.Fatal("no acknowledgement")
			return false
		}
		if visitorSubscribed() {
			t.Error("the acknowledgement says subscribed before any sign-up")
		}
		if _, err := s.Subscribe(ctx, "ASHA@example.com", false, t0); err != nil {
			t.Fatal(err)
		}
		if !visitorSubscribed() {
			t.Error("the acknowledgement to a subscriber does not say so")
		}
	})
}

func TestErasePerson(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		quote := sample(enquiry.Quote, "Asha Rao")
		quote.Items = []enquiry.Item{{ProductID: 1, ProductName: "Marwar chair", Quantity: 2, Note: "for Asha's flat"}}
		first, err := s.CreateEnquiry(ctx, quote, true)
		if err != nil {
			t.Fatal(err)
		}
		other := sample(enquiry.Contact, "Asha again")
		other.Email = "ASHA@Example.com"
		second, err := s.CreateEnquiry(ctx, other, false)
		if err != nil {
			t.Fatal(err)
		}
		stranger := sample(enquiry.Contact, "Ravi")
		stranger.Email = "ravi@example.com"
		kept, err := s.CreateEnquiry(ctx, stranger, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.AddNote(ctx, first, "owner@studio.test", "Asha lives at 4 Lake Road", t0); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddReply(ctx, Reply{EnquiryID: first, Author: "owner@studio.test", To: "asha@example.com", Subject: "Re: your quote, Asha",
			Body: "Dear Asha", AttachmentName: "quote.pdf", Attachment: []byte("%PDF")}, t0); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Subscribe(ctx, "asha@example.com", false, t0); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Subscribe(ctx, "ravi@example.com", false, t0); err != nil {
			t.Fatal(err)
		}
		// The acknowledgement bounced: the mail server's refusal names her.
		due, err := s.DueMails(ctx, t0.Add(time.Minute), 50)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range due {
			if m.Recipient == RecipientVisitor {
				must(t, s.MailFailed(ctx, m.ID, "550 no mailbox <asha@example.com>", t0, true, t0))
			}
		}

		erased, err := s.ErasePerson(ctx, "Asha@example.COM", "owner@studio.test", t0.Add(time.Hour))
		if err != nil || erased != 2 {
			t.Fatalf("ErasePerson = %d, %v; want 2", erased, err)
		}
		for _, id := range []int64{first, second} {
			e, err := s.Enquiry(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if e.Name != ErasedName || e.Email != "" || e.Phone != "" || e.Message != "" {
				t.Errorf("enquiry %d after erasing: %+v", id, e)
			}
			for _, it := range e.Items {
				if it.Note != "" || it.ProductName != "Marwar chair" {
					t.Errorf("piece after erasing: %+v", it)
				}
			}
			history, err := s.History(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			last := history[len(history)-1]
			if last.Action != ActionErase || last.Actor != "owner@studio.test" || last.From != "" || last.To != "" {
				t.Errorf("history's last = %+v", last)
			}
		}
		if e, _ := s.Enquiry(ctx, first); e.ProductName != "Marwar chair" || e.Kind != enquiry.Quote {
			t.Errorf("what the enquiry was about is gone: %+v", e)
		}
		notes, _ := s.Notes(ctx, first)
		if len(notes) != 1 || notes[0].Body != "" {
			t.Errorf("notes = %+v", notes)
		}
		replies, err := s.Replies(ctx, []int64{first})
		if err != nil || len(replies) != 1 || replies[0].To != "" || replies[0].Body != "" || replies[0].Subject != "" || replies[0].AttachmentName != "" {
			t.Errorf("replies = %+v, %v", replies, err)
		}
		if r, _ := s.Reply(ctx, replies[0].ID); len(r.Attachment) != 0 {
			t.Errorf("the attachment is kept: %q", r.Attachment)
		}
		// The erased enquiry's pending mails are dropped (the reply's and
		// the acknowledgement); nothing is left to send to the person.
		due, err = s.DueMails(ctx, t0.Add(2*time.Hour), 50)
		if err != nil || len(due) != 0 {
			t.Errorf("due after erasing = %+v, %v", due, err)
		}
		deliveries, err := s.MailDeliveries(ctx, []int64{first})
		must(t, err)
		for _, d := range deliveries[first] {
			if d.LastError != "" {
				t.Errorf("a mail's error kept after erasing: %q", d.LastError)
			}
		}
		if got := listed(t, s); len(got) != 1 || got[0] != "ravi@example.com" {
			t.Errorf("listed = %q", got)
		}
		if e, _ := s.Enquiry(ctx, kept); e.Name != "Ravi" || e.Email != "ravi@example.com" {
			t.Errorf("another person's enquiry changed: %+v", e)
		}
		// Nothing of that person left: erasing again finds nothing.
		if n, err := s.ErasePerson(ctx, "asha@example.com", "owner@studio.test", t0.Add(2*time.Hour)); n != 0 || err != nil {
			t.Errorf("second ErasePerson = %d, %v", n, err)
		}
	})
}

// Sign-ups of one new address at once (a double click, a retry) all
// succeed, as one subscriber with one confirmation mail.
func TestSignUpsAtOnce(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		errs := make(chan error, 8)
		for range 8 {
			go func() {
				_, err := s.Subscribe(ctx, "twice@example.com", true, t0)
				errs <- err
			}()
		}
		for range 8 {
			if err := <-errs; err != nil {
				t.Errorf("a sign-up at once failed: %v", err)
			}
		}
		if n := len(dueConfirmations(t, s, t0)); n != 1 {
			t.Errorf("%d confirmation mails, want 1", n)
		}
	})
}

// A customer's enquiries are found by their address in any case, as
// erasure finds them, letters beyond ASCII too (SQLite's LOWER folds
// ASCII only).
func TestEnquiriesFromAnAddress(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		e := sample(enquiry.Contact, "Élise")
		e.Email = "ÉLISE@Example.com"
		id, err := s.CreateEnquiry(ctx, e, false)
		must(t, err)
		other := sample(enquiry.Contact, "Elise")
		other.Email = "elise@example.com"
		_, err = s.CreateEnquiry(ctx, other, false)
		must(t, err)
		list, err := s.Enquiries(ctx, EnquiryFilter{Email: "élise@example.COM", AllSpam: true})
		if err != nil || len(list) != 1 || list[0].ID != id {
			t.Errorf("enquiries from élise@example.com = %+v, %v; want #%d alone", list, err, id)
		}
		if list, err := s.Enquiries(ctx, EnquiryFilter{Email: "nobody@example.com"}); err != nil || len(list) != 0 {
			t.Errorf("enquiries from nobody = %+v, %v", list, err)
		}
	})
}
