package mail

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"studio/internal/enquiry"
	"studio/internal/store"
)

// The outbox holds two kinds of mail about an enquiry (store.PendingMail's
// Recipient says which):
//
//   - the studio's copy, to Config.To, with the visitor as Reply-To, so
//     that answering it answers the visitor;
//   - the acknowledgement, to the visitor's address: thanks, what the
//     studio received (none of the visitor's words), when the studio
//     replies (content/service.json) and how to reach the studio
//     (content/site.json), with the studio's e-mail as Reply-To.
//
// Both are plain text in UTF-8, quoted-printable, composed with go-mail;
// so are the replies the studio writes in the inbox, which add the same
// text as HTML. All of them are one conversation (thread.go).
// Every header built from what a visitor typed is encoded and folded in
// headers.go; the visitor's words otherwise go in the body only.

// errNoAddress holds back a mail whose link needs the server's address
// before one is known (a reset asked for before any owner signed in): it
// is tried again later, like a mail server that does not answer.
var errNoAddress = errors.New("no address to start the mail's link with yet: set PUBLIC_URL (or DOMAIN), or sign in to the workspace as an owner")

// message composes the mail m: the studio's copy or the acknowledgement.
func (c Config) message(m store.PendingMail, now time.Time) (*gomail.Msg, error) {
	if c.LinkBase != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		base, err := c.LinkBase(ctx)
		cancel()
		if err != nil {
			return nil, err // the database did not answer: tried again later
		}
		c.linkBase = strings.TrimRight(base, "/")
	}
	switch m.Recipient {
	case store.RecipientStudio:
		return c.studioCopy(m.Enquiry, now)
	case store.RecipientVisitor:
		return c.acknowledgement(m.Enquiry, m.Subscribed, now)
	case store.RecipientReply:
		if m.Reply == nil {
			return nil, fmt.Errorf("%w: the reply is gone", errPermanent)
		}
		return c.reply(m.Enquiry, *m.Reply, m.EarlierReplies, m.Subscribed, now)
	case store.RecipientInvite, store.RecipientReset:
		return c.accountMail(m, now)
	case store.RecipientConfirm:
		if m.Subscriber == nil {
			return nil, fmt.Errorf("%w: the subscriber is gone", errPermanent)
		}
		return c.confirmation(*m.Subscriber, now)
	}
	return nil, fmt.Errorf("%w: unknown recipient %q", errPermanent, m.Recipient)
}

// newMessage starts a mail from SMTP_FROM with the name given, dated now,
// with a Message-ID of the sender's domain.
func (c Config) newMessage(fromName, idPrefix string, e enquiry.Enquiry, now time.Time) (*gomail.Msg, error) {
	from, err := bareAddress(c.From)
	if err != nil {
		return nil, fmt.Errorf("%w: SMTP_FROM: %v", errPermanent, err)
	}
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent(), gomail.WithCharset(gomail.CharsetUTF8), gomail.WithEncoding(gomail.EncodingQP))
	msg.FromMailAddress(&mail.Address{Name: oneLine(fromName), Address: from})
	msg.SetDateWithValue(now)
	msg.SetMessageIDWithValue(fmt.Sprintf("%s-%d.%d@%s", idPrefix, e.ID, now.UnixNano(), c.idDomain()))
	return msg, nil
}

// personalMessage starts a mail from the studio to one person: from
// SMTP_FROM under fromName, to the bare address alone (whose is said in
// its error: "the visitor's address"), answered to the studio's address.
func (c Config) personalMessage(fromName, idPrefix string, e enquiry.Enquiry, address, whose string, now time.Time) (*gomail.Msg, string, error) {
	msg, err := c.newMessage(fromName, idPrefix, e, now)
	if err != nil {
		return nil, "", err
	}
	to, err := bareAddress(address)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %s: %v", errPermanent, whose, err)
	}
	msg.AddToMailAddress(&mail.Address{Address: to})
	if studio, err := bareAddress(c.Site.Email); err == nil {
		msg.ReplyToMailAddress(&mail.Address{Name: oneLine(c.Site.Name), Address: studio})
	}
	return msg, to, nil
}

