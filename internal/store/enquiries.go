package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"studio/internal/enquiry"
)

const enquiryColumns = `id, kind, name, email, phone, message, product_id, product_name, material, finish, spam, created_at, handled_at`

// CreateEnquiry stores e and returns its id. With mail set (SMTP is
// configured and e is not spam), an e-mail to the studio and an
// acknowledgement to the visitor are queued in the same transaction: the
// enquiry and its mails are stored together or not at all. It returns once
// the transaction is committed, that is, on disk.
func (s *Store) CreateEnquiry(ctx context.Context, e enquiry.Enquiry, mail bool) (int64, error) {
	var (
		id  int64
		err error
	)
	if s.batch != nil {
		id, err = s.batch.create(ctx, e, mail)
	} else {
		err = s.inTx(ctx, func(tx *sql.Tx) error {
			id, err = s.insertEnquiry(ctx, tx, e, mail)
			return err
		})
	}
	if err != nil {
		return 0, fmt.Errorf("store: insert enquiry: %w", err)
	}
	return id, nil
}

func (s *Store) insertEnquiry(ctx context.Context, tx *sql.Tx, e enquiry.Enquiry, mail bool) (int64, error) {
	var product sql.NullInt64
	if e.ProductID != 0 {
		product = sql.NullInt64{Int64: int64(e.ProductID), Valid: true}
	}
	id, err := s.insertID(ctx, tx,
		`INSERT INTO enquiries (kind, name, email, phone, message, product_id, product_name, material, finish, spam, created_at)
		 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		string(e.Kind), e.Name, e.Email, e.Phone, e.Message, product, e.ProductName, e.Material, e.Finish, e.Spam, e.CreatedAt.UTC())
	if err != nil {
		return 0, err
	}
	if mail {
		err = s.queueMails(ctx, tx, id, e) // outbox.go: the studio's copy and the visitor's acknowledgement
	}
	return id, err
}

// EnquiryFilter chooses the enquiries the inbox lists.
type EnquiryFilter struct {
	Kind     enquiry.Kind // "" for every kind
	Spam     bool         // list the spam instead of the rest
	AllSpam  bool         // list spam and the rest together (exports)
	BeforeID int64        // 0 for the newest; else only ids below it
	Limit    int          // 0 for all
}

// Enquiries lists enquiries newest first.
func (s *Store) Enquiries(ctx context.Context, f EnquiryFilter) ([]enquiry.Enquiry, error) {
	query := `SELECT ` + enquiryColumns + ` FROM enquiries WHERE (spam = ? OR ?)`
	args := []any{f.Spam, f.AllSpam}
	if f.Kind != "" {
		query += ` AND kind = ?`
		args = append(args, string(f.Kind))
	}
	if f.BeforeID > 0 {
		query += ` AND id < ?`
		args = append(args, f.BeforeID)
	}
	query += ` ORDER BY id DESC`
	if f.Limit > 0 {
		query += ` LIMIT ?`
		args = append(args, f.Limit)
	}
	rows, err := s.read.QueryContext(ctx, s.q(query), args...)
	if err != nil {
		return nil, fmt.Errorf("store: list enquiries: %w", err)
	}
	defer rows.Close()
	var list []enquiry.Enquiry
	for rows.Next() {
		e, err := scanEnquiry(rows)
		if err != nil {
			return nil, fmt.Errorf("store: list enquiries: %w", err)
		}
		list = append(list, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list enquiries: %w", err)
	}
	return list, nil
}

// Enquiry returns one enquiry.
func (s *Store) Enquiry(ctx context.Context, id int64) (enquiry.Enquiry, error) {
	row := s.read.QueryRowContext(ctx, s.q(`SELECT `+enquiryColumns+` FROM enquiries WHERE id = ?`), id)
	e, err := scanEnquiry(row)
	if errors.Is(err, sql.ErrNoRows) {
		return e, enquiry.ErrNotFound
	}
	if err != nil {
		return e, fmt.Errorf("store: get enquiry %d: %w", id, err)
	}
	return e, nil
}

// MarkHandled records that the studio has dealt with an enquiry.
func (s *Store) MarkHandled(ctx context.Context, id int64, at time.Time) error {
	res, err := s.write.ExecContext(ctx, s.q(`UPDATE enquiries SET handled_at = ? WHERE id = ? AND handled_at IS NULL`), at.UTC(), id)
	if err != nil {
		return fmt.Errorf("store: mark enquiry %d handled: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		if _, err := s.Enquiry(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

type scanner interface{ Scan(...any) error }

func scanEnquiry(row scanner) (enquiry.Enquiry, error) {
	var (
		e       enquiry.Enquiry
		kind    string
		product sql.NullInt64
		handled sql.NullTime
	)
	err := row.Scan(&e.ID, &kind, &e.Name, &e.Email, &e.Phone, &e.Message, &product, &e.ProductName, &e.Material, &e.Finish, &e.Spam, &e.CreatedAt, &handled)
	e.Kind = enquiry.Kind(kind)
	e.ProductID = int(product.Int64)
	e.CreatedAt = e.CreatedAt.UTC()
	if handled.Valid {
		t := handled.Time.UTC()
		e.HandledAt = &t
	}
	return e, err
}
