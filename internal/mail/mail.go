// Package mail sends the mails about new enquiries: the studio's copy of
// each, and an acknowledgement to the visitor who sent it. A background
// worker sends the mails queued in the store's outbox, retrying with
// growing delays, so an enquiry is never lost to a mail server that is
// down: it is stored first, with its mails, in one transaction, and they
// wait in the database, across restarts, until the server takes them.
// Composing and the SMTP conversation are go-mail's
// (github.com/wneessen/go-mail); compose.go writes the two mails,
// headers.go encodes and folds the headers that carry what a visitor typed.
package mail

import (
	"context"
	"crypto/tls"
	"errors"
	"log/slog"
	"time"

	gomail "github.com/wneessen/go-mail"

	"studio/internal/sitecontent"
	"studio/internal/store"
)

// Config is the mail server, the addresses, and the studio's facts the
// acknowledgement tells the visitor.
type Config struct {
	Host     string
	Port     int    // 465: TLS from the start; otherwise STARTTLS when offered
	Username string // AUTH PLAIN only when set
	Password string
	From     string // the sender, an address of the studio's domain (SMTP_FROM)
	To       string // the studio's inbox (SMTP_TO, or site.json's e-mail)

	// The studio's name (the sender's name), e-mail (the acknowledgement's
	// Reply-To), phones and address, from content/site.json.
	Site sitecontent.Site
	// The reply time the acknowledgement promises, from content/service.json.
	Service sitecontent.Service
	// Live, when set, gives the live release's content at each mail, so a
	// new phone number published is in the next acknowledgement; it
	// replaces Site and Service.
	Live func() *sitecontent.Content
	// AccountToken signs the token of an invitation's or a password
	// reset's link (accountlink.Signer.Token); nil: such mails are given up.
	AccountToken func(ctx context.Context, purpose string, a store.Account, expires time.Time) (string, error)
	// LinkKey signs the newsletter's links to confirm and to unsubscribe
	// (store.KeyNewsletterLinks); without it no link is sent.
	LinkKey []byte
	// LinkBase gives the address every link in a mail starts with
	// (https://www.example.com): the server's own, from PUBLIC_URL or
	// DOMAIN, or the address an owner last signed in to the workspace at
	// (config.Config.MailedLinksBase, store.SignInAddress). Never content's
	// baseUrl, which staff can change. "" while none is known: a mail that
	// is nothing without its link (an invitation, a reset, a newsletter
	// confirmation) waits for one; the others go without links. nil: none
	// is ever known.
	LinkBase func(ctx context.Context) (string, error)

	linkBase string // LinkBase's answer, for the mail being composed
}

// errPermanent marks a mail that cannot be composed (an address that does
// not parse, say): trying again would not help, so it is given up at once.
var errPermanent = errors.New("mail cannot be composed")

// Outbox is the store's queue of pending mails.
type Outbox interface {
	DueMails(ctx context.Context, now time.Time, limit int) ([]store.PendingMail, error)
	ClaimMail(ctx context.Context, m store.PendingMail, leaseUntil time.Time) (bool, error)
	MailSent(ctx context.Context, id int64, at time.Time) error
	MailFailed(ctx context.Context, id int64, reason string, next time.Time, giveUp bool, at time.Time) error
}

// Worker sends the outbox's mails. Make it with NewWorker; tests may
// change its timings before Run.
type Worker struct {
	Config      Config
	Outbox      Outbox
	Log         *slog.Logger
	Poll        time.Duration // how often the outbox is looked at without a Wake
	BaseDelay   time.Duration // the delay after the first failure; it doubles after each
	MaxDelay    time.Duration
	MaxAttempts int           // after this many failures a mail is given up (and logged)
	Lease       time.Duration // how long a claimed mail is this worker's alone
	Timeout     time.Duration // for one conversation with the mail server

	wake      chan struct{}
	tlsConfig *tls.Config // nil: the system's roots for Host (tests trust their own)
}

// NewWorker returns a worker with the production timings.
func NewWorker(cfg Config, out Outbox, log *slog.Logger) *Worker {
	return &Worker{Config: cfg, Outbox: out, Log: log, Poll: 30 * time.Second, BaseDelay: 30 * time.Second,
		MaxDelay: time.Hour, MaxAttempts: 15, Lease: 2 * time.Minute, Timeout: 30 * time.Second,
		wake: make(chan struct{}, 1)}
}

// Wake tells the worker that a mail is waiting. It never blocks.
func (w *Worker) Wake() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Run sends due mails until ctx ends.
func (w *Worker) Run(ctx context.Context) {
	ticker := time.NewTicker(w.Poll)
	defer ticker.Stop()
	for {
		w.drain(ctx)
		select {
		case <-ctx.Done():
			return
		case <-w.wake:
		case <-ticker.C:
		}
	}
}