// studioCopy is the mail to the studio about e.
func (c Config) studioCopy(e enquiry.Enquiry, now time.Time) (*gomail.Msg, error) {
	msg, err := c.newMessage(c.Site.Name+" website", "enquiry", e, now)
	if err != nil {
		return nil, err
	}
	to, err := bareAddress(c.To)
	if err != nil {
		return nil, fmt.Errorf("%w: the studio's address: %v", errPermanent, err)
	}
	msg.AddToMailAddress(&mail.Address{Address: to})
	setThread(msg, c.studioCopyID(e), []string{c.acknowledgementID(e)})
	// The subject is encoded and folded here, not by go-mail: see headers.go.
	title := e.Kind.Title()
	msg.SetGenHeaderPreformatted(gomail.HeaderSubject, fold(string(gomail.HeaderSubject), textWords(e.Subject())))
	// An address that does not parse (the enquiry's check makes that
	// unlikely) costs the Reply-To, not the studio's copy: the body shows
	// the address as it was typed.
	if visitor, err := bareAddress(e.Email); err == nil {
		msg.SetGenHeaderPreformatted(gomail.Header(gomail.HeaderReplyTo), fold(string(gomail.HeaderReplyTo), addressWords(e.Name, visitor)))
	}

	var body strings.Builder
	loc := c.Site.Location // the studio's time zone (site.json's timeZone)
	if loc == nil {
		loc = time.UTC
	}
	fmt.Fprintf(&body, "%s #%d, received %s\n\n", title, e.ID, e.CreatedAt.In(loc).Format("2 Jan 2006 15:04 MST"))
	if e.ProductName != "" {
		fmt.Fprintf(&body, "Product:  %s (#%d)\n", e.ProductName, e.ProductID)
	}
	if e.Material != "" {
		fmt.Fprintf(&body, "Material: %s\n", e.Material)
	}
	if e.Finish != "" {
		fmt.Fprintf(&body, "Finish:   %s\n", e.Finish)
	}
	writePieces(&body, e.Items, "", true)
	fmt.Fprintf(&body, "Name:     %s\nE-mail:   %s\n", e.Name, e.Email)
	if e.Phone != "" {
		fmt.Fprintf(&body, "Phone:    %s\n", e.Phone)
	}
	if e.Message != "" {
		fmt.Fprintf(&body, "\n%s\n", e.Message)
	}
	fmt.Fprintf(&body, "\nReply to this e-mail to answer. In the studio's inbox: %s\n", enquiryURL(c.linkBase, e.ID))
	fmt.Fprintf(&body, "The visitor is sent an acknowledgement of what they asked about, without their words (at most %d a day to one address).\n",
		store.AcknowledgementsPerDay)
	msg.SetBodyString(gomail.TypeTextPlain, body.String())
	return msg, nil
}

// enquiryURL is the address of enquiry id's page in the workspace, on the
// server's address (Config.LinkBase); its path alone while none is known.
func enquiryURL(base string, id int64) string {
	return fmt.Sprintf("%s/studio/enquiries/%d", base, id)
}

// acknowledgement is the mail to the address given with e. That address
// is whatever was typed in the form, so the mail repeats nothing the
// visitor wrote (their name, message, notes, phone): it says what the
// studio received, in the catalogue's words, and when, with the studio's
// own details. Someone whose address a stranger typed gets no stranger's
// words from the studio's address; and at most store.AcknowledgementsPerDay
// of these a day.
func (c Config) acknowledgement(e enquiry.Enquiry, subscribed bool, now time.Time) (*gomail.Msg, error) {
	site := c.Site
	// The address alone: the visitor's name stays out of the headers.
	msg, visitor, err := c.personalMessage(site.Name, "ack", e, e.Email, "the visitor's address", now)
	if err != nil {
		return nil, err
	}
	title := e.Kind.Title()
	setThread(msg, c.acknowledgementID(e), nil)
	msg.SetGenHeaderPreformatted(gomail.HeaderSubject, fold(string(gomail.HeaderSubject), textWords(e.AcknowledgementSubject(site.Name))))
	// An automatic answer (RFC 3834): the visitor's own auto-responder
	// should not answer it back.
	msg.SetGenHeader(gomail.Header("Auto-Submitted"), "auto-replied")

	var body strings.Builder
	what := strings.ToLower(title)
	switch {
	case len(e.Items) > 0:
		what += " for " + e.Pieces()
	case e.ProductName != "":
		what += " about " + e.ProductName // a design's name: "Perennial", "Nest of arches"
	}
	fmt.Fprintf(&body, "Thank you for your %s. It has reached %s", what, site.Name)
	if c.Service.EmailReplyHours > 0 {
		fmt.Fprintf(&body, ", and we reply within %d hours on business days", c.Service.EmailReplyHours)
	}
	loc := site.Location
	if loc == nil {
		loc = time.UTC
	}
	fmt.Fprintf(&body, ".\n\nThis is what we received, on %s:\n\n", e.CreatedAt.In(loc).Format("2 Jan 2006 at 15:04 MST"))
	fmt.Fprintf(&body, "  Reference: %s #%d\n", title, e.ID)
	if e.ProductName != "" {
		fmt.Fprintf(&body, "  Product:   %s\n", e.ProductName)
	}
	if e.Material != "" {
		fmt.Fprintf(&body, "  Material:  %s\n", e.Material)
	}
	if e.Finish != "" {
		fmt.Fprintf(&body, "  Finish:    %s\n", e.Finish)
	}
	if e.Message != "" {
		body.WriteString("  Message:   received (not repeated here)\n")
	}
	body.WriteString("\n")
	writePieces(&body, e.Items, "  ", false)
	body.WriteString("We will answer you at this address. To add to your enquiry or correct it, reply to this e-mail.\n")
	body.WriteString("If you did not write to us, someone typed your address: you can ignore this e-mail.\n\n")
	body.WriteString(contactDetails(c))
	if subscribed {
		body.WriteString(c.withUnsubscribe(msg, visitor))
	}
	msg.SetBodyString(gomail.TypeTextPlain, body.String())
	return msg, nil
}

