package mail

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net"
	"net/mail"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	gomail "github.com/wneessen/go-mail"

	"studio/internal/enquiry"
	"studio/internal/store"
)

// These tests send through aiosmtpd (smtpd_test.go), the real SMTP server.

// sendThroughAiosmtpd stores e (mailed) and runs a worker until the
// server has taken want messages and the outbox says they were sent; it
// returns the messages, the server, the store and the enquiry's id.
func sendThroughAiosmtpd(t *testing.T, e enquiry.Enquiry, want int) ([]received, *aiosmtpd, *store.Store, int64) {
	t.Helper()
	srv := startAiosmtpd(t, smtpdOptions{auth: "site:pw"})
	st := openStore(t, filepath.Join(t.TempDir(), "studio.db"))
	t.Cleanup(func() { st.Close() })
	w := newTestWorker(st, testConfig(srv.port))
	stop := run(t, w)
	defer stop()
	id, err := st.CreateEnquiry(context.Background(), e, true)
	if err != nil {
		t.Fatal(err)
	}
	w.Wake()
	waitFor(t, fmt.Sprintf("%d messages at aiosmtpd", want), func() bool { return len(srv.messages(t)) >= want })
	waitFor(t, "sent recorded", func() bool { _, sent, _ := status(st); return sent >= want })
	return srv.messages(t), srv, st, id
}

// parse reads a raw message and checks every header line: at most 78
// characters (RFC 5322's SHOULD; 998 is its MUST), none but printable
// ASCII, so no header's value came through unencoded.
func parse(t *testing.T, raw string) *mail.Message {
	t.Helper()
	head, _, ok := strings.Cut(raw, "\r\n\r\n")
	if !ok {
		t.Fatalf("no end of header in %q", raw)
	}
	for _, line := range strings.Split(head, "\r\n") {
		if len(line) > 78 {
			t.Errorf("header line of %d characters: %q", len(line), line)
		}
		for _, b := range []byte(line) {
			if (b < ' ' && b != '\t') || b > '~' {
				t.Errorf("header line with byte %#x: %q", b, line)
				break
			}
		}
	}
	msg, err := mail.ReadMessage(strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return msg
}

func decodedSubject(t *testing.T, msg *mail.Message) string {
	t.Helper()
	s, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		t.Fatalf("Subject %q: %v", msg.Header.Get("Subject"), err)
	}
	return s
}

func body(t *testing.T, msg *mail.Message) string {
	t.Helper()
	if cte := msg.Header.Get("Content-Transfer-Encoding"); cte != "quoted-printable" {
		t.Errorf("Content-Transfer-Encoding = %q", cte)
	}
	if ct := msg.Header.Get("Content-Type"); !strings.EqualFold(ct, "text/plain; charset=utf-8") {
		t.Errorf("Content-Type = %q", ct)
	}
	b, err := io.ReadAll(qpReader(msg.Body))
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), "\r\n", "\n")
}

// pick returns the message whose envelope goes to address.
func pick(t *testing.T, list []received, address string) received {
	t.Helper()
	for _, r := range list {
		if slices.Equal(r.RcptTos, []string{address}) {
			return r
		}
	}
	t.Fatalf("no message for %s among %d", address, len(list))
	return received{}
}

