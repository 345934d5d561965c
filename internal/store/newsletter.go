package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"studio/internal/enquiry"
)

// The newsletter list, with double opt-in (migration 0012): an address
// counts as subscribed once its holder followed the confirmation mail's
// link, and until they unsubscribe. Confirming and unsubscribing come by
// signed links (package newsletter), so nothing secret is stored here.

// UnconfirmedFor is how long an address may wait for its confirmation;
// after that it is dropped (DropUnconfirmed).
const UnconfirmedFor = 7 * 24 * time.Hour

// ErrNoSubscriber is returned for an address that is not on the list
// (never was, dropped unconfirmed, or erased).
var ErrNoSubscriber = errors.New("store: no such subscriber")

// ConfirmationsEvery is the least time between two confirmation mails to
// one address: signing it up again and again sends no more.
const ConfirmationsEvery = time.Hour

// Subscribe adds an address to the newsletter list. With mail, it waits
// for its confirmation, and the confirmation mail is queued in the same
// transaction (as an enquiry's mails are); without mail there is no way
// to confirm, so it counts at once. created is false when the address
// (compared without regard to case) was subscribed already; an address
// that was waiting, or had unsubscribed, starts again (a new
// confirmation, unless one was mailed in the last ConfirmationsEvery).
func (s *Store) Subscribe(ctx context.Context, email string, mail bool, at time.Time) (created bool, err error) {
	key := enquiry.EmailKey(email)
	var confirmed any
	if !mail {
		confirmed = at.UTC()
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		created = false
		if err := s.dropUnconfirmed(ctx, tx, at); err != nil {
			return err
		}
		var (
			id                  int64
			isConfirmed, isGone bool
			requested           int64
		)
		// Inserted, unless the address is there (two sign-ups at once:
		// the second waits for the first and finds its row).
		err := tx.QueryRowContext(ctx, s.q(`INSERT INTO newsletter_subscribers (email, email_key, created_at, confirmed_at, requested_ms) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (email_key) DO NOTHING RETURNING id`), email, key, at.UTC(), confirmed, millis(at)).Scan(&id)
		if err == nil {
			created = true
			if mail {
				return s.queueMail(ctx, tx, RecipientConfirm, 0, &id, at)
			}
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		err = tx.QueryRowContext(ctx, s.q(`SELECT id, confirmed_at IS NOT NULL, unsubscribed_at IS NOT NULL, requested_ms FROM newsletter_subscribers WHERE email_key = ?`), key).
			Scan(&id, &isConfirmed, &isGone, &requested)
		switch {
		case err != nil:
			return err
		case isConfirmed && !isGone:
			return nil
		case mail && !isGone && at.Sub(time.UnixMilli(requested)) < ConfirmationsEvery:
			created = true // waiting for a confirmation mailed just now: no other
			return nil
		default:
			// Back after unsubscribing, or asking again for a confirmation:
			// it is a sign-up of today, as typed today.
			if _, err := tx.ExecContext(ctx, s.q(`UPDATE newsletter_subscribers SET email = ?, created_at = ?, confirmed_at = ?, unsubscribed_at = NULL, requested_ms = ? WHERE id = ?`),
				email, at.UTC(), confirmed, millis(at), id); err != nil {
				return err
			}
		}
		created = true
		if mail {
			return s.queueMail(ctx, tx, RecipientConfirm, 0, &id, at)
		}
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("store: subscribe: %w", err)
	}
	return created, nil
}

// ConfirmSubscription confirms the address's subscription (its holder
// followed the confirmation mail's link). Confirming twice is no change;
// an address that unsubscribed since stays unsubscribed, and one that is
// not on the list is ErrNoSubscriber.
func (s *Store) ConfirmSubscription(ctx context.Context, email string, at time.Time) error {
	res, err := s.write.ExecContext(ctx, s.q(`UPDATE newsletter_subscribers SET confirmed_at = COALESCE(confirmed_at, ?) WHERE email_key = ? AND unsubscribed_at IS NULL`),
		at.UTC(), enquiry.EmailKey(email))
	if err != nil {
		return fmt.Errorf("store: confirm subscription: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		if err != nil {
			return fmt.Errorf("store: confirm subscription: %w", err)
		}
		return ErrNoSubscriber
	}
	return nil
}

// Unsubscribe takes the address off the list; it stays known as
// unsubscribed (the list leaves it out) until it signs up again. Doing it
// twice is no change, and an address not on the list is not an error:
// either way it gets no newsletter.
func (s *Store) Unsubscribe(ctx context.Context, email string, at time.Time) error {
	_, err := s.write.ExecContext(ctx, s.q(`UPDATE newsletter_subscribers SET unsubscribed_at = COALESCE(unsubscribed_at, ?) WHERE email_key = ?`),
		at.UTC(), enquiry.EmailKey(email))
	if err != nil {
		return fmt.Errorf("store: unsubscribe: %w", err)
	}
	return nil
}

// IsSubscribed tells whether the address is a confirmed subscriber that
// has not unsubscribed.
func (s *Store) IsSubscribed(ctx context.Context, email string) (bool, error) {
	var n int
	err := s.read.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM newsletter_subscribers WHERE email_key = ? AND `+subscribed),
		enquiry.EmailKey(email)).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("store: is subscribed: %w", err)
	}
	return n > 0, nil
}

// DropUnconfirmed deletes the addresses whose confirmation was asked for
// more than UnconfirmedFor before now and never given, with their
// pending confirmation mails. Subscribe does it too; the server calls it
// now and then so the list is clean when nobody signs up.
func (s *Store) DropUnconfirmed(ctx context.Context, now time.Time) error {
	if err := s.inTx(ctx, func(tx *sql.Tx) error { return s.dropUnconfirmed(ctx, tx, now) }); err != nil {
		return fmt.Errorf("store: drop unconfirmed subscribers: %w", err)
	}
	return nil
}

func (s *Store) dropUnconfirmed(ctx context.Context, tx *sql.Tx, now time.Time) error {
	before := millis(now.Add(-UnconfirmedFor))
	if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM mail_outbox WHERE recipient = ? AND sent_ms IS NULL AND ref_id IN
		(SELECT id FROM newsletter_subscribers WHERE confirmed_at IS NULL AND requested_ms < ?)`), RecipientConfirm, before); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, s.q(`DELETE FROM newsletter_subscribers WHERE confirmed_at IS NULL AND requested_ms < ?`), before)
	return err
}

