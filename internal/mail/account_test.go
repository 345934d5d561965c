package mail

import (
	"context"
	"io"
	"mime"
	"net/mail"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"studio/internal/accountlink"
	"studio/internal/store"
)

// An invitation reaches the invited address through the mail server, with
// a link on the server's address that the workspace accepts: signed
// for the account, valid 48 hours from the queueing, single use.
func TestInvitationCarriesAWorkingLink(t *testing.T) {
	srv := startSMTP(t)
	st := openStore(t, filepath.Join(t.TempDir(), "studio.db"))
	defer st.Close()
	ctx := context.Background()
	links := accountlink.NewSigner(st)
	cfg := testConfig(srv.addr.Port)
	cfg.AccountToken = links.Token
	w := newTestWorker(st, cfg)
	defer run(t, w)()
	queued := time.Now()
	a, err := st.InviteAccount(ctx, "meera@studio.example", "Meera", store.RoleStaff, "!invited x", queued)
	if err != nil {
		t.Fatal(err)
	}
	w.Wake()
	waitFor(t, "the invitation", func() bool { return len(srv.received()) == 1 })
	msg := byRecipient(t, srv.received(), "meera@studio.example")
	subject, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if !strings.Contains(subject, "invited") {
		t.Errorf("Subject = %q, want an invitation's", subject)
	}
	b, _ := io.ReadAll(qpReader(msg.Body))
	body := string(b)
	prefix := serverAddress + "/studio/set-password?token="
	start := strings.Index(body, prefix)
	if start < 0 || !strings.Contains(body, "Dear Meera") || !strings.Contains(body, "as staff") {
		t.Fatalf("body lacks the greeting, the role or a link starting %s:\n%s", prefix, body)
	}
	raw := strings.Fields(body[start:])[0]
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	l, err := accountlink.Parse(u.Query().Get("token"))
	if err != nil {
		t.Fatalf("the link's token %q: %v", u.Query().Get("token"), err)
	}
	if l.Purpose != accountlink.Invite || l.Account != a.ID || l.Expires.Unix() != queued.Add(48*time.Hour).Unix() {
		t.Errorf("link = %+v, want an invitation of account %d until %s", l, a.ID, queued.Add(48*time.Hour))
	}
	if err := links.Check(ctx, l, a, queued.Add(47*time.Hour)); err != nil {
		t.Errorf("the link within 48 hours: %v", err)
	}
	if err := links.Check(ctx, l, a, queued.Add(48*time.Hour)); err != accountlink.ErrExpired {
		t.Errorf("the link after 48 hours: %v, want ErrExpired", err)
	}
	a.Password = "$argon2id$the new one"
	if err := links.Check(ctx, l, a, queued); err != accountlink.ErrUsed {
		t.Errorf("the link once the password is set: %v, want ErrUsed", err)
	}
}

// A reset for an account removed meanwhile is given up, not retried.
func TestResetForAGoneAccountIsGivenUp(t *testing.T) {
	srv := startSMTP(t)
	st := openStore(t, filepath.Join(t.TempDir(), "studio.db"))
	defer st.Close()
	ctx := context.Background()
	cfg := testConfig(srv.addr.Port)
	cfg.AccountToken = accountlink.NewSigner(st).Token
	a, err := st.InviteAccount(ctx, "gone@studio.example", "", store.RoleStaff, "!invited x", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := st.QueueAccountMail(ctx, store.RecipientReset, a.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := st.RemoveAccount(ctx, a.Email); err != nil {
		t.Fatal(err)
	}
	w := newTestWorker(st, cfg)
	defer run(t, w)()
	w.Wake()
	waitFor(t, "both mails given up", func() bool { _, _, failed := status(st); return failed == 2 })
	if n := len(srv.received()); n != 0 {
		t.Errorf("%d mails sent for a removed account", n)
	}
}

// An invitation names the owner who sent it, and the studio (the
// content's name for it) once: "Asha Mehta invited you to Jharokha
// Studio's workspace", from "Jharokha Studio". A reset says the studio
// once too.
func TestAccountMailsNameTheInviterAndTheStudioOnce(t *testing.T) {
	srv := startSMTP(t)
	st := openStore(t, filepath.Join(t.TempDir(), "studio.db"))
	defer st.Close()
	ctx := context.Background()
	cfg := testConfig(srv.addr.Port)
	cfg.AccountToken = accountlink.NewSigner(st).Token
	w := newTestWorker(st, cfg)
	defer run(t, w)()
	studio := shipped.Site.Name
	a, err := st.InviteAccountBy(ctx, "Asha Mehta", "meera@studio.example", "Meera", store.RoleStaff, "!invited x", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := st.QueueAccountMail(ctx, store.RecipientReset, a.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	w.Wake()
	waitFor(t, "the invitation and the reset", func() bool { return len(srv.received()) == 2 })
	want := map[string][]string{
		"Asha Mehta invited you to " + studio + "'s workspace": {"Asha Mehta invited you to " + studio + "'s workspace, as staff", "ask Asha Mehta for a new invitation"},
		"Reset your password for " + studio + "'s workspace":   {"reset the password of meera@studio.example in " + studio + "'s workspace."},
	}
	for _, raw := range srv.received() {
		msg, err := mail.ReadMessage(strings.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		subject, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
		from, err := msg.Header.AddressList("From")
		b, _ := io.ReadAll(qpReader(msg.Body))
		body := string(b)
		if err != nil || len(from) != 1 || from[0].Name != studio {
			t.Errorf("%q: From = %v (%v), want the studio's name alone", subject, from, err)
		}
		lines, ok := want[subject]
		if !ok {
			t.Errorf("Subject = %q, want one of %v", subject, want)
			continue
		}
		for _, line := range lines {
			if !strings.Contains(strings.Join(strings.Fields(body), " "), line) {
				t.Errorf("%q: the body lacks %q:\n%s", subject, line, body)
			}
		}
		if strings.Contains(subject+body, studio+" studio") {
			t.Errorf("%q says the studio's name twice over:\n%s", subject, body)
		}
	}
}

// Without an inviter named (the studio's own account), an invitation says
// so plainly.
func TestAnInvitationWithoutAnInviter(t *testing.T) {
	subject, body := accountMailText("Jharokha Studio", store.RecipientInvite, store.Account{Role: store.RoleOwner}, "1 Dec 2026 10:00 IST", "https://x/l")
	if subject != "You are invited to Jharokha Studio's workspace" || !strings.Contains(body, "You are invited to Jharokha Studio's workspace, as an owner.") ||
		!strings.Contains(body, "ask the owner who invited you") {
		t.Errorf("subject %q, body:\n%s", subject, body)
	}
}