// An enquiry's acknowledgement reaches the visitor: what the studio
// received and when, when the studio replies (service.json) and the
// studio's contact details (site.json) with the server's address, from
// SMTP_FROM with the studio's name, Reply-To the studio's e-mail.
func TestAcknowledgementReachesTheVisitor(t *testing.T) {
	list, _, st, id := sendThroughAiosmtpd(t, visitor, 2)
	if len(list) != 2 {
		t.Fatalf("%d messages, want the studio's copy and the acknowledgement", len(list))
	}
	studio := pick(t, list, "studio@jharokha.test")
	ack := pick(t, list, visitor.Email)
	for _, r := range list {
		if r.MailFrom != "site@jharokha.test" || r.Auth != "site" {
			t.Errorf("envelope from %q, authenticated as %q", r.MailFrom, r.Auth)
		}
	}
	if rt, err := mail.ParseAddress(parse(t, studio.Raw).Header.Get("Reply-To")); err != nil || rt.Name != visitor.Name || rt.Address != visitor.Email {
		t.Errorf("the studio's copy does not reply to the visitor: %+v, %v", rt, err)
	}

	msg := parse(t, ack.Raw)
	site := shipped.Site
	if from, err := mail.ParseAddress(msg.Header.Get("From")); err != nil || from.Name != site.Name || from.Address != "site@jharokha.test" {
		t.Errorf("From = %q, want %s <site@jharokha.test>", msg.Header.Get("From"), site.Name)
	}
	if to, err := mail.ParseAddress(msg.Header.Get("To")); err != nil || to.Address != visitor.Email {
		t.Errorf("To = %q", msg.Header.Get("To"))
	}
	if rt, err := mail.ParseAddress(msg.Header.Get("Reply-To")); err != nil || rt.Address != site.Email {
		t.Errorf("Reply-To = %q, want the studio's %s", msg.Header.Get("Reply-To"), site.Email)
	}
	if got := msg.Header.Get("Auto-Submitted"); got != "auto-replied" {
		t.Errorf("Auto-Submitted = %q", got)
	}
	if got, want := decodedSubject(t, msg), fmt.Sprintf("%s: we have your quote request (#%d)", site.Name, id); got != want {
		t.Errorf("Subject = %q, want %q", got, want)
	}
	if d, err := msg.Header.Date(); err != nil || time.Since(d) > time.Minute {
		t.Errorf("Date = %q", msg.Header.Get("Date"))
	}
	if !strings.HasSuffix(msg.Header.Get("Message-Id"), "@jharokha.test>") {
		t.Errorf("Message-ID = %q", msg.Header.Get("Message-Id"))
	}
	text := body(t, msg)
	wants := []string{
		"Thank you for your quote request about Marwar chair.",
		fmt.Sprintf("we reply within %d hours on business days", shipped.Service.EmailReplyHours),
		"This is what we received, on " + visitor.CreatedAt.In(site.Location).Format("2 Jan 2006 at 15:04 MST") + ":",
		fmt.Sprintf("Reference: Quote request #%d", id),
		"Product:   Marwar chair", "Material:  Wood", "Finish:    Walnut", "Message:   received (not repeated here)",
		"We will answer you at this address.",
		site.Name, "E-mail: " + site.Email, site.Address.Street, site.Address.PostalCode, site.Country, serverAddress + "\n",
	}
	for _, p := range site.Phones {
		wants = append(wants, p.Label+": "+p.Display)
	}
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("acknowledgement lacks %q:\n%s", want, text)
		}
	}
	if shipped.Service.EmailReplyHours == 0 || len(site.Phones) == 0 || site.Address.Street == "" {
		t.Fatal("the shipped content lacks the facts this test checks")
	}

	// The inbox sees both delivered.
	deliveries, err := st.MailDeliveries(context.Background(), []int64{id})
	if err != nil || len(deliveries[id]) != 2 {
		t.Fatalf("deliveries = %+v, %v", deliveries, err)
	}
	for i, want := range []string{store.RecipientStudio, store.RecipientVisitor} {
		if d := deliveries[id][i]; d.Recipient != want || d.State != store.MailSent || d.Attempts != 1 || d.LastError != "" {
			t.Errorf("delivery %d = %+v, want %s sent", i, d, want)
		}
	}
}

// A contact message (no product) gets an acknowledgement without product lines.
func TestAcknowledgementOfAMessage(t *testing.T) {
	e := enquiry.Enquiry{Kind: enquiry.Contact, Name: "Ravi", Email: "ravi@example.com", Message: "Do you ship to Pune?", CreatedAt: time.Now()}
	list, _, _, id := sendThroughAiosmtpd(t, e, 2)
	msg := parse(t, pick(t, list, "ravi@example.com").Raw)
	text := body(t, msg)
	if !strings.Contains(text, "Thank you for your message. It has reached") || !strings.Contains(text, fmt.Sprintf("Reference: Message #%d", id)) {
		t.Errorf("acknowledgement:\n%s", text)
	}
	for _, absent := range []string{"Product:", "Material:", "Finish:", "Phone:     "} {
		if strings.Contains(text, absent) {
			t.Errorf("acknowledgement has %q:\n%s", absent, text)
		}
	}
}

