package store

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"studio/internal/enquiry"
)

func TestStatusSpamUndoAndHistory(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		id, err := s.CreateEnquiry(ctx, sample(enquiry.Quote, "Asha"), false)
		if err != nil {
			t.Fatal(err)
		}
		status := func() (enquiry.Status, bool) {
			e, err := s.Enquiry(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return e.Status, e.Spam
		}
		if st, _ := status(); st != enquiry.New {
			t.Fatalf("a new enquiry is %q, want new", st)
		}
		for _, st := range []enquiry.Status{enquiry.Replied, enquiry.Quoted, enquiry.Won} {
			if err := s.SetStatus(ctx, id, st, "asha@studio.in", t0.Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.SetStatus(ctx, id, enquiry.Won, "ravi@studio.in", t0); err != nil {
			t.Fatal(err) // the status it has: nothing changes, nothing is recorded
		}
		if st, _ := status(); st != enquiry.Won {
			t.Errorf("status = %q, want won", st)
		}
		last, ok, err := s.LastChange(ctx, id)
		if err != nil || !ok || last.From != "quoted" || last.To != "won" || last.Actor != "asha@studio.in" {
			t.Fatalf("last change = %+v %v %v, want asha's quoted → won", last, ok, err)
		}
		if err := s.Undo(ctx, id, last.ID, "ravi@studio.in", t0.Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if st, _ := status(); st != enquiry.Quoted {
			t.Errorf("after undo status = %q, want quoted", st)
		}
		if err := s.Undo(ctx, id, last.ID, "ravi@studio.in", t0); !errors.Is(err, ErrStale) {
			t.Errorf("a second undo of the same change = %v, want ErrStale", err)
		}
		if _, ok, _ := s.LastChange(ctx, id); ok {
			t.Error("an undo can itself be undone; want only changes undoable")
		}

		// Not spam, and its undo.
		if err := s.SetSpam(ctx, id, true, "ravi@studio.in", t0); err != nil {
			t.Fatal(err)
		}
		if _, spam := status(); !spam {
			t.Error("not marked as spam")
		}
		spamChange, _, _ := s.LastChange(ctx, id)
		if err := s.SetStatus(ctx, id, enquiry.Lost, "asha@studio.in", t0); err != nil {
			t.Fatal(err)
		}
		if err := s.Undo(ctx, id, spamChange.ID, "ravi@studio.in", t0); !errors.Is(err, ErrStale) {
			t.Errorf("undo of a change that is no longer the last = %v, want ErrStale", err)
		}
		if err := s.SetSpam(ctx, id, false, "ravi@studio.in", t0); err != nil {
			t.Fatal(err)
		}
		if st, spam := status(); spam || st != enquiry.Lost {
			t.Errorf("after not spam: %q spam=%v, want lost, not spam", st, spam)
		}
		if err := s.SetStatus(ctx, id, "maybe", "x", t0); err == nil {
			t.Error("an unknown status was accepted")
		}
		if err := s.SetStatus(ctx, 9999, enquiry.Won, "x", t0); !errors.Is(err, enquiry.ErrNotFound) {
			t.Errorf("SetStatus(unknown) = %v, want ErrNotFound", err)
		}

		history, err := s.History(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		var actions string
		for _, ev := range history {
			actions += ev.Action + ":" + ev.To + " "
		}
		if want := "status:replied status:quoted status:won undo:quoted spam:true status:lost spam:false "; actions != want {
			t.Errorf("history = %q, want %q", actions, want)
		}
		if !history[2].Undone {
			t.Error("the undone change is not marked undone")
		}
	})
}

func TestNotesAndDelete(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		id, err := s.CreateEnquiry(ctx, sample(enquiry.Contact, "Asha"), true) // with its mail queued
		if err != nil {
			t.Fatal(err)
		}
		for i, body := range []string{"Called her; wants walnut.", "नमस्ते — sent the quote"} {
			if err := s.AddNote(ctx, id, "ravi@studio.in", body, t0.Add(time.Duration(i)*time.Minute)); err != nil {
				t.Fatal(err)
			}
		}
		notes, err := s.Notes(ctx, id)
		if err != nil || len(notes) != 2 || notes[1].Body != "नमस्ते — sent the quote" || notes[0].Author != "ravi@studio.in" || !notes[1].At.Equal(t0.Add(time.Minute)) {
			t.Fatalf("notes = %+v, %v", notes, err)
		}
		if err := s.AddNote(ctx, 9999, "x", "y", t0); !errors.Is(err, enquiry.ErrNotFound) {
			t.Errorf("a note on no enquiry = %v, want ErrNotFound", err)
		}

		if err := s.DeleteEnquiry(ctx, id, "asha@studio.in", t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Enquiry(ctx, id); !errors.Is(err, enquiry.ErrNotFound) {
			t.Errorf("deleted enquiry still there: %v", err)
		}
		if notes, _ := s.Notes(ctx, id); len(notes) != 0 {
			t.Errorf("deleted enquiry's notes still there: %+v", notes)
		}
		if f, _ := s.MailFigures(ctx); f.Pending != 0 {
			t.Errorf("deleted enquiry's mail still queued: %d", f.Pending)
		}
		history, _ := s.History(ctx, id)
		last := history[len(history)-1]
		if last.Action != ActionDelete || last.Actor != "asha@studio.in" || last.From != "" || last.To != "" {
			t.Errorf("the deletion is not recorded (or keeps text): %+v", last)
		}
		if err := s.DeleteEnquiry(ctx, id, "x", t0); !errors.Is(err, enquiry.ErrNotFound) {
			t.Errorf("deleting twice = %v, want ErrNotFound", err)
		}
	})
}

func TestFiltersSearchAndPages(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		var ids []int64
		for i := range 7 {
			e := sample(enquiry.Quote, "Client "+strconv.Itoa(i))
			e.CreatedAt = t0.Add(time.Duration(i) * 24 * time.Hour)
			if i == 3 {
				e.Name, e.Message, e.ProductID, e.ProductName = "Meera 100%_sure", "A jharokha MIRROR please", 2, "Jharokha mirror"
			}
			id, err := s.CreateEnquiry(ctx, e, false)
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		s.SetStatus(ctx, ids[0], enquiry.Won, "x", t0)
		s.SetStatus(ctx, ids[1], enquiry.Archived, "x", t0)
		s.SetStatus(ctx, ids[2], enquiry.Replied, "x", t0)
		open := []enquiry.Status{enquiry.New, enquiry.Replied, enquiry.Quoted}
		names := func(f EnquiryFilter) string {
			list, err := s.Enquiries(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			return enquiryNames(list)
		}
		for _, c := range []struct {
			f    EnquiryFilter
			want string
		}{
			{EnquiryFilter{Statuses: open}, "Client 6,Client 5,Client 4,Meera 100%_sure,Client 2"},
			{EnquiryFilter{Statuses: []enquiry.Status{enquiry.Won, enquiry.Lost}}, "Client 0"},
			{EnquiryFilter{Search: "mirror"}, "Meera 100%_sure"},   // in the message and product, any case
			{EnquiryFilter{Search: "100%_"}, "Meera 100%_sure"},    // wildcards searched as typed
			{EnquiryFilter{Search: "m%a"}, ""},                     // not as wildcards
			{EnquiryFilter{Search: "+91"}, names(EnquiryFilter{})}, // the phone
			{EnquiryFilter{ProductID: 2}, "Meera 100%_sure"},
			{EnquiryFilter{From: t0.Add(2 * 24 * time.Hour), To: t0.Add(4 * 24 * time.Hour)}, "Meera 100%_sure,Client 2"},
			{EnquiryFilter{BeforeID: ids[4], Limit: 2}, "Meera 100%_sure,Client 2"},
			{EnquiryFilter{AfterID: ids[2], Limit: 2}, "Client 4,Meera 100%_sure"}, // the two just newer, newest first
		} {
			if got := names(c.f); got != c.want {
				t.Errorf("%+v: %q, want %q", c.f, got, c.want)
			}
		}
		if n, err := s.CountNew(ctx); err != nil || n != 4 {
			t.Errorf("CountNew = %d, %v, want 4", n, err)
		}
	})
}

func TestAccountsSessionsTokens(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		if on, err := s.HasAccounts(ctx); err != nil || on {
			t.Fatalf("HasAccounts with none = %v, %v", on, err)
		}
		if err := s.CreateAccount(ctx, " Asha@Studio.in ", "hash1", t0); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateAccount(ctx, "asha@studio.in", "hash2", t0); !errors.Is(err, ErrAccountExists) {
			t.Errorf("the same e-mail twice = %v, want ErrAccountExists", err)
		}
		s.CreateAccount(ctx, "ravi@studio.in", "hash3", t0)
		asha, err := s.AccountByEmail(ctx, "ASHA@studio.in")
		if err != nil || asha.Email != "asha@studio.in" || asha.Password != "hash1" {
			t.Fatalf("AccountByEmail = %+v, %v", asha, err)
		}
		ravi, _ := s.AccountByEmail(ctx, "ravi@studio.in")

		// Two sessions of Asha's, one of Ravi's.
		for _, c := range []struct {
			secret string
			id     int64
		}{{"a1", asha.ID}, {"a2", asha.ID}, {"r1", ravi.ID}} {
			if err := s.CreateSession(ctx, c.secret, c.id, t0, t0.Add(-time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.SessionBySecret(ctx, "a1")
		if err != nil || got.Account.Email != "asha@studio.in" || !got.Created.Equal(t0) {
			t.Fatalf("SessionBySecret = %+v, %v", got, err)
		}
		s.TouchSession(ctx, "a1", t0.Add(time.Hour), "", "")
		if got, _ := s.SessionBySecret(ctx, "a1"); !got.Seen.Equal(t0.Add(time.Hour)) {
			t.Errorf("seen = %v after touch", got.Seen)
		}
		s.DeleteSession(ctx, "a1")
		if _, err := s.SessionBySecret(ctx, "a1"); !errors.Is(err, ErrNoAccount) {
			t.Errorf("a signed-out session = %v, want ErrNoAccount", err)
		}
		if _, err := s.SessionBySecret(ctx, "a2"); err != nil {
			t.Errorf("signing out one session ended another: %v", err)
		}
		s.DeleteSessions(ctx, asha.ID) // everywhere
		if _, err := s.SessionBySecret(ctx, "a2"); !errors.Is(err, ErrNoAccount) {
			t.Error("sign out everywhere left a session")
		}
		if _, err := s.SessionBySecret(ctx, "r1"); err != nil {
			t.Errorf("Asha signing out everywhere ended Ravi's session: %v", err)
		}
		// A new sign-in clears sessions idle since before staleBefore.
		s.CreateSession(ctx, "r2", ravi.ID, t0.Add(24*time.Hour), t0.Add(time.Hour))
		if _, err := s.SessionBySecret(ctx, "r1"); !errors.Is(err, ErrNoAccount) {
			t.Error("an idle session was not cleared")
		}
		// A new password ends the account's sessions.
		if err := s.SetPassword(ctx, "ravi@studio.in", "hash4"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SessionBySecret(ctx, "r2"); !errors.Is(err, ErrNoAccount) {
			t.Error("a password change left a session")
		}
		if err := s.SetPassword(ctx, "nobody@studio.in", "h"); !errors.Is(err, ErrNoAccount) {
			t.Errorf("SetPassword(nobody) = %v", err)
		}

		tokenID, err := s.CreateToken(ctx, "ravi@studio.in", "t1", t0)
		if err != nil {
			t.Fatal(err)
		}
		if a, err := s.AccountByToken(ctx, "t1", t0.Add(time.Minute)); err != nil || a.Email != "ravi@studio.in" {
			t.Errorf("AccountByToken = %+v, %v", a, err)
		}
		if list, _ := s.Tokens(ctx); len(list) != 1 || list[0].UsedAt == nil || list[0].Email != "ravi@studio.in" {
			t.Errorf("Tokens = %+v", list)
		}
		if err := s.RevokeToken(ctx, tokenID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AccountByToken(ctx, "t1", t0); !errors.Is(err, ErrNoAccount) {
			t.Error("a revoked token still works")
		}
		if err := s.RevokeToken(ctx, tokenID); !errors.Is(err, ErrNoToken) {
			t.Errorf("revoking twice = %v, want ErrNoToken", err)
		}

		s.CreateToken(ctx, "ravi@studio.in", "t2", t0)
		s.CreateSession(ctx, "r3", ravi.ID, t0, t0)
		if err := s.RemoveAccount(ctx, "Ravi@studio.in"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AccountByToken(ctx, "t2", t0); !errors.Is(err, ErrNoAccount) {
			t.Error("a removed account's token still works")
		}
		if _, err := s.SessionBySecret(ctx, "r3"); !errors.Is(err, ErrNoAccount) {
			t.Error("a removed account's session still works")
		}
		if list, _ := s.Accounts(ctx); len(list) != 1 || list[0].Email != "asha@studio.in" {
			t.Errorf("accounts = %+v", list)
		}
	})
}

// `studio user remove` (RemoveAccount) takes the last owner only with the
// last account: staff are never left with no one to manage accounts.
func TestRemovingTheLastOwner(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		if err := s.CreateAccountAs(ctx, "asha@studio.in", "hash", RoleOwner, t0); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateAccountAs(ctx, "ravi@studio.in", "hash", RoleStaff, t0); err != nil {
			t.Fatal(err)
		}
		if err := s.RemoveAccount(ctx, "asha@studio.in"); !errors.Is(err, ErrLastOwner) {
			t.Fatalf("removing the only owner while staff remain = %v, want ErrLastOwner", err)
		}
		if _, err := s.AccountByEmail(ctx, "asha@studio.in"); err != nil {
			t.Fatalf("the refused removal removed the owner: %v", err)
		}
		if err := s.RemoveAccount(ctx, "ravi@studio.in"); err != nil {
			t.Fatal(err)
		}
		if err := s.RemoveAccount(ctx, "asha@studio.in"); err != nil {
			t.Fatalf("removing the last account = %v, want it removed", err)
		}
		if has, _ := s.HasAccounts(ctx); has {
			t.Error("an account is left")
		}
	})
}