// Subscribers lists the newsletter list, oldest first: the confirmed
// addresses that have not unsubscribed.
func (s *Store) Subscribers(ctx context.Context) ([]enquiry.Subscriber, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT email, created_at FROM newsletter_subscribers WHERE `+subscribed+` ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("store: list subscribers: %w", err)
	}
	defer rows.Close()
	var list []enquiry.Subscriber
	for rows.Next() {
		var sub enquiry.Subscriber
		if err := rows.Scan(&sub.Email, &sub.CreatedAt); err != nil {
			return nil, fmt.Errorf("store: list subscribers: %w", err)
		}
		sub.CreatedAt = sub.CreatedAt.UTC()
		list = append(list, sub)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list subscribers: %w", err)
	}
	return list, nil
}

// Subscription is an address's place on the newsletter list, as a
// customer's page shows it.
type Subscription struct {
	Email        string
	SignedUp     time.Time
	Confirmed    *time.Time // nil: not confirmed yet
	Unsubscribed *time.Time // nil: still subscribed (once confirmed)
}

// SubscriptionOf is an address's place on the newsletter list; found is
// false when it has never signed up (or was dropped, or erased).
func (s *Store) SubscriptionOf(ctx context.Context, email string) (sub Subscription, found bool, err error) {
	var confirmed, unsubscribed sql.NullTime
	err = s.read.QueryRowContext(ctx, s.q(`SELECT email, created_at, confirmed_at, unsubscribed_at FROM newsletter_subscribers WHERE email_key = ?`),
		enquiry.EmailKey(strings.TrimSpace(email))).Scan(&sub.Email, &sub.SignedUp, &confirmed, &unsubscribed)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return sub, false, nil
	case err != nil:
		return sub, false, fmt.Errorf("store: subscription: %w", err)
	}
	sub.SignedUp = sub.SignedUp.UTC()
	if confirmed.Valid {
		t := confirmed.Time.UTC()
		sub.Confirmed = &t
	}
	if unsubscribed.Valid {
		t := unsubscribed.Time.UTC()
		sub.Unsubscribed = &t
	}
	return sub, true, nil
}

// subscriber reads the subscriber id for a confirmation mail.
func (s *Store) subscriber(ctx context.Context, id int64) (Subscriber, error) {
	var sub Subscriber
	err := s.read.QueryRowContext(ctx, s.q(`SELECT id, email, `+subscribed+` FROM newsletter_subscribers WHERE id = ?`), id).
		Scan(&sub.ID, &sub.Email, &sub.Subscribed)
	return sub, err
}

// Subscriber is an address of the list as a mail's composer needs it.
type Subscriber struct {
	ID         int64
	Email      string
	Subscribed bool // confirmed, and not unsubscribed
}

// subscribed is the condition on a row of newsletter_subscribers that it
// is on the list: confirmed, and not unsubscribed since.
const subscribed = `(confirmed_at IS NOT NULL AND unsubscribed_at IS NULL)`