// reply is a mail the studio wrote in the inbox, as it was written: from
// SMTP_FROM under the writer's name and the studio's, answered to the
// studio's address, in the enquiry's conversation (thread.go) after the
// replies before it (earlier, their ids). It is multipart/alternative:
// the text as typed and the studio's signature, and the same as HTML
// (html.go); with its attachment (a PDF quote) beside them.
func (c Config) reply(e enquiry.Enquiry, r store.Reply, earlier []int64, subscribed bool, now time.Time) (*gomail.Msg, error) {
	site := c.Site
	fromName := site.Name
	if r.AuthorName != "" {
		fromName = r.AuthorName + ", " + site.Name
	}
	msg, to, err := c.personalMessage(fromName, "reply", e, r.To, "the customer's address", now)
	if err != nil {
		return nil, err
	}
	chain := []string{c.acknowledgementID(e)}
	for _, id := range earlier {
		chain = append(chain, c.replyID(e, id))
	}
	setAnswer(msg, c.replyID(e, r.ID), chain)
	msg.SetGenHeaderPreformatted(gomail.HeaderSubject, fold(string(gomail.HeaderSubject), textWords(r.Subject)))
	signature := contactDetails(c)
	var unsubscribe string
	if subscribed {
		unsubscribe = c.withUnsubscribe(msg, to)
	}
	// "-- " starts a signature (RFC 3676 4.3): mail programs grey it, and
	// leave it out of a quoted answer.
	msg.SetBodyString(gomail.TypeTextPlain, strings.TrimRight(r.Body, "\n")+"\n\n-- \n"+signature+unsubscribe)
	msg.AddAlternativeString(gomail.TypeTextHTML, htmlReply(r.Body, signature, unsubscribe))
	if r.AttachmentName != "" {
		if err := msg.AttachReader(r.AttachmentName, bytes.NewReader(r.Attachment), gomail.WithFileContentType("application/pdf")); err != nil {
			return nil, fmt.Errorf("%w: the attachment: %v", errPermanent, err)
		}
	}
	return msg, nil
}

// writePieces lists a shortlist's pieces, each on a line of its own with
// its note on the next, numbered as the visitor listed them:
//
//	2 products, 7 pieces:
//	  1. Marwar chair (#1), Wood, Walnut, quantity 6
//	     Note: for the lobby
//	  2. Jharokha mirror (#2), quantity 1
//
// and a blank line after. The studio's copy (studio) has the catalogue's
// product numbers and the visitor's notes; the acknowledgement neither. A
// note is one line (enquiry.Check), so a piece cannot pass for another.
func writePieces(b *strings.Builder, items []enquiry.Item, indent string, studio bool) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(b, "%s%s:\n", indent, enquiry.PiecesOf(items))
	for i, it := range items {
		number := fmt.Sprintf("%d. ", i+1)
		line := it.ProductName
		if studio {
			line += fmt.Sprintf(" (#%d)", it.ProductID)
		}
		for _, choice := range []string{it.Material, it.Finish} {
			if choice != "" {
				line += ", " + choice
			}
		}
		fmt.Fprintf(b, "%s  %s%s, quantity %d\n", indent, number, line, it.Quantity)
		if studio && it.Note != "" {
			fmt.Fprintf(b, "%s  %sNote: %s\n", indent, strings.Repeat(" ", len(number)), it.Note)
		}
	}
	b.WriteString("\n")
}

// contactDetails is the studio's signature, every fact from
// content/site.json but the site's address, which is the server's own
// (Config.LinkBase).
func contactDetails(c Config) string {
	site := c.Site
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", site.Name)
	if site.Email != "" {
		fmt.Fprintf(&b, "E-mail: %s\n", site.Email)
	}
	for _, p := range site.Phones {
		fmt.Fprintf(&b, "%s: %s\n", p.Label, p.Display)
	}
	a := site.Address
	// The address as the site's contact page writes it (web/app/components/ContactDetails.tsx).
	for _, line := range []string{a.Street, strings.TrimSpace(a.Locality + " " + a.PostalCode), strings.Trim(a.Region+", "+site.Country, ", ")} {
		if line != "" {
			fmt.Fprintf(&b, "%s\n", line)
		}
	}
	if c.linkBase != "" {
		fmt.Fprintf(&b, "%s\n", c.linkBase)
	}
	return b.String()
}

// bareAddress checks that s is one address with no name and no line
// breaks, and returns it.
func bareAddress(s string) (string, error) {
	a, err := mail.ParseAddress(s)
	if err != nil {
		return "", err
	}
	if a.Name != "" || a.Address != s || strings.ContainsAny(s, "\r\n") {
		return "", fmt.Errorf("%q is not a bare address", s)
	}
	return a.Address, nil
}
