package mail

import (
	"fmt"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"studio/internal/enquiry"
	"studio/internal/newsletter"
	"studio/internal/store"
)

// The newsletter's mails: the confirmation of a sign-up (double opt-in),
// and the way out on every mail to a subscriber.

// confirmation asks the holder of sub's address to confirm the sign-up,
// with a link to confirm and one to refuse at once.
func (c Config) confirmation(sub store.Subscriber, now time.Time) (*gomail.Msg, error) {
	if len(c.LinkKey) == 0 {
		return nil, fmt.Errorf("%w: no key to sign the newsletter's links", errPermanent)
	}
	if c.linkBase == "" {
		return nil, errNoAddress
	}
	site := c.Site
	msg, to, err := c.personalMessage(site.Name, "newsletter", enquiry.Enquiry{ID: sub.ID}, sub.Email, "the subscriber's address", now)
	if err != nil {
		return nil, err
	}
	msg.SetGenHeaderPreformatted(gomail.HeaderSubject, fold(string(gomail.HeaderSubject),
		textWords(site.Name+": please confirm your subscription")))
	// Sent by a machine, not in answer to a mail (RFC 3834).
	msg.SetGenHeader(gomail.Header("Auto-Submitted"), "auto-generated")

	var body strings.Builder
	fmt.Fprintf(&body, "Someone, most likely you, asked for the newsletter of %s at %s.\n\n", site.Name, to)
	body.WriteString("To confirm, open this link and press the button \"Confirm my subscription\":\n\n")
	fmt.Fprintf(&body, "%s\n\n", newsletter.Link(c.linkBase, c.LinkKey, newsletter.Confirm, to))
	fmt.Fprintf(&body, "Until you do, you get no newsletter; without a confirmation the address is forgotten in %d days.\n", int(store.UnconfirmedFor/(24*time.Hour)))
	body.WriteString("If you did not ask for it, you can ignore this e-mail.\n\n")
	body.WriteString(contactDetails(c))
	body.WriteString(c.withUnsubscribe(msg, to))
	msg.SetBodyString(gomail.TypeTextPlain, body.String())
	return msg, nil
}

// withUnsubscribe gives a mail to a subscriber (or one asked to be)
// RFC 8058's one-click unsubscribe: List-Unsubscribe with the signed link,
// and List-Unsubscribe-Post, so a mail program can offer the button and
// POST to the link itself. It returns the same link as a line for the
// mail's body, for the reader whose program shows no button; "" when
// there is no key to sign it, or no address to put it on yet.
func (c Config) withUnsubscribe(msg *gomail.Msg, address string) string {
	if len(c.LinkKey) == 0 || c.linkBase == "" {
		return ""
	}
	link := newsletter.Link(c.linkBase, c.LinkKey, newsletter.Unsubscribe, address)
	// The link is ASCII (its address query-escaped), so no encoding is needed.
	msg.SetGenHeaderPreformatted(gomail.Header("List-Unsubscribe"), "<"+link+">")
	msg.SetGenHeaderPreformatted(gomail.Header("List-Unsubscribe-Post"), "List-Unsubscribe=One-Click")
	return "\nTo stop the studio's newsletter: " + link + "\n"
}
