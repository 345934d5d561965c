package inbox

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store"
	"studio/internal/workspace/page"
)

// One page per customer, by e-mail address: everything they sent and
// everything the studio did about it, in time order.

// maxCustomerEnquiries bounds one customer's page; a person who sent more
// is a robot, and its enquiries are in the inbox.
const maxCustomerEnquiries = 500

var customerPage = newPage("customer.html")

type customerView struct {
	page.Frame
	Email      string
	Name       string   // the name of their newest enquiry
	Phones     []string // every phone they gave, newest first
	Enquiries  []enquiry.Enquiry
	Pieces     []string            // what they asked about, in the order they first did
	Newsletter *store.Subscription // nil: never signed up
	Timeline   []customerEvent
	Erase      string // the erasure's address; "" when this account cannot erase
}

// customerEvent is one line of a customer's timeline.
type customerEvent struct {
	At        time.Time
	EnquiryID int64  // 0: about no enquiry (the newsletter)
	What      string // what happened, in words
	Text      string // what was written (a message, a note, a reply)
	Mail      *store.MailDelivery
	// A reply's attachment: its file name ("" for none) and size.
	Attachment     string
	AttachmentSize int64
}

// Customer is GET /studio/customers?email=….
func (h *Handler) Customer(w http.ResponseWriter, r *http.Request) {
	email := enquiry.EmailKey(strings.TrimSpace(r.URL.Query().Get("email")))
	if email == "" {
		// No address would list every enquiry as one person's.
		h.kit.Fail(w, r, http.StatusBadRequest, "Which customer?", "The link names no e-mail address: open a customer from one of their enquiries.", "/studio")
		return
	}
	ctx := r.Context()
	p := &customerView{Frame: page.Frame{Title: email}, Email: email}
	enquiries, err := h.customers.Enquiries(ctx, store.EnquiryFilter{Email: email, AllSpam: true, Limit: maxCustomerEnquiries})
	var sub store.Subscription
	var subscribed bool
	if err == nil {
		sub, subscribed, err = h.customers.SubscriptionOf(ctx, email)
	}
	if err == nil && len(enquiries) == 0 && !subscribed {
		h.kit.Fail(w, r, http.StatusNotFound, "Not found", "Nothing from "+email+": no enquiry, and not on the newsletter list.", "")
		return
	}
	if err == nil {
		p.Timeline, err = h.timeline(ctx, enquiries)
	}
	if err != nil {
		h.kit.Log.Error("studio: read customer", "err", err)
		h.kit.Fail(w, r, http.StatusServiceUnavailable, "Customer", "This customer cannot be read just now: the database did not answer. Try again in a minute.", "")
		return
	}
	p.Enquiries = enquiries
	if len(enquiries) > 0 {
		p.Name = enquiries[0].Name
		p.Title = p.Name + " (" + email + ")"
	}
	for _, e := range enquiries {
		if e.Phone != "" && !slices.Contains(p.Phones, e.Phone) {
			p.Phones = append(p.Phones, e.Phone)
		}
	}
	for _, e := range slices.Backward(enquiries) {
		for _, piece := range piecesOf(e) {
			if !slices.Contains(p.Pieces, piece) {
				p.Pieces = append(p.Pieces, piece)
			}
		}
	}
	if subscribed {
		p.Newsletter = &sub
		p.Timeline = append(p.Timeline, customerEvent{At: sub.SignedUp, What: sub.Email + " signed up for the newsletter"})
		if sub.Confirmed != nil && !sub.Confirmed.Equal(sub.SignedUp) {
			p.Timeline = append(p.Timeline, customerEvent{At: *sub.Confirmed, What: sub.Email + " confirmed the newsletter sign-up"})
		}
		if sub.Unsubscribed != nil {
			p.Timeline = append(p.Timeline, customerEvent{At: *sub.Unsubscribed, What: sub.Email + " unsubscribed from the newsletter"})
		}
	}
	// In time order; what happened at one moment (a reply and the move to
	// Replied) in the order it was recorded.
	slices.SortStableFunc(p.Timeline, func(a, b customerEvent) int { return a.At.Compare(b.At) })
	if page.Account(r).Role == store.RoleOwner {
		p.Erase = "/studio/customers/erase?" + url.Values{"email": {email}, "return": {customerURL(email)}}.Encode()
	}
	h.pages.Render(w, r, http.StatusOK, customerPage, p)
}

// timeline is what happened with the enquiries: each received, its notes,
// its replies with their delivery, and the changes of its status.
func (h *Handler) timeline(ctx context.Context, enquiries []enquiry.Enquiry) ([]customerEvent, error) {
	ids := make([]int64, len(enquiries))
	for i, e := range enquiries {
		ids[i] = e.ID
	}
	history, err := h.customers.HistoryOf(ctx, ids)
	if err != nil {
		return nil, err
	}
	notes, err := h.customers.NotesOf(ctx, ids)
	if err != nil {
		return nil, err
	}
	replies, err := h.customers.Replies(ctx, ids)
	if err != nil {
		return nil, err
	}
	deliveries, err := h.customers.MailDeliveries(ctx, ids)
	if err != nil {
		return nil, err
	}
	var events []customerEvent
	for _, e := range enquiries {
		what := e.Name + " sent " + strings.ToLower(e.Kind.Title()) + " #" + strconv.FormatInt(e.ID, 10)
		if piece := pieceOf(e); piece != "" {
			what += " about " + piece
		}
		if e.Spam {
			what += " (spam)"
		}
		events = append(events, customerEvent{At: e.CreatedAt, EnquiryID: e.ID, What: what, Text: e.Message})
		for _, n := range notes[e.ID] {
			events = append(events, customerEvent{At: n.At, EnquiryID: e.ID, What: n.Author + " added a note", Text: n.Body})
		}
	}
	byReply, _ := replyMails(slices.Concat(slices.Collect(maps.Values(deliveries))...))
	for _, rp := range replies {
		events = append(events, customerEvent{At: rp.CreatedAt, EnquiryID: rp.EnquiryID, What: rp.Author + " replied: " + rp.Subject, Text: rp.Body, Mail: byReply[rp.ID],
			Attachment: rp.AttachmentName, AttachmentSize: rp.AttachmentSize})
	}
	for _, ev := range history {
		switch ev.Action {
		case store.ActionStatus, store.ActionSpam, store.ActionUndo:
			events = append(events, customerEvent{At: ev.At, EnquiryID: ev.EnquiryID, What: ev.Actor + " " + eventText(ev)})
		}
	}
	return events, nil
}
