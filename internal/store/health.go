package store

import (
	"context"
	"fmt"
	"time"
)

// CheckWrite proves that the database accepts a write now: it rewrites the
// one row of the readiness table in a committed transaction, so a full
// disk, a read-only file or a lost connection fails it as it would fail an
// enquiry.
func (s *Store) CheckWrite(ctx context.Context, now time.Time) error {
	_, err := s.write.ExecContext(ctx, s.q(`INSERT INTO readiness (id, checked_at) VALUES (1, ?)
		ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at`), millis(now))
	if err != nil {
		return fmt.Errorf("store: write check: %w", err)
	}
	return nil
}
