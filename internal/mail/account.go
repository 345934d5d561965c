package mail

import (
	"context"
	"fmt"
	"net/mail"
	"net/url"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"studio/internal/accountlink"
	"studio/internal/enquiry"
	"studio/internal/store"
)

// accountMail is an invitation to the workspace or a password reset: a
// link, on the server's address (Config.LinkBase), where the person sets a
// password.
// The link's validity counts from when the mail was queued, so a mail
// that waited for the mail server is not given a longer life.
func (c Config) accountMail(m store.PendingMail, now time.Time) (*gomail.Msg, error) {
	a := m.Account
	if a == nil {
		return nil, fmt.Errorf("%w: the account is gone", errPermanent)
	}
	if c.AccountToken == nil {
		return nil, fmt.Errorf("%w: no key to sign the link with", errPermanent)
	}
	if c.linkBase == "" {
		return nil, errNoAddress
	}
	expires := m.Queued.Add(accountlink.Validity(m.Recipient))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	token, err := c.AccountToken(ctx, m.Recipient, *a, expires)
	if err != nil {
		return nil, err // the database did not answer: tried again later
	}
	link := SetPasswordURL(c.linkBase, token)
	to, err := bareAddress(a.Email)
	if err != nil {
		return nil, fmt.Errorf("%w: the account's address: %v", errPermanent, err)
	}
	msg, err := c.newMessage(c.Site.Name+" studio", m.Recipient, enquiry.Enquiry{ID: a.ID}, now)
	if err != nil {
		return nil, err
	}
	msg.AddToMailAddress(&mail.Address{Address: to})
	msg.SetGenHeader(gomail.Header("Auto-Submitted"), "auto-generated")
	loc := c.Site.Location
	if loc == nil {
		loc = time.UTC
	}
	until := expires.In(loc).Format("2 Jan 2006 15:04 MST")
	var subject string
	var body strings.Builder
	if a.Name != "" {
		fmt.Fprintf(&body, "Dear %s,\n\n", a.Name)
	}
	if m.Recipient == store.RecipientInvite {
		subject = fmt.Sprintf("You are invited to the %s studio", c.Site.Name)
		fmt.Fprintf(&body, "You have been given an account in the %s studio's workspace, as %s.\n\n", c.Site.Name, roleText(a.Role))
		fmt.Fprintf(&body, "Set your password here, until %s:\n\n%s\n\n", until, link)
		body.WriteString("Then sign in with this e-mail address and that password. If the link has expired, ask the owner who invited you for a new one.\n")
	} else {
		subject = fmt.Sprintf("Reset your password for the %s studio", c.Site.Name)
		fmt.Fprintf(&body, "Someone asked to reset the password of %s in the %s studio's workspace.\n\n", a.Email, c.Site.Name)
		fmt.Fprintf(&body, "Set a new password here, once, until %s:\n\n%s\n\n", until, link)
		body.WriteString("Setting it signs you out on every device. If you did not ask, ignore this mail: your password stays as it is.\n")
	}
	msg.SetGenHeaderPreformatted(gomail.HeaderSubject, fold(string(gomail.HeaderSubject), textWords(subject)))
	msg.SetBodyString(gomail.TypeTextPlain, body.String())
	return msg, nil
}

// SetPasswordURL is the workspace's page where a link's token sets a
// password, on the server's address base.
func SetPasswordURL(base, token string) string {
	return strings.TrimRight(base, "/") + "/studio/set-password?" + url.Values{"token": {token}}.Encode()
}

func roleText(role string) string {
	if role == store.RoleStaff {
		return "staff (the inbox and the content's drafts)"
	}
	return "an owner"
}