// drain sends every mail that is due now.
func (w *Worker) drain(ctx context.Context) {
	for round := 0; round < 100 && ctx.Err() == nil; round++ {
		due, err := w.Outbox.DueMails(ctx, time.Now(), 20)
		if err != nil {
			w.Log.Error("mail: read outbox", "err", err)
			return
		}
		if len(due) == 0 {
			return
		}
		for _, m := range due {
			w.attempt(ctx, m)
		}
	}
}

func (w *Worker) attempt(ctx context.Context, m store.PendingMail) {
	now := time.Now()
	// The claim, the sending and the outcome go together even while
	// shutting down: a claim whose commit raced the cancellation would
	// otherwise hold the mail until its lease ran out.
	ctx = context.WithoutCancel(ctx)
	if ok, err := w.Outbox.ClaimMail(ctx, m, now.Add(w.Lease)); err != nil || !ok {
		if err != nil {
			w.Log.Error("mail: claim", "mail", m.ID, "err", err)
		}
		return
	}
	c := w.Config
	if c.Live != nil {
		live := c.Live()
		c.Site, c.Service = live.Site, live.Service
	}
	msg, err := c.message(m, now)
	if err == nil {
		err = w.send(ctx, msg)
	}
	// The outcome is recorded even while shutting down: a sent mail must not
	// be sent again, a failed one must not wait out its lease.
	if err == nil {
		if err := w.Outbox.MailSent(ctx, m.ID, time.Now()); err != nil {
			w.Log.Error("mail: record sent", "mail", m.ID, "err", err)
		}
		w.Log.Info("mail sent", "mail", m.ID, "enquiry", m.Enquiry.ID, "recipient", m.Recipient)
		return
	}
	attempts := m.Attempts + 1
	// A mail that cannot be composed never will be, and an address the
	// mail server refuses for good (a 5xx to RCPT TO: no such mailbox)
	// never will take it: either is given up at once.
	giveUp := attempts >= w.MaxAttempts || errors.Is(err, errPermanent) || refusedRecipient(err)
	next := time.Now().Add(w.backoff(attempts))
	if giveUp {
		w.Log.Error("mail: giving up; the enquiry is in the inbox", "mail", m.ID, "enquiry", m.Enquiry.ID, "recipient", m.Recipient,
			"attempts", attempts, "err", err)
	} else {
		w.Log.Warn("mail: will retry", "mail", m.ID, "recipient", m.Recipient, "attempts", attempts, "next", next, "err", err)
	}
	if err := w.Outbox.MailFailed(ctx, m.ID, err.Error(), next, giveUp, time.Now()); err != nil {
		w.Log.Error("mail: record failure", "mail", m.ID, "err", err)
	}
}

// refusedRecipient tells whether the mail server refused the recipient
// for good.
func refusedRecipient(err error) bool {
	var se *gomail.SendError
	return errors.As(err, &se) && se.Reason == gomail.ErrSMTPRcptTo && !se.IsTemp()
}

// backoff is the wait after the n-th failure: BaseDelay, doubled each
// time, at most MaxDelay.
func (w *Worker) backoff(n int) time.Duration {
	d := w.BaseDelay
	for i := 1; i < n && d < w.MaxDelay; i++ {
		d *= 2
	}
	return min(d, w.MaxDelay)
}

// send has one conversation with the mail server, through go-mail: TLS
// from the start on port 465, otherwise STARTTLS when the server offers
// it; AUTH PLAIN when a username is set (go-mail, like net/smtp, sends it
// only over TLS or to localhost); at most Timeout for connecting and for
// each exchange after.
func (w *Worker) send(ctx context.Context, msg *gomail.Msg) error {
	c := w.Config
	tlsConfig := w.tlsConfig
	if tlsConfig == nil {
		tlsConfig = &tls.Config{ServerName: c.Host, MinVersion: tls.VersionTLS12}
	}
	opts := []gomail.Option{gomail.WithPort(c.Port), gomail.WithTimeout(w.Timeout), gomail.WithTLSConfig(tlsConfig)}
	if c.Port == 465 {
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	if c.Username != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthPlain), gomail.WithUsername(c.Username), gomail.WithPassword(c.Password))
	}
	client, err := gomail.NewClient(c.Host, opts...)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, w.Timeout)
	defer cancel()
	conn, err := client.DialToSMTPClientWithContext(ctx)
	if err != nil {
		return err
	}
	if err := client.SendWithSMTPClient(conn, msg); err != nil {
		client.CloseWithSMTPClient(conn)
		return err
	}
	// The server has taken the mail: a failed QUIT must not send it twice.
	if err := client.CloseWithSMTPClient(conn); err != nil {
		w.Log.Warn("mail: closing the connection after sending", "err", err)
	}
	return nil
}
