package mail

import (
	"context"
	"io"
	"mime"
	"net/mail"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"studio/internal/enquiry"
	"studio/internal/newsletter"
	"studio/internal/store"
)

var linkKey = []byte("a newsletter key of 32 bytes....")

// checkLink parses a mailed link and checks that it leads to purpose's
// page on the server's address, signed for address.
func checkLink(t *testing.T, link, purpose, address string) {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatalf("link %q: %v", link, err)
	}
	base, _ := url.Parse(serverAddress)
	if u.Scheme != base.Scheme || u.Host != base.Host || u.Path != newsletter.Path(purpose) {
		t.Errorf("link %q does not lead to %s on %s", link, newsletter.Path(purpose), serverAddress)
	}
	if e := u.Query().Get("e"); e != address || !newsletter.Valid(linkKey, purpose, e, u.Query().Get("s")) {
		t.Errorf("link %q is not a signed %s link for %s", link, purpose, address)
	}
}

func TestConfirmationMail(t *testing.T) {
	srv := startSMTP(t)
	st := openStore(t, filepath.Join(t.TempDir(), "studio.db"))
	defer st.Close()
	cfg := testConfig(srv.addr.Port)
	cfg.LinkKey = linkKey
	w := newTestWorker(st, cfg)
	defer run(t, w)()
	if _, err := st.Subscribe(context.Background(), "mira@example.com", true, time.Now()); err != nil {
		t.Fatal(err)
	}
	w.Wake()
	waitFor(t, "the confirmation", func() bool { return len(srv.received()) == 1 })
	msg := byRecipient(t, srv.received(), "mira@example.com")
	subject, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if want := shipped.Site.Name + ": please confirm your subscription"; subject != want {
		t.Errorf("Subject = %q, want %q", subject, want)
	}
	// RFC 8058: the link to POST to, and the word that says a POST is one click.
	unsubscribe := msg.Header.Get("List-Unsubscribe")
	if !strings.HasPrefix(unsubscribe, "<") || !strings.HasSuffix(unsubscribe, ">") {
		t.Fatalf("List-Unsubscribe = %q, want <link>", unsubscribe)
	}
	checkLink(t, strings.Trim(unsubscribe, "<>"), newsletter.Unsubscribe, "mira@example.com")
	if got := msg.Header.Get("List-Unsubscribe-Post"); got != "List-Unsubscribe=One-Click" {
		t.Errorf("List-Unsubscribe-Post = %q", got)
	}
	raw, _ := io.ReadAll(qpReader(msg.Body))
	body := string(raw)
	links := regexp.MustCompile(`https?://\S+`).FindAllString(body, -1)
	var confirm, stop string
	for _, l := range links {
		switch {
		case strings.Contains(l, newsletter.Path(newsletter.Confirm)):
			confirm = l
		case strings.Contains(l, newsletter.Path(newsletter.Unsubscribe)):
			stop = l
		}
	}
	if confirm == "" || stop == "" {
		t.Fatalf("the body lacks a link to confirm or to unsubscribe:\n%s", body)
	}
	checkLink(t, confirm, newsletter.Confirm, "mira@example.com")
	if stop != strings.Trim(unsubscribe, "<>") {
		t.Errorf("the body's unsubscribe link %q is not the header's %q", stop, unsubscribe)
	}
	waitFor(t, "sent recorded", func() bool { _, sent, _ := status(st); return sent == 1 })
}

func TestAcknowledgementToASubscriberCarriesUnsubscribe(t *testing.T) {
	srv := startSMTP(t)
	st := openStore(t, filepath.Join(t.TempDir(), "studio.db"))
	defer st.Close()
	cfg := testConfig(srv.addr.Port)
	cfg.LinkKey = linkKey
	w := newTestWorker(st, cfg)
	defer run(t, w)()
	ctx := context.Background()
	// Asha is a confirmed subscriber (signed up without mail: at once); Ravi is not.
	if _, err := st.Subscribe(ctx, "Asha@Example.com", false, time.Now()); err != nil {
		t.Fatal(err)
	}
	ravi := visitor
	ravi.Name, ravi.Email = "Ravi", "ravi@example.com"
	for _, e := range []enquiry.Enquiry{visitor, ravi} {
		if _, err := st.CreateEnquiry(ctx, e, true); err != nil {
			t.Fatal(err)
		}
	}
	w.Wake()
	waitFor(t, "four mails", func() bool { return len(srv.received()) == 4 })
	ack := byRecipient(t, srv.received(), visitor.Email)
	checkLink(t, strings.Trim(ack.Header.Get("List-Unsubscribe"), "<>"), newsletter.Unsubscribe, visitor.Email)
	if got := ack.Header.Get("List-Unsubscribe-Post"); got != "List-Unsubscribe=One-Click" {
		t.Errorf("List-Unsubscribe-Post = %q", got)
	}
	if body, _ := io.ReadAll(qpReader(ack.Body)); !strings.Contains(string(body), "To stop the studio's newsletter: "+strings.Trim(ack.Header.Get("List-Unsubscribe"), "<>")) {
		t.Errorf("the acknowledgement's body lacks the way out:\n%s", body)
	}
	// Not a subscriber, or the studio itself: no list headers.
	for _, m := range srv.received() {
		msg, err := mail.ReadMessage(strings.NewReader(m))
		if err != nil {
			t.Fatal(err)
		}
		if to, _ := mail.ParseAddress(msg.Header.Get("To")); to.Address != visitor.Email && msg.Header.Get("List-Unsubscribe") != "" {
			t.Errorf("the mail to %s has List-Unsubscribe %q", to, msg.Header.Get("List-Unsubscribe"))
		}
	}
}

func TestReplyToASubscriberCarriesUnsubscribe(t *testing.T) {
	// Composed only: the reply's delivery is tested with the outbox.
	cfg := testConfig(25)
	cfg.LinkKey = linkKey
	raw, err := compose(cfg, pendingReply("asha@example.com", true), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	msg, err := mail.ReadMessage(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	checkLink(t, strings.Trim(msg.Header.Get("List-Unsubscribe"), "<>"), newsletter.Unsubscribe, "asha@example.com")
	raw, err = compose(cfg, pendingReply("asha@example.com", false), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), "List-Unsubscribe") {
		t.Error("a reply to someone not subscribed has List-Unsubscribe")
	}
}

func pendingReply(to string, subscribed bool) store.PendingMail {
	e := visitor
	e.ID = 7
	return store.PendingMail{ID: 1, Recipient: store.RecipientReply, Enquiry: e, Subscribed: subscribed,
		Reply: &store.Reply{ID: 3, EnquiryID: 7, Author: "owner@jharokha.test", To: to, Subject: "Re: your quote", Body: "Dear Asha,\nyes.\n"}}
}