// Spam gets no acknowledgement, even if a caller asks for mail: the
// studio's copy goes, and nothing to the address the robot typed.
func TestNoAcknowledgementForSpam(t *testing.T) {
	e := visitor
	e.Spam = true
	_, srv, st, id := sendThroughAiosmtpd(t, e, 1)
	list := srv.messages(t)
	if len(list) != 1 || !slices.Equal(list[0].RcptTos, []string{"studio@jharokha.test"}) {
		t.Errorf("messages for spam: %+v", list)
	}
	// An acknowledgement would have been queued in the enquiry's own
	// transaction: the outbox, sent or not, holds the studio's copy only.
	if d, _ := st.MailDeliveries(context.Background(), []int64{id}); len(d[id]) != 1 {
		t.Errorf("deliveries for spam: %+v", d)
	}
}

// Long names, in any script, are encoded and folded: every header line of
// both mails at most 78 characters (aiosmtpd refuses a line over 1000
// bytes), and the Subject and Reply-To decode to what the visitor typed.
func TestLongNamesAreFolded(t *testing.T) {
	names := map[string]string{
		"Devanagari, 120 characters": strings.Repeat("अनन्या", 20),
		"Latin, no space":            strings.Repeat("x", 120),
		"Latin with spaces":          strings.TrimSpace(strings.Repeat("Asha Rao ", 13)),
		"Tamil and spaces":           strings.TrimSpace(strings.Repeat("அனன்யா ", 17)),
		"quotes and brackets":        `Asha "the architect" (Rao), Jr. <not@an.address>; extra, long enough to fold twice over the line`,
		"emoji":                      strings.Repeat("🪑", 120),
	}
	for label, name := range names {
		t.Run(label, func(t *testing.T) {
			e := visitor
			e.Name = name
			list, _, _, id := sendThroughAiosmtpd(t, e, 2)
			msg := parse(t, pick(t, list, "studio@jharokha.test").Raw)
			if got, want := decodedSubject(t, msg), fmt.Sprintf("Quote request #%d from %s: Marwar chair", id, name); got != want {
				t.Errorf("Subject decodes to %q, want %q", got, want)
			}
			rt, err := mail.ParseAddress(msg.Header.Get("Reply-To"))
			if err != nil || rt.Name != name || rt.Address != visitor.Email {
				t.Errorf("Reply-To %q parses to %+v, %v", msg.Header.Get("Reply-To"), rt, err)
			}
			// The acknowledgement goes to the address alone, and says nothing
			// of the name.
			ack := parse(t, pick(t, list, visitor.Email).Raw)
			if to := ack.Header.Get("To"); to != "<"+visitor.Email+">" || strings.Contains(body(t, ack), name) {
				t.Errorf("the acknowledgement carries the name: To %q, body\n%s", to, body(t, ack))
			}
		})
	}
}

// A name that looks like a MIME encoded word is encoded, so mail readers
// show it as typed instead of decoding it.
func TestEncodedWordLookingNameIsEncoded(t *testing.T) {
	for _, name := range []string{"=?utf-8?q?Admin?=", "=?UTF-8?B?QWRtaW4=?= Rao", "Asha =?iso-8859-1?q?=E9?="} {
		t.Run(name, func(t *testing.T) {
			e := visitor
			e.Name = name
			list, _, _, id := sendThroughAiosmtpd(t, e, 2)
			raw := pick(t, list, "studio@jharokha.test").Raw
			head, _, _ := strings.Cut(raw, "\r\n\r\n")
			if strings.Contains(head, name) {
				t.Errorf("the name went into the header as typed:\n%s", head)
			}
			msg := parse(t, raw)
			if got, want := decodedSubject(t, msg), fmt.Sprintf("Quote request #%d from %s: Marwar chair", id, name); got != want {
				t.Errorf("Subject decodes to %q, want %q", got, want)
			}
			if rt, err := mail.ParseAddress(msg.Header.Get("Reply-To")); err != nil || rt.Name != name {
				t.Errorf("Reply-To %q parses to %+v, %v", msg.Header.Get("Reply-To"), rt, err)
			}
		})
	}
}

