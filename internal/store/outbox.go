package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"studio/internal/enquiry"
)

// PendingMail is an e-mail that has not reached the mail server yet, with
// what its composer needs.
type PendingMail struct {
	ID        int64
	Recipient string // RecipientStudio, RecipientVisitor, …
	Attempts  int
	Queued    time.Time // when it was queued
	claim     int64
	Enquiry   enquiry.Enquiry // the enquiry it is about; zero for a mail about none
	Reply     *Reply          // for RecipientReply
	Account   *Account        // for RecipientInvite and RecipientReset; nil once the account is gone
	// Subscriber is the address to confirm, for RecipientConfirm; nil
	// when it is gone (dropped unconfirmed, or erased).
	Subscriber *Subscriber
	// Subscribed says that the mail's addressee (the visitor, the reply's
	// or the confirmation's address) is on the newsletter list, so the
	// mail carries a link to unsubscribe.
	Subscribed bool

	// EarlierReplies are the ids of the enquiry's replies before Reply,
	// oldest first: its mail answers the last of them (or the
	// acknowledgement, when there is none).
	EarlierReplies []int64
}

// AcknowledgementsPerDay is the most acknowledgements mailed to one
// address (compared without case) in any 24 hours. The address is
// whatever a visitor typed, so the form could otherwise send the studio's
// mail to a stranger as often as it is sent; past the limit an enquiry is
// stored and the studio mailed as always, without an acknowledgement.
const AcknowledgementsPerDay = 3

// queueMails puts an enquiry's mails in the outbox, in the enquiry's own
// transaction (insertEnquiry calls it with mail set, for the plain and the
// batched path alike), so the enquiry and its mails are stored together or
// not at all: the studio's copy, then the acknowledgement to the visitor.
// Spam never gets an acknowledgement, whatever the caller asks: a robot's
// form may carry someone else's address, and the studio's mail would then
// go to a stranger. Nor does an address that had AcknowledgementsPerDay.
func (s *Store) queueMails(ctx context.Context, tx *sql.Tx, enquiryID int64, e enquiry.Enquiry) error {
	recipients := []string{RecipientStudio}
	if !e.Spam {
		sent, err := s.acknowledgementsTo(ctx, tx, e.Email, e.CreatedAt.Add(-24*time.Hour))
		if err != nil {
			return err
		}
		if sent < AcknowledgementsPerDay {
			recipients = append(recipients, RecipientVisitor)
		}
	}
	for _, r := range recipients {
		if err := s.queueMail(ctx, tx, r, enquiryID, nil, e.CreatedAt); err != nil {
			return err
		}
	}
	return nil
}

