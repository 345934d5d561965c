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

// Subscribe adds an address to the newsletter list. created is false when
// the address (compared without regard to case) was already on it.
func (s *Store) Subscribe(ctx context.Context, email string, at time.Time) (created bool, err error) {
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.q(`INSERT INTO newsletter_subscribers (email, email_key, created_at) VALUES (?, ?, ?)
			ON CONFLICT (email_key) DO NOTHING`), email, enquiry.EmailKey(email), at.UTC())
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		created = n == 1
		return err
	})
	if err != nil {
		return false, fmt.Errorf("store: subscribe: %w", err)
	}
	return created, nil
}

// Subscribers lists the newsletter list, oldest first.
func (s *Store) Subscribers(ctx context.Context) ([]enquiry.Subscriber, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT email, created_at FROM newsletter_subscribers ORDER BY id`)
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

// Subscription is an address's place on the newsletter list: subscribed
// is false when it is not on it.
func (s *Store) Subscription(ctx context.Context, email string) (sub enquiry.Subscriber, subscribed bool, err error) {
	err = s.read.QueryRowContext(ctx, s.q(`SELECT email, created_at FROM newsletter_subscribers WHERE email_key = ?`), enquiry.EmailKey(strings.TrimSpace(email))).
		Scan(&sub.Email, &sub.CreatedAt)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return sub, false, nil
	case err != nil:
		return sub, false, fmt.Errorf("store: subscription: %w", err)
	}
	sub.CreatedAt = sub.CreatedAt.UTC()
	return sub, true, nil
}
