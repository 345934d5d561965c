package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// RecordSignInAddress keeps base (scheme://host) as the address the
// workspace was last signed in at by an owner: the links in mails start
// with it when the server is told no address of its own (PUBLIC_URL,
// DOMAIN).
func (s *Store) RecordSignInAddress(ctx context.Context, base string, at time.Time) error {
	_, err := s.write.ExecContext(ctx, s.q(`INSERT INTO sign_in_address (id, base_url, signed_in_ms) VALUES (1, ?, ?)
		ON CONFLICT (id) DO UPDATE SET base_url = excluded.base_url, signed_in_ms = excluded.signed_in_ms`), base, millis(at))
	if err != nil {
		return fmt.Errorf("store: record the sign-in address: %w", err)
	}
	return nil
}

// SignInAddress is the address RecordSignInAddress kept last; "" before
// any owner has signed in.
func (s *Store) SignInAddress(ctx context.Context) (string, error) {
	var base string
	err := s.read.QueryRowContext(ctx, `SELECT base_url FROM sign_in_address WHERE id = 1`).Scan(&base)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: read the sign-in address: %w", err)
	}
	return base, nil
}
