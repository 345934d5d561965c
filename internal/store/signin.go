package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Failed sign-ins, counted per pair (the account tried, from one address)
// and per address, never per account alone: guesses at an account from
// elsewhere must not keep its holder out. They live in the database so
// that the count is one across concurrent requests and across copies of
// the server.

// Backoff is how one key's failures slow its next try: Free failures cost
// nothing; after that the next try waits First from the latest failure,
// twice that after one more failure, and so on, never more than Max.
type Backoff struct {
	Free  int
	First time.Duration
	Max   time.Duration
}

// Wait is how long from now a key must wait before its next try, with
// count failures counted, the latest at last; 0 when it may try now.
func (b Backoff) Wait(count int, last, now time.Time) time.Duration {
	if count < b.Free {
		return 0
	}
	wait := b.First
	for i := b.Free; i < count && wait < b.Max; i++ {
		wait *= 2
	}
	return max(last.Add(min(wait, b.Max)).Sub(now), 0)
}

// SignInRule is the limits ReserveSignIn applies.
type SignInRule struct {
	Pair    Backoff       // one account tried from one address
	Address Backoff       // any accounts tried from one address (an office shares one)
	Window  time.Duration // how far back failures count
	Keep    time.Duration // how long failures are kept, to be shown to the account's holder; at least Window
}

// ReserveSignIn decides whether account may be tried from address at now.
// When the pair or the address must wait, it says how long and records
// nothing. Otherwise it records the try as a failure before its password
// is checked, so that concurrent tries count each other (a try that turns
// out right takes it back with ClearSignInFailures). Failures older than
// rule.Keep are deleted on the way.
func (s *Store) ReserveSignIn(ctx context.Context, account, address string, now time.Time, rule SignInRule) (time.Duration, error) {
	account = AccountKey(account)
	var wait time.Duration
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		// SQLite's one writing connection runs these transactions one at a
		// time already. On PostgreSQL, tries from one address take turns
		// (the pair is within the address); the two-key form keeps clear
		// of migrate's one-key lock, and 8 names this migration.
		if s.dialect == Postgres {
			if _, err := tx.ExecContext(ctx, s.q(`SELECT pg_advisory_xact_lock(8, hashtext(?))`), address); err != nil {
				return fmt.Errorf("lock the address: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM sign_in_failures WHERE at_ms < ?`), millis(now.Add(-rule.Keep))); err != nil {
			return fmt.Errorf("delete old failures: %w", err)
		}
		since := millis(now.Add(-rule.Window))
		count := func(query string, args ...any) (int, time.Time, error) {
			var n int
			var last int64
			err := tx.QueryRowContext(ctx, s.q(query), args...).Scan(&n, &last)
			return n, time.UnixMilli(last), err
		}
		pairN, pairLast, err := count(`SELECT COUNT(*), COALESCE(MAX(at_ms), 0) FROM sign_in_failures WHERE account = ? AND address = ? AND at_ms > ?`, account, address, since)
		if err != nil {
			return fmt.Errorf("count the pair's failures: %w", err)
		}
		addrN, addrLast, err := count(`SELECT COUNT(*), COALESCE(MAX(at_ms), 0) FROM sign_in_failures WHERE address = ? AND at_ms > ?`, address, since)
		if err != nil {
			return fmt.Errorf("count the address's failures: %w", err)
		}
		wait = max(rule.Pair.Wait(pairN, pairLast, now), rule.Address.Wait(addrN, addrLast, now))
		if wait > 0 {
			return nil
		}
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO sign_in_failures (account, address, at_ms) VALUES (?, ?, ?)`), account, address, millis(now)); err != nil {
			return fmt.Errorf("record the try: %w", err)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("store: reserve sign-in: %w", err)
	}
	return wait, nil
}

// ClearSignInFailures forgets the pair's failures, the reservation of a
// try that was right among them: whoever knows the password owes no wait
// for their own typing mistakes. Other addresses' failures stay.
func (s *Store) ClearSignInFailures(ctx context.Context, account, address string) error {
	if _, err := s.write.ExecContext(ctx, s.q(`DELETE FROM sign_in_failures WHERE account = ? AND address = ?`), AccountKey(account), address); err != nil {
		return fmt.Errorf("store: clear sign-in failures: %w", err)
	}
	return nil
}

// UnlockAccount forgets an account's failures from every address (`studio
// user unlock`), and says how many there were.
func (s *Store) UnlockAccount(ctx context.Context, account string) (int64, error) {
	res, err := s.write.ExecContext(ctx, s.q(`DELETE FROM sign_in_failures WHERE account = ?`), AccountKey(account))
	if err != nil {
		return 0, fmt.Errorf("store: unlock account: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// FailedSignIns sums up an account's failed sign-ins for its holder.
type FailedSignIns struct {
	Count int
	Last  time.Time // the latest one
	From  string    // the latest one's address
}

// FailedSignInsSince sums up the failures kept for an account since since.
func (s *Store) FailedSignInsSince(ctx context.Context, account string, since time.Time) (FailedSignIns, error) {
	var (
		f    FailedSignIns
		last int64
	)
	err := s.read.QueryRowContext(ctx, s.q(`SELECT COUNT(*) OVER (), at_ms, address FROM sign_in_failures
		WHERE account = ? AND at_ms >= ? ORDER BY at_ms DESC LIMIT 1`), AccountKey(account), millis(since)).Scan(&f.Count, &last, &f.From)
	if errors.Is(err, sql.ErrNoRows) {
		return FailedSignIns{}, nil
	}
	if err != nil {
		return f, fmt.Errorf("store: read failed sign-ins: %w", err)
	}
	f.Last = time.UnixMilli(last).UTC()
	return f, nil
}
