// Package mail tells the studio about new enquiries by e-mail. A
// background worker sends the mails queued in the store's outbox, retrying
// with growing delays, so an enquiry is never lost to a mail server that
// is down: it is stored first, and its mail waits in the database, across
// restarts, until the server takes it.
package mail

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"studio/internal/enquiry"
	"studio/internal/store"
)

// Config is the mail server and the addresses.
type Config struct {
	Host     string
	Port     int // 465: TLS from the start; otherwise STARTTLS when offered
	Username string
	Password string
	From     string // the sender, an address of the studio's domain
	To       string // the studio's inbox
	SiteName string // shown as the sender's name
}

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

	wake chan struct{}
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
	err := w.send(Compose(w.Config, m.Enquiry, now))
	// The outcome is recorded even while shutting down: a sent mail must not
	// be sent again, a failed one must not wait out its lease.
	if err == nil {
		if err := w.Outbox.MailSent(ctx, m.ID, time.Now()); err != nil {
			w.Log.Error("mail: record sent", "mail", m.ID, "err", err)
		}
		w.Log.Info("mail sent", "mail", m.ID, "enquiry", m.Enquiry.ID)
		return
	}
	attempts := m.Attempts + 1
	giveUp := attempts >= w.MaxAttempts
	next := time.Now().Add(w.backoff(attempts))
	if giveUp {
		w.Log.Error("mail: giving up; the enquiry is in the inbox", "mail", m.ID, "enquiry", m.Enquiry.ID, "attempts", attempts, "err", err)
	} else {
		w.Log.Warn("mail: will retry", "mail", m.ID, "attempts", attempts, "next", next, "err", err)
	}
	if err := w.Outbox.MailFailed(ctx, m.ID, err.Error(), next, giveUp, time.Now()); err != nil {
		w.Log.Error("mail: record failure", "mail", m.ID, "err", err)
	}
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

// send has one conversation with the mail server.
func (w *Worker) send(msg []byte) error {
	c := w.Config
	addr := net.JoinHostPort(c.Host, strconv.Itoa(c.Port))
	dialer := &net.Dialer{Timeout: w.Timeout}
	var conn net.Conn
	var err error
	if c.Port == 465 {
		conn, err = tls.DialWithDialer(dialer, "tcp", addr, &tls.Config{ServerName: c.Host})
	} else {
		conn, err = dialer.Dial("tcp", addr)
	}
	if err != nil {
		return err
	}
	conn.SetDeadline(time.Now().Add(w.Timeout))
	client, err := smtp.NewClient(conn, c.Host)
	if err != nil {
		conn.Close()
		return err
	}
	defer client.Close()
	if ok, _ := client.Extension("STARTTLS"); ok && c.Port != 465 {
		if err := client.StartTLS(&tls.Config{ServerName: c.Host}); err != nil {
			return err
		}
	}
	if c.Username != "" {
		if err := client.Auth(smtp.PlainAuth("", c.Username, c.Password, c.Host)); err != nil {
			return err
		}
	}
	if err := client.Mail(c.From); err != nil {
		return err
	}
	if err := client.Rcpt(c.To); err != nil {
		return err
	}
	data, err := client.Data()
	if err != nil {
		return err
	}
	if _, err := data.Write(msg); err != nil {
		return err
	}
	if err := data.Close(); err != nil {
		return err
	}
	return client.Quit()
}

// Compose writes the e-mail about e. Every header is built here from
// values stripped of line breaks and encoded, so nothing a visitor typed
// can add a header or a recipient; the visitor's words go in the body only.
func Compose(c Config, e enquiry.Enquiry, now time.Time) []byte {
	title, subject := e.Kind.Title(), e.Subject()
	var b bytes.Buffer
	header := func(name, value string) { fmt.Fprintf(&b, "%s: %s\r\n", name, oneLine(value)) }
	header("From", (&mail.Address{Name: oneLine(c.SiteName + " website"), Address: oneLine(c.From)}).String())
	header("To", (&mail.Address{Address: oneLine(c.To)}).String())
	header("Reply-To", (&mail.Address{Name: oneLine(e.Name), Address: oneLine(e.Email)}).String())
	header("Subject", mime.QEncoding.Encode("utf-8", oneLine(subject)))
	header("Date", now.Format(time.RFC1123Z))
	domain := "studio.invalid"
	if at := strings.LastIndexByte(c.From, '@'); at >= 0 {
		domain = oneLine(c.From[at+1:])
	}
	header("Message-ID", fmt.Sprintf("<enquiry-%d.%d@%s>", e.ID, now.UnixNano(), domain))
	header("MIME-Version", "1.0")
	header("Content-Type", "text/plain; charset=utf-8")
	header("Content-Transfer-Encoding", "quoted-printable")
	b.WriteString("\r\n")

	var body strings.Builder
	fmt.Fprintf(&body, "%s #%d, received %s\n\n", title, e.ID, e.CreatedAt.UTC().Format("2 Jan 2006 15:04 MST"))
	if e.ProductName != "" {
		fmt.Fprintf(&body, "Product:  %s (#%d)\n", e.ProductName, e.ProductID)
	}
	if e.Material != "" {
		fmt.Fprintf(&body, "Material: %s\n", e.Material)
	}
	if e.Finish != "" {
		fmt.Fprintf(&body, "Finish:   %s\n", e.Finish)
	}
	fmt.Fprintf(&body, "Name:     %s\nE-mail:   %s\n", e.Name, e.Email)
	if e.Phone != "" {
		fmt.Fprintf(&body, "Phone:    %s\n", e.Phone)
	}
	if e.Message != "" {
		fmt.Fprintf(&body, "\n%s\n", e.Message)
	}
	body.WriteString("\nReply to this e-mail to answer. Every enquiry is also in the studio's inbox at /studio.\n")
	qp := quotedprintable.NewWriter(&b)
	qp.Write([]byte(strings.ReplaceAll(body.String(), "\n", "\r\n")))
	qp.Close()
	return b.Bytes()
}

// oneLine drops control characters (CR and LF above all) from a header value.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
}
