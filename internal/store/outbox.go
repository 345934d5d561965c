package store

import (
	"context"
	"fmt"
	"time"

	"studio/internal/enquiry"
)

// PendingMail is an e-mail about an enquiry that has not reached the
// studio's mail server yet.
type PendingMail struct {
	ID       int64
	Attempts int
	claim    int64
	Enquiry  enquiry.Enquiry
}

// DueMails lists up to limit pending mails whose next attempt is due at now.
func (s *Store) DueMails(ctx context.Context, now time.Time, limit int) ([]PendingMail, error) {
	rows, err := s.read.QueryContext(ctx, s.q(`SELECT o.id, o.attempts, o.claim, e.id, e.kind, e.name, e.email, e.phone, e.message,
			e.product_id, e.product_name, e.material, e.finish, e.spam, e.created_at, e.status
		FROM mail_outbox o JOIN enquiries e ON e.id = o.enquiry_id
		WHERE o.sent_ms IS NULL AND o.failed_ms IS NULL AND o.next_attempt_ms <= ?
		ORDER BY o.next_attempt_ms, o.id LIMIT ?`), millis(now), limit)
	if err != nil {
		return nil, fmt.Errorf("store: due mails: %w", err)
	}
	defer rows.Close()
	var list []PendingMail
	for rows.Next() {
		var m PendingMail
		var id int64
		var attempts int
		var claim int64
		e, err := scanEnquiry(prefixScanner{rows, []any{&id, &attempts, &claim}})
		if err != nil {
			return nil, fmt.Errorf("store: due mails: %w", err)
		}
		m.ID, m.Attempts, m.claim, m.Enquiry = id, attempts, claim, e
		list = append(list, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: due mails: %w", err)
	}
	return list, nil
}

// prefixScanner scans some leading columns into extra before the enquiry's.
type prefixScanner struct {
	row   scanner
	extra []any
}

func (p prefixScanner) Scan(dest ...any) error {
	return p.row.Scan(append(p.extra, dest...)...)
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

// MailStatus counts the outbox: pending, sent and given up.
func (s *Store) MailStatus(ctx context.Context) (pending, sent, failed int, err error) {
	err = s.read.QueryRowContext(ctx, `SELECT
		COALESCE(SUM(CASE WHEN sent_ms IS NULL AND failed_ms IS NULL THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN sent_ms IS NOT NULL THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN failed_ms IS NOT NULL THEN 1 ELSE 0 END), 0) FROM mail_outbox`).Scan(&pending, &sent, &failed)
	if err != nil {
		err = fmt.Errorf("store: mail status: %w", err)
	}
	return
}

// MailFigures is the outbox as /metrics shows it.
type MailFigures struct {
	Pending        int // waiting to be sent
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
		COALESCE(SUM(CASE WHEN failed_ms IS NOT NULL THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(attempts), 0) - COALESCE(SUM(CASE WHEN sent_ms IS NOT NULL THEN 1 ELSE 0 END), 0) FROM mail_outbox`).Scan(&f.Pending, &f.GivenUp, &f.FailedAttempts)
	if err != nil {
		return MailFigures{}, fmt.Errorf("store: mail figures: %w", err)
	}
	return f, nil
}
