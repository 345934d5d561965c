package mail

import (
	"context"
	"io"
	"net/mail"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"studio/internal/accountlink"
	"studio/internal/sitecontent"
	"studio/internal/store"
)

// links lists the http(s) links of a raw message, in its body (decoded)
// and its List-Unsubscribe header (a URL, unfolded: longer than parse
// allows a header line).
func links(t *testing.T, raw string) []string {
	t.Helper()
	msg, err := mail.ReadMessage(strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(qpReader(msg.Body))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b) + "\n" + strings.Trim(msg.Header.Get("List-Unsubscribe"), "<>")
	return regexp.MustCompile(`https?://[^\s<>]+`).FindAllString(text, -1)
}

// Content's baseUrl is another site's, as staff may make it in a draft
// and publish: no mailed link follows it. Invitations, resets, the
// newsletter's confirmation and way out, the inbox's link and the
// acknowledgement's signature all lead to the server's own address.
func TestMailedLinksAreTheServersNotContents(t *testing.T) {
	srv := startSMTP(t)
	st := openStore(t, filepath.Join(t.TempDir(), "studio.db"))
	defer st.Close()
	ctx := context.Background()
	published := *shipped
	published.Site.BaseURL = "https://another-site.example"
	cfg := testConfig(srv.addr.Port)
	cfg.Site.BaseURL = "https://a-draft.example" // what the worker started with
	cfg.Live = func() *sitecontent.Content { return &published }
	cfg.AccountToken, cfg.LinkKey = accountlink.NewSigner(st).Token, linkKey
	w := newTestWorker(st, cfg)
	defer run(t, w)()

	a, err := st.InviteAccount(ctx, "meera@studio.example", "Meera", store.RoleOwner, "!invited x", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	must(t, st.QueueAccountMail(ctx, store.RecipientReset, a.ID, time.Now()))
	if _, err := st.Subscribe(ctx, "mira@example.com", true, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Subscribe(ctx, visitor.Email, false, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateEnquiry(ctx, visitor, true); err != nil {
		t.Fatal(err)
	}
	w.Wake()
	// The invitation, the reset, the confirmation, the studio's copy and
	// the acknowledgement.
	waitFor(t, "five mails", func() bool { return len(srv.received()) == 5 })
	for _, raw := range srv.received() {
		found := links(t, raw)
		if len(found) == 0 {
			t.Errorf("a mail without links:\n%s", raw)
		}
		for _, l := range found {
			if !strings.HasPrefix(l, serverAddress+"/") && l != serverAddress {
				t.Errorf("link %s is not on the server's address %s", l, serverAddress)
			}
		}
		if strings.Contains(raw, "another-site") || strings.Contains(raw, "a-draft") {
			t.Errorf("a mail names content's baseUrl:\n%s", raw)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Without PUBLIC_URL or DOMAIN the links lead to the address an owner
// last signed in at (store.SignInAddress). Before anyone has, a reset
// waits for one, and the studio's copy of an enquiry goes at once with
// its inbox link as a path.
func TestLinksWaitForTheSignInAddress(t *testing.T) {
	srv := startSMTP(t)
	st := openStore(t, filepath.Join(t.TempDir(), "studio.db"))
	defer st.Close()
	ctx := context.Background()
	cfg := testConfig(srv.addr.Port)
	cfg.AccountToken, cfg.LinkBase = accountlink.NewSigner(st).Token, st.SignInAddress
	w := newTestWorker(st, cfg)
	w.MaxAttempts = 1 << 30 // the reset must still be waiting when the address comes
	defer run(t, w)()

	a, err := st.InviteAccount(ctx, "meera@studio.example", "Meera", store.RoleOwner, "!invited x", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	e := visitor
	e.Email = "nobody@example.com"
	id, err := st.CreateEnquiry(ctx, e, true)
	if err != nil {
		t.Fatal(err)
	}
	w.Wake()
	// The server's receipt comes before the worker records a mail sent:
	// wait for both records, not only for the two arrivals.
	waitFor(t, "the enquiry's two mails sent, and the invitation tried", func() bool {
		f, _ := st.MailFigures(ctx)
		return len(srv.received()) == 2 && f.Sent == 2 && f.FailedAttempts > 0
	})
	studio := body(t, parse(t, pick(t, toReceived(t, srv.received()), "studio@jharokha.test").Raw))
	if !strings.Contains(studio, "In the studio's inbox: /studio/enquiries/"+itoa(id)+"\n") {
		t.Errorf("the studio's copy without an address:\n%s", studio)
	}
	if pending, _, failed := status(st); pending != 1 || failed != 0 {
		t.Fatalf("%d mails pending, %d given up: want the invitation waiting", pending, failed)
	}

	must(t, st.RecordSignInAddress(ctx, "http://trial.studio.test:8080", time.Now()))
	w.Wake()
	waitFor(t, "the invitation", func() bool { return len(srv.received()) == 3 })
	invitation := body(t, parse(t, pick(t, toReceived(t, srv.received()), a.Email).Raw))
	if !strings.Contains(invitation, "\nhttp://trial.studio.test:8080/studio/set-password?token=") {
		t.Errorf("the invitation's link is not on the address signed in at:\n%s", invitation)
	}
}

// toReceived gives the small server's messages the envelope pick reads
// (the To header's address).
func toReceived(t *testing.T, raws []string) []received {
	t.Helper()
	var list []received
	for _, raw := range raws {
		msg, err := mail.ReadMessage(strings.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		list = append(list, received{Raw: raw, RcptTos: []string{strings.Trim(msg.Header.Get("To"), "<>")}})
	}
	return list
}