// STARTTLS when the server offers it, and the password only over TLS.
func TestStartTLSWhenOffered(t *testing.T) {
	certFile, keyFile, pool := selfSigned(t)
	srv := startAiosmtpd(t, smtpdOptions{auth: "site:pw", certFile: certFile, keyFile: keyFile})
	st := openStore(t, filepath.Join(t.TempDir(), "studio.db"))
	defer st.Close()
	w := newTestWorker(st, testConfig(srv.port))
	w.tlsConfig = trusting(pool)
	defer run(t, w)()
	if _, err := st.CreateEnquiry(context.Background(), visitor, true); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "two messages", func() bool { return len(srv.messages(t)) == 2 })
	for _, r := range srv.messages(t) {
		if !r.TLS || r.Auth != "site" {
			t.Errorf("message to %v: TLS %v, authenticated as %q", r.RcptTos, r.TLS, r.Auth)
		}
	}
}

// Port 465 is TLS from the first byte (implicit TLS, RFC 8314). The test
// needs the port itself, which only root may open: elsewhere it is skipped.
func TestImplicitTLSOnPort465(t *testing.T) {
	if l, err := net.Listen("tcp", "127.0.0.1:465"); err != nil {
		t.Skipf("port 465 cannot be opened here: %v", err)
	} else {
		l.Close()
	}
	certFile, keyFile, pool := selfSigned(t)
	srv := startAiosmtpd(t, smtpdOptions{auth: "site:pw", certFile: certFile, keyFile: keyFile, implicitTLS: true, port: 465})
	st := openStore(t, filepath.Join(t.TempDir(), "studio.db"))
	defer st.Close()
	w := newTestWorker(st, testConfig(465))
	w.tlsConfig = trusting(pool)
	defer run(t, w)()
	if _, err := st.CreateEnquiry(context.Background(), visitor, true); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "two messages", func() bool { return len(srv.messages(t)) == 2 })
	for _, r := range srv.messages(t) {
		if !r.TLS || r.Auth != "site" {
			t.Errorf("message to %v: TLS %v, authenticated as %q", r.RcptTos, r.TLS, r.Auth)
		}
	}
}

// The test server is strict: a header line over 1000 bytes is refused.
// Without that, TestLongNamesAreFolded would prove little.
func TestAiosmtpdRefusesLongLines(t *testing.T) {
	srv := startAiosmtpd(t, smtpdOptions{})
	w := newTestWorker(nil, Config{Host: "127.0.0.1", Port: srv.port})
	msg := gomail.NewMsg()
	if err := msg.From("site@jharokha.test"); err != nil {
		t.Fatal(err)
	}
	if err := msg.To("studio@jharokha.test"); err != nil {
		t.Fatal(err)
	}
	msg.SetGenHeaderPreformatted(gomail.HeaderSubject, strings.Repeat("x", 1200))
	msg.SetBodyString(gomail.TypeTextPlain, "hello")
	err := w.send(context.Background(), msg)
	if err == nil || !strings.Contains(err.Error(), "Line too long") {
		t.Errorf("a 1200-byte header line: %v, want refused", err)
	}
	if n := len(srv.messages(t)); n != 0 {
		t.Errorf("%d messages taken", n)
	}
}

