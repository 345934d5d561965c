package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"studio/internal/enquiry"
)

// ActionErase is the history's record that a person's data was erased
// from an enquiry (ErasePerson); it keeps who did it and when, nothing
// of the data.
const ActionErase = "erase"

// ErasedName stands for the name of a person whose data was erased.
const ErasedName = "Erased"

// ErrNotOverwritten says that an erasure was committed but the database
// may still hold old copies of the erased data in its files: erasing the
// person again, which finds nothing left to blank, tries once more.
var ErrNotOverwritten = errors.New("the data is erased, but old copies of it may still be in the database's files")

// erasedTables are the tables ErasePerson changes.
const erasedTables = "enquiries, enquiry_items, enquiry_notes, enquiry_replies, mail_outbox, newsletter_subscribers"

// ErasePerson removes what the studio holds about the person with the
// address email, when they ask to be forgotten, in one transaction: on
// every enquiry from that address (compared as enquiry.EmailKey does),
// the name becomes ErasedName and the address, phone, message, the
// pieces' notes, the studio's notes and the replies' addresses, subjects,
// texts and attachments are blanked; the mails of those enquiries not yet
// sent are dropped; the newsletter subscription is deleted. The enquiries
// themselves stay, with what they were about (products, kind, dates), so
// the studio's figures keep adding up; the analytics hold no personal
// data and are not touched. Each enquiry's history records the erasure
// by actor. erased is the number of enquiries.
//
// Then the database's files are rewritten (overwrite), so that the bytes
// of the old rows are gone from them too; if that fails, the erasure
// stands and the error wraps ErrNotOverwritten.
func (s *Store) ErasePerson(ctx context.Context, email, actor string, at time.Time) (erased int, err error) {
	key := enquiry.EmailKey(email)
	var erasure string // PostgreSQL: the erasing transaction's id
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		erased = 0
		ids, err := s.enquiriesFrom(ctx, tx, key)
		if err != nil {
			return err
		}
		for _, id := range ids {
			for _, stmt := range []string{
				// The idempotency key of a form sent without JavaScript is a
				// hash of what the person typed (server.formKey): it goes too.
				`UPDATE enquiries SET name = '` + ErasedName + `', email = '', phone = '', message = '', idempotency_key = NULL WHERE id = ?`,
				`UPDATE enquiry_items SET note = '' WHERE enquiry_id = ?`,
				`UPDATE enquiry_notes SET body = '' WHERE enquiry_id = ?`,
				`UPDATE enquiry_replies SET to_address = '', subject = '', body = '', attachment_name = '', attachment = NULL WHERE enquiry_id = ?`,
				`DELETE FROM mail_outbox WHERE enquiry_id = ? AND sent_ms IS NULL AND failed_ms IS NULL`,
				// A mail server's refusal names the address it refused.
				`UPDATE mail_outbox SET last_error = '' WHERE enquiry_id = ?`,
			} {
				if _, err := tx.ExecContext(ctx, s.q(stmt), id); err != nil {
					return fmt.Errorf("enquiry %d: %w", id, err)
				}
			}
			if err := s.record(ctx, tx, id, ActionErase, "", "", actor, at); err != nil {
				return err
			}
			erased++
		}
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM mail_outbox WHERE recipient = ? AND sent_ms IS NULL AND ref_id IN
			(SELECT id FROM newsletter_subscribers WHERE email_key = ?)`), RecipientConfirm, key); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE mail_outbox SET last_error = '' WHERE recipient = ? AND ref_id IN
			(SELECT id FROM newsletter_subscribers WHERE email_key = ?)`), RecipientConfirm, key); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM newsletter_subscribers WHERE email_key = ?`), key); err != nil {
			return err
		}
		if s.dialect == Postgres {
			// The erasure's own transaction id, as the xid that
			// pg_stat_activity's backend_xmin is (its low 32 bits).
			return tx.QueryRowContext(ctx, `SELECT (pg_current_xact_id()::text::bigint % 4294967296)::text`).Scan(&erasure)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("store: erase a person's data: %w", err)
	}
	// Once the rows are blanked, their copies must go too, even if the
	// caller stops waiting (a request's DATABASE_TIMEOUT).
	if err := s.overwrite(context.WithoutCancel(ctx), erasure); err != nil {
		return erased, fmt.Errorf("store: erase a person's data: %w: %w", ErrNotOverwritten, err)
	}
	return erased, nil
}

// overwrite rewrites the database so that no deleted or replaced row
// stays in its files. Blanking a row leaves its old bytes behind: SQLite
// keeps them in the WAL until a checkpoint, and in the free space of
// pages written before secure_delete was on, or rebuilt when rows moved
// between pages (secure_delete zeroes only what it frees); PostgreSQL keeps the old row
// version as a dead tuple, and a plain VACUUM frees its space without
// clearing it. So SQLite is vacuumed as a whole (it copies the live rows
// into a fresh file and writes it back) and its WAL checkpointed and
// truncated; PostgreSQL's tables that the erasure changed are rewritten
// by VACUUM FULL, and analysed again, as their statistics sample values.
// A lock is waited for a minute at most: queued behind a long reader (a
// pg_dump), the vacuum's lock would hold the inbox up too.
//
// VACUUM FULL keeps a row version that any open snapshot may still see:
// one taken before the erasure (erasure, its transaction id) committed,
// in any session of the server. So it first waits, a minute at most, for
// those snapshots to end; one still open then (a pg_dump) is an error:
// the old rows would be copied into the new files.
func (s *Store) overwrite(ctx context.Context, erasure string) error {
	conn, err := s.write.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if s.dialect == Postgres {
		if _, err := conn.ExecContext(ctx, `SET lock_timeout = '1min'`); err != nil {
			return err
		}
		defer conn.ExecContext(ctx, `RESET lock_timeout`)
		if err := waitForSnapshotsBefore(ctx, conn, erasure, cmp.Or(s.snapshotWait, time.Minute)); err != nil {
			return err
		}
		if _, err := conn.ExecContext(ctx, `VACUUM (FULL, ANALYZE) `+erasedTables); err != nil {
			return fmt.Errorf("vacuum: %w", err)
		}
		return nil
	}
	if _, err := conn.ExecContext(ctx, `VACUUM`); err != nil {
		return fmt.Errorf("vacuum: %w", err)
	}
	var busy, frames, done int
	if err := conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &frames, &done); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	if busy != 0 {
		return errors.New("checkpoint: readers kept the WAL busy")
	}
	return nil
}

// enquiriesFrom lists the ids of the enquiries whose address has the key.
// The comparison is Go's (enquiry.EmailKey), not the database's LOWER,
// which on SQLite folds ASCII letters only: every address is read, which
// is fine for a request as rare as an erasure.
func (s *Store) enquiriesFrom(ctx context.Context, db querier, key string) ([]int64, error) {
	rows, err := db.QueryContext(ctx, `SELECT id, email FROM enquiries WHERE email <> '' ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var (
			id    int64
			email string
		)
		if err := rows.Scan(&id, &email); err != nil {
			return nil, err
		}
		if enquiry.EmailKey(email) == key {
			ids = append(ids, id)
		}
	}
	return ids, rows.Err()
}

// waitForSnapshotsBefore waits, for limit at most, until no other session
// of the PostgreSQL server holds a snapshot that may not see transaction
// xid committed (its xmin is xid or older), so that a VACUUM after it
// removes every row version xid replaced.
func waitForSnapshotsBefore(ctx context.Context, conn *sql.Conn, xid string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		var older int
		err := conn.QueryRowContext(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE pid <> pg_backend_pid() AND backend_xmin IS NOT NULL AND age(backend_xmin) >= age($1::xid)`, xid).Scan(&older)
		switch {
		case err != nil:
			return fmt.Errorf("the sessions' snapshots: %w", err)
		case older == 0:
			return nil
		case time.Now().After(deadline):
			return fmt.Errorf("%d session(s) of the database server (a backup, a long report) still see the rows as they were before the erasure", older)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
