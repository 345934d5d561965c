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
	msg, err := c.newMessage(c.Site.Name, m.Recipient, enquiry.Enquiry{ID: a.ID}, now)
	if err != nil {
		return nil, err
	}
	msg.AddToMailAddress(&mail.Address{Address: to})
	msg.SetGenHeader(gomail.Header("Auto-Submitted"), "auto-generated")
	loc := c.Site.Location
	if loc == nil {
		loc = time.UTC
	}
	subject, body := accountMailText(c.Site.Name, m.Recipient, *a, expires.In(loc).Format("2 Jan 2006 15:04 MST"), link)
	msg.SetGenHeaderPreformatted(gomail.HeaderSubject, fold(string(gomail.HeaderSubject), textWords(subject)))
	msg.SetBodyString(gomail.TypeTextPlain, body)
	return msg, nil
}

// accountMailText is the subject and body of an invitation (purpose
// store.RecipientInvite) or a reset mailed to a, with the link that works
// until until. The studio's name (the content's site facts) is said as it
// is, once: "Jharokha Studio's workspace"; an invitation names who sent it.
func accountMailText(studio, purpose string, a store.Account, until, link string) (subject, body string) {
	var b strings.Builder
	if a.Name != "" {
		fmt.Fprintf(&b, "Dear %s,\n\n", a.Name)
	}
	workspace := studio + "'s workspace"
	if purpose == store.RecipientInvite {
		ask := "the owner who invited you"
		if a.InvitedBy != "" {
			subject, ask = fmt.Sprintf("%s invited you to %s", a.InvitedBy, workspace), a.InvitedBy
			fmt.Fprintf(&b, "%s invited you to %s, as %s.\n\n", a.InvitedBy, workspace, roleText(a.Role))
		} else {
			subject = fmt.Sprintf("You are invited to %s", workspace)
			fmt.Fprintf(&b, "You are invited to %s, as %s.\n\n", workspace, roleText(a.Role))
		}
		fmt.Fprintf(&b, "Set your password here, until %s:\n\n%s\n\n", until, link)
		fmt.Fprintf(&b, "Then sign in with this e-mail address and that password. If the link has expired, ask %s for a new invitation.\n", ask)
		return subject, b.String()
	}
	fmt.Fprintf(&b, "Someone asked to reset the password of %s in %s.\n\n", a.Email, workspace)
	fmt.Fprintf(&b, "Set a new password here, once, until %s:\n\n%s\n\n", until, link)
	b.WriteString("Setting it signs you out on every device. If you did not ask, ignore this mail: your password stays as it is.\n")
	return fmt.Sprintf("Reset your password for %s", workspace), b.String()
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
