package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

// Sessions ended from elsewhere stay, marked, for their browser to be
// told why; they are listed no more, touched no more, and cleared once
// stale. A new invitation replaces an invited account's password and
// names who sent it.
func TestEndedSessionsAndReinvitations(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
		if err := s.CreateAccount(ctx, "asha@studio.example", "h", t0); err != nil {
			t.Fatal(err)
		}
		asha, _ := s.AccountByEmail(ctx, "asha@studio.example")
		for _, hash := range []string{"here", "there", "phone"} {
			if err := s.CreateSession(ctx, hash, asha.ID, t0, t0.Add(-time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.TouchSession(ctx, "there", t0.Add(time.Minute), "Firefox", "198.51.100.0/24"); err != nil {
			t.Fatal(err)
		}
		n, err := s.EndSessions(ctx, asha.ID, []string{"there", "phone", "nobody's"}, SessionEndedElsewhere, t0.Add(2*time.Minute))
		if err != nil || n != 2 {
			t.Fatalf("EndSessions = %d, %v; want 2", n, err)
		}
		if n, _ := s.EndSessions(ctx, asha.ID+1, []string{"here"}, SessionEndedElsewhere, t0); n != 0 {
			t.Error("another account's id ended a session")
		}
		ended, err := s.SessionBySecret(ctx, "there")
		if err != nil || !ended.Ended.Equal(t0.Add(2*time.Minute)) || ended.EndedWhy != SessionEndedElsewhere {
			t.Errorf("an ended session reads %+v, %v", ended, err)
		}
		s.TouchSession(ctx, "there", t0.Add(3*time.Minute), "Chrome", "x")
		list, err := s.AccountSessions(ctx, asha.ID)
		if err != nil || len(list) != 1 || list[0].SecretHash != "here" {
			t.Errorf("AccountSessions = %+v, %v; want only the live one", list, err)
		}
		if again, _ := s.SessionBySecret(ctx, "there"); !again.Seen.Equal(t0.Add(time.Minute)) {
			t.Error("an ended session was touched")
		}
		s.CreateSession(ctx, "later", asha.ID, t0.Add(time.Hour), t0.Add(2*time.Minute))
		if _, err := s.SessionBySecret(ctx, "there"); !errors.Is(err, ErrNoAccount) {
			t.Errorf("a stale ended session is still there: %v", err)
		}

		meera, err := s.InviteAccountBy(ctx, "Asha Mehta", "meera@studio.example", "Meera", RoleStaff, "!invited 1", t0)
		if err != nil || meera.InvitedBy != "Asha Mehta" {
			t.Fatalf("InviteAccountBy = %+v, %v", meera, err)
		}
		if err := s.Reinvite(ctx, meera.ID, "!invited 1", "!invited 2", "Ravi", t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := s.Reinvite(ctx, meera.ID, "!invited 1", "!invited 3", "Ravi", t0.Add(time.Hour)); !errors.Is(err, ErrNoAccount) {
			t.Errorf("a reinvitation over a password changed meanwhile: %v, want ErrNoAccount", err)
		}
		now, _ := s.AccountByID(ctx, meera.ID)
		mails, _ := s.RecentAccountMails(ctx, RecipientInvite, meera.ID, t0)
		if now.Password != "!invited 2" || now.InvitedBy != "Ravi" || mails != 2 {
			t.Errorf("after a new invitation: %q by %q, %d invitations queued", now.Password, now.InvitedBy, mails)
		}
	})
}
