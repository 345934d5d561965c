package workspace

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store"
	"studio/internal/store/testdb"
)

// A customer's page gathers every enquiry from their address, in any case,
// with its notes, replies and changes, and their newsletter sign-up, in
// time order; nobody else's.
func TestCustomerPage(t *testing.T) {
	st := testdb.SQLite(t)
	h := setupOn(t, st, func(o *Options) { o.WakeMail = func() {} })
	ctx := context.Background()
	day := time.Date(2026, 3, 2, 6, 0, 0, 0, time.UTC)
	first := add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Meera", Email: "meera@example.com", Phone: "98290 41752",
		Message: "Do you make beds?", CreatedAt: day})
	if _, err := st.Subscribe(ctx, "Meera@Example.com", false, day.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	second := add(t, st, enquiry.Enquiry{Kind: enquiry.Quote, Name: "Meera Rao", Email: "MEERA@example.com", ProductID: 1,
		ProductName: "Marwar chair", CreatedAt: day.Add(48 * time.Hour)})
	add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Someone else", Email: "ravi@example.com", Message: "Not Meera's", CreatedAt: day})
	if err := st.AddNote(ctx, first, asha, "Called her back", day.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddReply(ctx, store.Reply{EnquiryID: second, Author: asha, To: "meera@example.com", Subject: "Re: Marwar chair",
		Body: "The quote follows.", FormKey: "k", AttachmentName: "Quote 12.pdf", Attachment: []byte("%PDF-1.4 the quote")}, day.Add(50*time.Hour)); err != nil {
		t.Fatal(err)
	}
	c := signIn(t, h, asha, ashaPassword)

	// Linked from each enquiry.
	if body := do(h, "GET", "/studio/enquiries/"+itoa(first), nil, withCookie(c)).Body.String(); !strings.Contains(body, `href="/studio/customers?email=meera%40example.com"`) {
		t.Error("the enquiry does not link to its customer's page")
	}
	// An address of nobody: a clear answer, not every enquiry as one person's.
	for _, target := range []string{"/studio/customers", "/studio/customers?email=+"} {
		if w := do(h, "GET", target, nil, withCookie(c)); w.Code != http.StatusBadRequest || strings.Contains(w.Body.String(), "Someone else") || !strings.Contains(w.Body.String(), "The link names no e-mail address") {
			t.Errorf("%s: %d, want 400 naming no one:\n%s", target, w.Code, w.Body)
		}
	}
	w := do(h, "GET", "/studio/customers?email="+url.QueryEscape("Meera@Example.com"), nil, withCookie(c))
	body := html.UnescapeString(w.Body.String())
	if w.Code != http.StatusOK {
		t.Fatalf("customer page: %d %s", w.Code, body)
	}
	if strings.Contains(body, "Someone else") || strings.Contains(body, "Not Meera's") {
		t.Error("the page shows another customer's enquiry")
	}
	for _, want := range []string{"<h1>Meera Rao</h1>", "98290 41752", "Subscribed since 2 Mar 2026, 12:30 IST", "Asked about</dt><dd>Marwar chair</dd>"} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	// The timeline, in the order it happened.
	order := []string{"Meera sent message #" + itoa(first), "Do you make beds?", "Meera@Example.com signed up for the newsletter", asha + " added a note", "Called her back",
		"Meera Rao sent quote request #" + itoa(second) + " about Marwar chair", asha + " replied: Re: Marwar chair", "waiting to be sent", "Attached: Quote 12.pdf (18 bytes)", asha + " moved it from New to Replied"}
	at := 0
	for _, want := range order {
		i := strings.Index(body[at:], want)
		if i < 0 {
			t.Fatalf("the timeline lacks %q after %q", want, body[max(0, at-60):at])
		}
		at += i + len(want)
	}

	// Nobody by that address.
	if w := do(h, "GET", "/studio/customers?email=nobody@example.com", nil, withCookie(c)); w.Code != http.StatusNotFound {
		t.Errorf("an unknown address: %d, want 404", w.Code)
	}
	// Signed out: to sign in.
	if w := do(h, "GET", "/studio/customers?email=meera@example.com", nil); w.Code != http.StatusSeeOther {
		t.Errorf("signed out: %d, want a redirect to sign in", w.Code)
	}
}
