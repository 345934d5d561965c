package store

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"studio/internal/enquiry"
)

// A reply is stored with its mail and its line in the history, in one
// go; a New enquiry moves to Replied (an undoable change of the
// author's); the same form sent twice is one reply; an enquiry further
// along keeps its status.
func TestAddReply(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		id, err := s.CreateEnquiry(ctx, sample(enquiry.Quote, "Asha"), false)
		must(t, err)
		pdf := []byte("%PDF-1.4 a quote")
		r := Reply{EnquiryID: id, Author: "meera@studio.test", AuthorName: "Meera", To: "asha@example.com", Subject: "Re: Marwar chair",
			Body: "Dear Asha,\nthe quote is attached.", FormKey: "k1", AttachmentName: "quote.pdf", Attachment: pdf}
		sent, err := s.AddReply(ctx, r, t0.Add(time.Minute))
		if err != nil || !sent {
			t.Fatalf("AddReply = %v, %v; want sent", sent, err)
		}
		// Sent again: nothing more.
		if sent, err := s.AddReply(ctx, r, t0.Add(2*time.Minute)); err != nil || sent {
			t.Fatalf("the same form again = %v, %v; want not sent", sent, err)
		}
		e, err := s.Enquiry(ctx, id)
		must(t, err)
		if e.Status != enquiry.Replied {
			t.Errorf("status = %s, want replied", e.Status)
		}
		history, err := s.History(ctx, id)
		must(t, err)
		var lines []string
		for _, ev := range history {
			lines = append(lines, fmt.Sprintf("%s %s %s→%s", ev.Actor, ev.Action, ev.From, ev.To))
		}
		replies, err := s.Replies(ctx, []int64{id})
		must(t, err)
		if len(replies) != 1 {
			t.Fatalf("%d replies stored, want 1", len(replies))
		}
		want := fmt.Sprint([]string{fmt.Sprintf("meera@studio.test reply →%d", replies[0].ID), "meera@studio.test status new→replied"})
		if got := fmt.Sprint(lines); got != want {
			t.Errorf("history = %s, want %s", got, want)
		}
		if _, undoable, err := s.LastChange(ctx, id); err != nil || !undoable {
			t.Errorf("the move to Replied cannot be undone: %v", err)
		}
		due, err := s.DueMails(ctx, t0.Add(time.Hour), 10)
		must(t, err)
		if len(due) != 1 || due[0].Recipient != RecipientReply || due[0].Reply == nil || due[0].Enquiry.ID != id {
			t.Fatalf("outbox = %+v, want the reply's mail about enquiry %d", due, id)
		}
		got := due[0].Reply
		if !bytes.Equal(got.Attachment, pdf) || got.Body != r.Body || got.AuthorName != "Meera" || got.To != r.To {
			t.Errorf("the mail's reply = %+v, want what was written", got)
		}
		deliveries, err := s.MailDeliveries(ctx, []int64{id})
		must(t, err)
		if d := deliveries[id]; len(d) != 1 || d[0].Ref != replies[0].ID || d[0].State != MailPending {
			t.Errorf("deliveries = %+v, want the reply's, pending", d)
		}

		// Quoted already: a second reply leaves the status as it is.
		must(t, s.SetStatus(ctx, id, enquiry.Quoted, "meera@studio.test", t0.Add(3*time.Minute)))
		r.FormKey = "k2"
		if sent, err := s.AddReply(ctx, r, t0.Add(4*time.Minute)); err != nil || !sent {
			t.Fatalf("second reply = %v, %v", sent, err)
		}
		if e, _ := s.Enquiry(ctx, id); e.Status != enquiry.Quoted {
			t.Errorf("status = %s after a reply to a quoted enquiry, want quoted", e.Status)
		}
		// The second reply's mail answers the first; the list says how big
		// each one's attachment is, without reading it.
		replies, err = s.Replies(ctx, []int64{id})
		must(t, err)
		if len(replies) != 2 || replies[0].AttachmentSize != int64(len(pdf)) || replies[0].Attachment != nil {
			t.Fatalf("replies = %+v, want two, the first with its attachment's size alone", replies)
		}
		due, err = s.DueMails(ctx, t0.Add(time.Hour), 10)
		must(t, err)
		if len(due) != 2 || due[1].Reply == nil || due[1].Reply.ID != replies[1].ID || fmt.Sprint(due[1].EarlierReplies) != fmt.Sprint([]int64{replies[0].ID}) ||
			len(due[0].EarlierReplies) != 0 {
			t.Errorf("outbox = %+v, want the second reply's mail after the first", due)
		}
		// No enquiry, no reply.
		r.EnquiryID, r.FormKey = id+100, "k3"
		if _, err := s.AddReply(ctx, r, t0); err != enquiry.ErrNotFound {
			t.Errorf("reply to no enquiry: %v, want ErrNotFound", err)
		}
		// Deleting the enquiry takes its replies.
		must(t, s.DeleteEnquiry(ctx, id, "meera@studio.test", t0.Add(5*time.Minute)))
		if replies, _ := s.Replies(ctx, []int64{id}); len(replies) != 0 {
			t.Errorf("%d replies outlived their enquiry", len(replies))
		}
	})
}
