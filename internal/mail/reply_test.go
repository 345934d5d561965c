package mail

import (
	"context"
	"encoding/base64"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store"
)

// A reply written in the inbox goes to the customer as written: from the
// studio's address under the writer's name and the studio's, answered to
// the studio, with its PDF.
func TestSendsReply(t *testing.T) {
	srv := startSMTP(t)
	st := openStore(t, filepath.Join(t.TempDir(), "studio.db"))
	defer st.Close()
	w := testWorker(st, srv)
	defer run(t, w)()
	ctx := context.Background()
	id, err := st.CreateEnquiry(ctx, visitor, false)
	if err != nil {
		t.Fatal(err)
	}
	pdf := "%PDF-1.4\nthe quote\n"
	subject := "Re: Marwar chair — कुर्सी"
	if _, err := st.AddReply(ctx, store.Reply{EnquiryID: id, Author: "meera@studio.test", AuthorName: "Meera Shah", To: visitor.Email,
		Subject: subject, Body: "Dear Asha,\n\nThe quote is attached.\n\nMeera", FormKey: "k", AttachmentName: "Quote 12.pdf", Attachment: []byte(pdf)}, time.Now()); err != nil {
		t.Fatal(err)
	}
	w.Wake()
	waitFor(t, "the reply", func() bool { return len(srv.received()) == 1 })
	msg := byRecipient(t, srv.received(), visitor.Email)
	dec := new(mime.WordDecoder)
	if got, _ := dec.DecodeHeader(msg.Header.Get("Subject")); got != subject {
		t.Errorf("Subject = %q, want %q", got, subject)
	}
	if from, err := mail.ParseAddress(msg.Header.Get("From")); err != nil || from.Address != "site@jharokha.test" || from.Name != "Meera Shah, "+shipped.Site.Name {
		t.Errorf("From = %q", msg.Header.Get("From"))
	}
	if rt, err := mail.ParseAddress(msg.Header.Get("Reply-To")); err != nil || rt.Address != shipped.Site.Email {
		t.Errorf("Reply-To = %q, want the studio's address", msg.Header.Get("Reply-To"))
	}
	_, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || params["boundary"] == "" {
		t.Fatalf("Content-Type = %q, want multipart with the PDF", msg.Header.Get("Content-Type"))
	}
	parts := multipart.NewReader(msg.Body, params["boundary"])
	var text, attached string
	for {
		p, err := parts.NextPart() // decodes quoted-printable; base64 is read below
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p)
		switch {
		case p.FileName() != "":
			if p.FileName() != "Quote 12.pdf" || !strings.HasPrefix(p.Header.Get("Content-Type"), "application/pdf") {
				t.Errorf("attachment %q of type %q", p.FileName(), p.Header.Get("Content-Type"))
			}
			attached = decodeBase64(t, string(b))
		default:
			text = string(b)
		}
	}
	if !strings.Contains(text, "The quote is attached.") {
		t.Errorf("body = %q", text)
	}
	if attached != pdf {
		t.Errorf("attachment = %q, want the PDF", attached)
	}
	waitFor(t, "sent recorded", func() bool { _, sent, _ := status(st); return sent == 1 })
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
