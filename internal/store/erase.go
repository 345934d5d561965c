package store

import (
	"context"
	"database/sql"
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
func (s *Store) ErasePerson(ctx context.Context, email, actor string, at time.Time) (erased int, err error) {
	key := enquiry.EmailKey(email)
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
		_, err = tx.ExecContext(ctx, s.q(`DELETE FROM newsletter_subscribers WHERE email_key = ?`), key)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: erase a person's data: %w", err)
	}
	return erased, nil
}

// querier is a database or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
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