// The acknowledgement goes to whatever address was typed, so it repeats
// none of the visitor's words: not the name, the phone, the message or a
// piece's note, in the subject, any header or the body; its only links are
// the server's own.
func TestAcknowledgementRepeatsNoneOfTheVisitorsWords(t *testing.T) {
	words := []string{"Zanzibar", "Quentin", "pills.example", "xylophonic", "900 555", "marmalade", "note-link"}
	quote := visitor
	quote.ID, quote.Name, quote.Phone = 41, "Quentin Zanzibar", "+1 900 555 0199"
	quote.Message = "BUY CHEAP PILLS at https://pills.example/buy?now=1 and www.pills.example: a xylophonic offer"
	contact := enquiry.Enquiry{ID: 42, Kind: enquiry.Contact, Name: "Visit https://pills.example now", Email: "stranger@example.com",
		Message: "xylophonic https://pills.example", CreatedAt: time.Now()}
	list := shortlist
	list.ID, list.Name = 43, "Quentin Zanzibar"
	list.Items = append([]enquiry.Item(nil), list.Items...)
	list.Items[0].Note = "visit https://note-link.example/x for marmalade"
	for _, e := range []enquiry.Enquiry{quote, contact, list} {
		raw, err := compose(testConfig(25), store.PendingMail{Recipient: store.RecipientVisitor, Enquiry: e}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		msg := parse(t, string(raw))
		var text strings.Builder
		for name, values := range msg.Header {
			for _, v := range values {
				decoded, err := new(mime.WordDecoder).DecodeHeader(v)
				if err != nil {
					t.Fatalf("%s: %q: %v", name, v, err)
				}
				fmt.Fprintf(&text, "%s: %s\n", name, decoded)
			}
		}
		text.WriteString(body(t, msg))
		for _, w := range words {
			if strings.Contains(text.String(), w) {
				t.Errorf("the acknowledgement of #%d repeats %q:\n%s", e.ID, w, text.String())
			}
		}
		for _, l := range links(t, string(raw)) {
			if l != serverAddress {
				t.Errorf("the acknowledgement of #%d has the link %s", e.ID, l)
			}
		}
		if !strings.Contains(text.String(), "We will answer you at this address.") || !strings.Contains(text.String(), fmt.Sprintf("#%d", e.ID)) {
			t.Errorf("the acknowledgement of #%d does not say what was received:\n%s", e.ID, text.String())
		}
	}
}

// An address has at most three acknowledgements a day: a fourth enquiry
// from it is stored, and the studio gets its copy, but nothing more goes
// to the address.
func TestFourthAcknowledgementInADayIsNotSent(t *testing.T) {
	srv := startAiosmtpd(t, smtpdOptions{auth: "site:pw"})
	st := openStore(t, filepath.Join(t.TempDir(), "studio.db"))
	defer st.Close()
	w := newTestWorker(st, testConfig(srv.port))
	defer run(t, w)()
	ctx := context.Background()
	var ids []int64
	for i := range store.AcknowledgementsPerDay + 1 {
		e := visitor
		e.CreatedAt = time.Now().Add(time.Duration(i-store.AcknowledgementsPerDay) * time.Hour)
		id, err := st.CreateEnquiry(ctx, e, true)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	w.Wake()
	// Everything the outbox holds is sent: no mail is still to come.
	want := 2*store.AcknowledgementsPerDay + 1
	waitFor(t, "the mails sent", func() bool { pending, sent, _ := status(st); return pending == 0 && sent == want })
	list := srv.messages(t)
	acks := 0
	for _, m := range list {
		if slices.Equal(m.RcptTos, []string{visitor.Email}) {
			acks++
		}
	}
	if len(list) != want || acks != store.AcknowledgementsPerDay {
		t.Errorf("%d messages, %d of them to the visitor; want %d and %d", len(list), acks, want, store.AcknowledgementsPerDay)
	}
	last := ids[len(ids)-1]
	if e, err := st.Enquiry(ctx, last); err != nil || e.Email != visitor.Email {
		t.Errorf("the fourth enquiry: %+v, %v; want it stored", e, err)
	}
	if d, _ := st.MailDeliveries(ctx, []int64{last}); len(d[last]) != 1 || d[last][0].Recipient != store.RecipientStudio {
		t.Errorf("the fourth enquiry's mails: %+v, want the studio's copy alone", d[last])
	}
}