// acknowledgementsTo counts the acknowledgements queued for address since
// then, in the enquiry's transaction: the outbox is the record, so the
// count holds across restarts and copies of the server. On PostgreSQL a
// lock on the address, held until the commit, makes two enquiries to one
// address at once count one after the other (SQLite has one writer); as
// with the sign-ins' lock, the two-key form keeps clear of migrate's, and
// 14 names its migration.
func (s *Store) acknowledgementsTo(ctx context.Context, tx *sql.Tx, address string, since time.Time) (int, error) {
	if s.dialect == Postgres {
		if _, err := tx.ExecContext(ctx, s.q(`SELECT pg_advisory_xact_lock(14, hashtext(LOWER(?)))`), address); err != nil {
			return 0, fmt.Errorf("lock the address: %w", err)
		}
	}
	var n int
	err := tx.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM enquiries e JOIN mail_outbox o ON o.enquiry_id = e.id
		WHERE LOWER(e.email) = LOWER(?) AND o.recipient = ? AND o.queued_ms > ?`), address, RecipientVisitor, millis(since)).Scan(&n)
	return n, err
}

// queueMail puts one mail in the outbox, due at once: about an enquiry
// (enquiryID > 0) or none, and about the row ref when there is one.
func (s *Store) queueMail(ctx context.Context, tx *sql.Tx, recipient string, enquiryID int64, ref *int64, at time.Time) error {
	var about any
	if enquiryID > 0 {
		about = enquiryID
	}
	_, err := tx.ExecContext(ctx, s.q(`INSERT INTO mail_outbox (enquiry_id, recipient, ref_id, queued_ms, next_attempt_ms) VALUES (?, ?, ?, ?, ?)`),
		about, recipient, ref, millis(at), millis(at))
	return err
}

// DueMails lists up to limit pending mails whose next attempt is due at
// now, each with what its composer needs (its enquiry with its pieces,
// its reply).
func (s *Store) DueMails(ctx context.Context, now time.Time, limit int) ([]PendingMail, error) {
	rows, err := s.read.QueryContext(ctx, s.q(`SELECT id, recipient, attempts, claim, queued_ms, enquiry_id, ref_id
		FROM mail_outbox WHERE sent_ms IS NULL AND failed_ms IS NULL AND next_attempt_ms <= ?
		ORDER BY next_attempt_ms, id LIMIT ?`), millis(now), limit)
	if err != nil {
		return nil, fmt.Errorf("store: due mails: %w", err)
	}
	var (
		list       []PendingMail
		enquiryIDs []sql.NullInt64
		refs       []sql.NullInt64
	)
	for rows.Next() {
		var (
			m          PendingMail
			queued     int64
			about, ref sql.NullInt64
		)
		if err := rows.Scan(&m.ID, &m.Recipient, &m.Attempts, &m.claim, &queued, &about, &ref); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: due mails: %w", err)
		}
		m.Queued = time.UnixMilli(queued).UTC()
		list, enquiryIDs, refs = append(list, m), append(enquiryIDs, about), append(refs, ref)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return nil, fmt.Errorf("store: due mails: %w", err)
	}
	// The studio's copy and the acknowledgement of one enquiry read it once.
	enquiries := map[int64]enquiry.Enquiry{}
	for i := range list {
		if id := enquiryIDs[i]; id.Valid {
			e, ok := enquiries[id.Int64]
			if !ok {
				if e, err = s.Enquiry(ctx, id.Int64); err != nil {
					return nil, fmt.Errorf("store: due mails: %w", err)
				}
				enquiries[id.Int64] = e
			}
			list[i].Enquiry = e
		}
		if list[i].Recipient == RecipientReply && refs[i].Valid {
			r, err := s.Reply(ctx, refs[i].Int64)
			if err != nil {
				return nil, fmt.Errorf("store: due mails: %w", err)
			}
			list[i].Reply = &r
			if list[i].EarlierReplies, err = s.repliesBefore(ctx, r); err != nil {
				return nil, fmt.Errorf("store: due mails: %w", err)
			}
		}
		if (list[i].Recipient == RecipientInvite || list[i].Recipient == RecipientReset) && refs[i].Valid {
			a, err := s.AccountByID(ctx, refs[i].Int64)
			if err != nil && !errors.Is(err, ErrNoAccount) {
				return nil, fmt.Errorf("store: due mails: %w", err)
			}
			if err == nil {
				list[i].Account = &a
			}
		}
		if err := s.loadSubscriber(ctx, &list[i], refs[i]); err != nil {
			return nil, fmt.Errorf("store: due mails: %w", err)
		}
	}
	return list, nil
}

// loadSubscriber gives m its subscriber (a confirmation) or says whether
// its addressee is subscribed (every other mail to a person).
func (s *Store) loadSubscriber(ctx context.Context, m *PendingMail, ref sql.NullInt64) error {
	var address string
	switch {
	case m.Recipient == RecipientConfirm && ref.Valid:
		sub, err := s.subscriber(ctx, ref.Int64)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		m.Subscriber, m.Subscribed = &sub, sub.Subscribed
		return nil
	case m.Recipient == RecipientVisitor:
		address = m.Enquiry.Email
	case m.Recipient == RecipientReply && m.Reply != nil:
		address = m.Reply.To
	default:
		return nil
	}
	var err error
	m.Subscribed, err = s.IsSubscribed(ctx, address)
	return err
}

// ClaimMail takes m for one attempt until leaseUntil, so that two workers
// (two copies of the server on one PostgreSQL) never send it at once. It
// is false when another worker took it first.
func (s *Store) ClaimMail(ctx context.Context, m PendingMail, leaseUntil time.Time) (bool, error) {
	res, err := s.write.ExecContext(ctx, s.q(`UPDATE mail_outbox SET claim = claim + 1, next_attempt_ms = ?
		WHERE id = ? AND claim = ? AND sent_ms IS NULL AND failed_ms IS NULL`), millis(leaseUntil), m.ID, m.claim)
	if err != nil {
		return false, fmt.Errorf("store: claim mail %d: %w", m.ID, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// MailSent records that the mail server accepted m.
func (s *Store) MailSent(ctx context.Context, id int64, at time.Time) error {
	_, err := s.write.ExecContext(ctx, s.q(`UPDATE mail_outbox SET sent_ms = ?, attempts = attempts + 1, last_error = '' WHERE id = ?`), millis(at), id)
	if err != nil {
		return fmt.Errorf("store: mail %d sent: %w", id, err)
	}
	return nil
}

// MailFailed records a failed attempt: the next one is at next, or none
// when giveUp.
func (s *Store) MailFailed(ctx context.Context, id int64, reason string, next time.Time, giveUp bool, at time.Time) error {
	var failed any
	if giveUp {
		failed = millis(at)
	}
	_, err := s.write.ExecContext(ctx, s.q(`UPDATE mail_outbox SET attempts = attempts + 1, last_error = ?, next_attempt_ms = ?, failed_ms = ? WHERE id = ?`),
		reason, millis(next), failed, id)
	if err != nil {
		return fmt.Errorf("store: mail %d failed: %w", id, err)
	}
	return nil
}

// MailFigures is the outbox as /metrics shows it.
type MailFigures struct {
	Pending        int // waiting to be sent
	Sent           int // accepted by the mail server
	GivenUp        int // failed every attempt
	FailedAttempts int // attempts the mail server did not accept, over the outbox's whole history
}

// MailFigures counts the outbox in one query. Each attempt adds one to
// attempts, and a sent mail's last attempt is its success, so the failed
// attempts are the attempts less the mails sent.
func (s *Store) MailFigures(ctx context.Context) (MailFigures, error) {
	var f MailFigures
	err := s.read.QueryRowContext(ctx, `SELECT
		COALESCE(SUM(CASE WHEN sent_ms IS NULL AND failed_ms IS NULL THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN sent_ms IS NOT NULL THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN failed_ms IS NOT NULL THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(attempts), 0) FROM mail_outbox`).Scan(&f.Pending, &f.Sent, &f.GivenUp, &f.FailedAttempts)
	if err != nil {
		return MailFigures{}, fmt.Errorf("store: mail figures: %w", err)
	}
	f.FailedAttempts -= f.Sent
	return f, nil
}

// The states of a mail in the outbox, as MailDeliveries reports them.
const (
	MailPending = "pending" // not accepted by the mail server yet; another attempt will come
	MailSent    = "sent"    // the mail server accepted it
	MailFailed  = "failed"  // given up after every attempt failed
)

// MailDelivery is where one mail about an enquiry stands.
type MailDelivery struct {
	Recipient string    // RecipientStudio, RecipientVisitor or RecipientReply
	Ref       int64     // the reply's id, for RecipientReply
	State     string    // MailPending, MailSent or MailFailed
	Attempts  int       // attempts made so far, the successful one included
	LastError string    // the mail server's (or the network's) last refusal; "" once sent
	At        time.Time // when it was sent or given up; for a pending mail, its next attempt (UTC)
}

// MailDeliveries returns the mails of the given enquiries, by enquiry id,
// each enquiry's in the order they were queued (the studio's copy first).
// An enquiry that was never mailed (spam, or mail off) has no entry. The
// inbox calls it with the ids of one page.
func (s *Store) MailDeliveries(ctx context.Context, enquiryIDs []int64) (map[int64][]MailDelivery, error) {
	out := make(map[int64][]MailDelivery)
	err := s.byIDs(ctx, enquiryIDs, `SELECT enquiry_id, recipient, COALESCE(ref_id, 0), attempts, last_error, next_attempt_ms, sent_ms, failed_ms
		FROM mail_outbox WHERE enquiry_id IN (%s) ORDER BY enquiry_id, id`, func(rows *sql.Rows) error {
		var (
			enquiryID    int64
			d            MailDelivery
			next         int64
			sent, failed sql.NullInt64
		)
		if err := rows.Scan(&enquiryID, &d.Recipient, &d.Ref, &d.Attempts, &d.LastError, &next, &sent, &failed); err != nil {
			return err
		}
		switch {
		case sent.Valid:
			d.State, d.At = MailSent, time.UnixMilli(sent.Int64).UTC()
		case failed.Valid:
			d.State, d.At = MailFailed, time.UnixMilli(failed.Int64).UTC()
		default:
			d.State, d.At = MailPending, time.UnixMilli(next).UTC()
		}
		out[enquiryID] = append(out[enquiryID], d)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: mail deliveries: %w", err)
	}
	return out, nil
}
