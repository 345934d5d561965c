package mail

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store"
)

// Replies written in the inbox go to the customer as written: from the
// studio's address under the writer's name and the studio's, answered to
// the studio, in one conversation with the acknowledgement (each answers
// the one before, under "Re: " and the acknowledgement's subject), as the
// typed text and the same as HTML, with the PDF beside them.
func TestSendsRepliesInTheAcknowledgementsThread(t *testing.T) {
	srv := startSMTP(t)
	st := openStore(t, filepath.Join(t.TempDir(), "studio.db"))
	defer st.Close()
	w := testWorker(st, srv)
	defer run(t, w)()
	ctx := context.Background()
	id, err := st.CreateEnquiry(ctx, visitor, true)
	if err != nil {
		t.Fatal(err)
	}
	e, err := st.Enquiry(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	w.Wake()
	waitFor(t, "the studio's copy and the acknowledgement", func() bool { return len(srv.received()) == 2 })
	subject := e.ReplySubject(shipped.Site.Name)
	first := "Dear Asha,\n\nThank you: the quote follows."
	addReply(t, st, store.Reply{EnquiryID: id, Author: "meera@studio.test", AuthorName: "Meera Shah", To: visitor.Email, Subject: subject, Body: first, FormKey: "k1"})
	w.Wake()
	waitFor(t, "the first reply", func() bool { return len(srv.received()) == 3 })
	pdf := "%PDF-1.4\nthe quote\n"
	second := "Dear Asha,\n\nThe quote <for 2 chairs> & a table is attached: see https://example.com/q?a=1&b=2.\nOr write to meera@jharokha.test,\n\n\nMeera — मीरा"
	addReply(t, st, store.Reply{EnquiryID: id, Author: "meera@studio.test", AuthorName: "Meera Shah", To: visitor.Email, Subject: subject, Body: second,
		FormKey: "k2", AttachmentName: "Quote 12.pdf", Attachment: []byte(pdf)})
	w.Wake()
	waitFor(t, "the second reply", func() bool { return len(srv.received()) == 4 })

	list := srv.received()
	studio, ack, reply1, reply2 := parse(t, list[0]), parse(t, list[1]), parse(t, list[2]), parse(t, list[3])
	ackID := ack.Header.Get("Message-Id")
	if want := fmt.Sprintf("<enquiry-%d.", id); !strings.HasPrefix(ackID, want) || !strings.HasSuffix(ackID, "@jharokha.test>") {
		t.Fatalf("acknowledgement's Message-ID = %q, want %s…@jharokha.test>", ackID, want)
	}
	if got := decodedSubject(t, ack); "Re: "+got != subject {
		t.Errorf("acknowledgement's Subject = %q, replies' %q", got, subject)
	}
	if got := studio.Header.Get("References"); got != ackID || studio.Header.Get("In-Reply-To") != "" {
		t.Errorf("studio's copy: References %q, In-Reply-To %q; want the acknowledgement in References only", got, studio.Header.Get("In-Reply-To"))
	}
	id1 := reply1.Header.Get("Message-Id")
	checkThread(t, "first reply", reply1, ackID, ackID)
	checkThread(t, "second reply", reply2, id1, ackID+" "+id1)
	for _, m := range []*mail.Message{reply1, reply2} {
		if got := decodedSubject(t, m); got != subject {
			t.Errorf("Subject = %q, want %q", got, subject)
		}
		if from, err := mail.ParseAddress(m.Header.Get("From")); err != nil || from.Address != "site@jharokha.test" || from.Name != "Meera Shah, "+shipped.Site.Name {
			t.Errorf("From = %q", m.Header.Get("From"))
		}
		if rt, err := mail.ParseAddress(m.Header.Get("Reply-To")); err != nil || rt.Address != shipped.Site.Email {
			t.Errorf("Reply-To = %q, want the studio's address", m.Header.Get("Reply-To"))
		}
	}
	if ids := []string{ackID, studio.Header.Get("Message-Id"), id1, reply2.Header.Get("Message-Id")}; len(slices.Compact(slices.Sorted(slices.Values(ids)))) != 4 {
		t.Errorf("Message-IDs %q are not four", ids)
	}

	parts := leafParts(t, reply2.Header.Get("Content-Type"), reply2.Header.Get("Content-Transfer-Encoding"), reply2.Body)
	if len(parts) != 3 || parts[0].kind != "multipart/mixed>multipart/alternative>text/plain" || parts[1].kind != "multipart/mixed>multipart/alternative>text/html" ||
		parts[2].kind != "multipart/mixed>application/pdf" {
		t.Fatalf("parts %v, want the text and the HTML as alternatives, and the PDF beside them", parts)
	}
	text, page, attached := parts[0], parts[1], parts[2]
	if !strings.HasPrefix(text.body, second+"\n\n-- \n"+shipped.Site.Name+"\n") {
		t.Errorf("text part = %q, want the reply as typed, then the studio's signature", text.body)
	}
	for _, want := range []string{
		"<p style=\"margin:0 0 1em\">Dear Asha,</p>",
		"The quote &lt;for 2 chairs&gt; &amp; a table is attached: see <a href=\"https://example.com/q?a=1&amp;b=2\">https://example.com/q?a=1&amp;b=2</a>.<br>",
		"Or write to <a href=\"mailto:meera@jharokha.test\">meera@jharokha.test</a>,</p>",
		"Meera — मीरा</p>",
		shipped.Site.Name + "<br>",
		"<a href=\"mailto:" + shipped.Site.Email + "\">",
	} {
		if !strings.Contains(page.body, want) {
			t.Errorf("HTML part lacks %q:\n%s", want, page.body)
		}
	}
	if attached.filename != "Quote 12.pdf" || attached.body != pdf {
		t.Errorf("attachment %q = %q, want the PDF", attached.filename, attached.body)
	}
	waitFor(t, "sent recorded", func() bool { _, sent, _ := status(st); return sent == 4 })
}

func addReply(t *testing.T, st *store.Store, r store.Reply) {
	t.Helper()
	if _, err := st.AddReply(context.Background(), r, time.Now()); err != nil {
		t.Fatal(err)
	}
}

// checkThread checks that m answers inReplyTo and refers to references.
func checkThread(t *testing.T, what string, m *mail.Message, inReplyTo, references string) {
	t.Helper()
	if got := m.Header.Get("In-Reply-To"); got != inReplyTo {
		t.Errorf("%s: In-Reply-To = %q, want %q", what, got, inReplyTo)
	}
	// Unfolded (RFC 5322 2.2.3) and with single spaces between the ids.
	if got := strings.Join(strings.Fields(m.Header.Get("References")), " "); got != references {
		t.Errorf("%s: References = %q, want %q", what, got, references)
	}
}

// part is one leaf of a MIME message: its types from the top ("multipart/
// mixed>text/plain"), its file name and its decoded body.
type part struct{ kind, filename, body string }

// leafParts reads a MIME body into its leaves, in order, decoding
// quoted-printable and base64.
func leafParts(t *testing.T, contentType, encoding string, body io.Reader) []part {
	t.Helper()
	media, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		t.Fatalf("Content-Type %q: %v", contentType, err)
	}
	if !strings.HasPrefix(media, "multipart/") {
		b, err := io.ReadAll(body)
		if err != nil {
			t.Fatal(err)
		}
		switch strings.ToLower(encoding) {
		case "base64":
			b = []byte(decodeBase64(t, string(b)))
		case "quoted-printable":
			if b, err = io.ReadAll(qpReader(bytes.NewReader(b))); err != nil {
				t.Fatal(err)
			}
		}
		return []part{{kind: media, filename: params["name"], body: strings.ReplaceAll(string(b), "\r\n", "\n")}}
	}
	var leaves []part
	r := multipart.NewReader(body, params["boundary"])
	for {
		p, err := r.NextRawPart() // undecoded: quoted-printable is decoded above
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, leaf := range leafParts(t, p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p) {
			leaf.kind = media + ">" + leaf.kind
			if name := p.FileName(); name != "" {
				leaf.filename = name
			}
			leaves = append(leaves, leaf)
		}
	}
	return leaves
}

// A reply to a mailbox that does not exist fails at once, shown as given
// up (with the mail server's words) and the enquiry is untouched.
func TestBouncedReplyIsGivenUpAtOnce(t *testing.T) {
	srv := startSMTP(t)
	st := openStore(t, filepath.Join(t.TempDir(), "studio.db"))
	defer st.Close()
	w := testWorker(st, srv)
	w.MaxAttempts = 10
	defer run(t, w)()
	ctx := context.Background()
	id, err := st.CreateEnquiry(ctx, visitor, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddReply(ctx, store.Reply{EnquiryID: id, Author: "meera@studio.test", To: "nobody@bounce.invalid",
		Subject: "Re: chair", Body: "Hello", FormKey: "k"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	w.Wake()
	waitFor(t, "the reply given up", func() bool { _, _, failed := status(st); return failed == 1 })
	d, err := st.MailDeliveries(ctx, []int64{id})
	if err != nil {
		t.Fatal(err)
	}
	if got := d[id]; len(got) != 1 || got[0].Attempts != 1 || !strings.Contains(got[0].LastError, "no such mailbox") {
		t.Errorf("delivery = %+v, want failed after one attempt with the server's words", got)
	}
	e, _ := st.Enquiry(ctx, id)
	if e.Name != visitor.Name || e.Email != visitor.Email || e.Status != enquiry.Replied {
		t.Errorf("enquiry = %+v, want it as it was (replied)", e)
	}
}

func decodeBase64(t *testing.T, s string) string {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
