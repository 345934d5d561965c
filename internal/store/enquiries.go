package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"studio/internal/enquiry"
)

const enquiryColumns = `id, kind, name, email, phone, message, product_id, product_name, material, finish, spam, created_at, status, COALESCE(idempotency_key, '')`

// CreateEnquiry stores e and returns its id. With mail set (SMTP is
// configured and e is not spam), an e-mail to the studio and an
// acknowledgement to the visitor (none past AcknowledgementsPerDay to its
// address) are queued in the same transaction: the enquiry and its mails
// are stored together or not at all. It returns once
// the transaction is committed, that is, on disk.
//
// An enquiry with an idempotency key that is already stored is a retry: it
// stores nothing (no enquiry, no mail) and returns the first enquiry's id.
// That holds for a key stored earlier in the same SQLite batch, and for two
// requests with one key at once (the second waits for the first's
// transaction, on both databases). So a client that lost the answer (a
// request cancelled mid-commit may still be committed) retries safely.
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
		if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
			// Cancelled mid-commit, PostgreSQL's driver may say only "bad
			// connection": say why, so the caller does not take the
			// visitor's leaving for a database failure.
			return 0, fmt.Errorf("store: insert enquiry: %w (%w)", cerr, err)
		}
		return 0, fmt.Errorf("store: insert enquiry: %w", err)
	}
	return id, nil
}

func (s *Store) insertEnquiry(ctx context.Context, tx *sql.Tx, e enquiry.Enquiry, mail bool) (int64, error) {
	var product sql.NullInt64
	if e.ProductID != 0 {
		product = sql.NullInt64{Int64: int64(e.ProductID), Valid: true}
	}
	var key sql.NullString
	if e.IdempotencyKey != "" {
		key = sql.NullString{String: e.IdempotencyKey, Valid: true}
	}
	// ON CONFLICT DO NOTHING rather than catching the unique violation: a
	// violation would abort a PostgreSQL transaction and fail a whole SQLite
	// batch, where this quietly inserts nothing and returns no row.
	id, err := s.insertID(ctx, tx,
		`INSERT INTO enquiries (kind, name, email, phone, message, product_id, product_name, material, finish, spam, created_at, idempotency_key)
		 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING`,
		string(e.Kind), e.Name, e.Email, e.Phone, e.Message, product, e.ProductName, e.Material, e.Finish, e.Spam, e.CreatedAt.UTC(), key)
	if errors.Is(err, sql.ErrNoRows) && key.Valid {
		// A retry: the key is stored (committed before, or earlier in this
		// transaction). Each statement of a PostgreSQL transaction at READ
		// COMMITTED sees what was committed before it began, so this finds
		// the row whose insert the one above waited for.
		err = tx.QueryRowContext(ctx, s.q(`SELECT id FROM enquiries WHERE idempotency_key = ?`), key).Scan(&id)
		return id, err
	}
	if err != nil {
		return 0, err
	}
	if err := s.insertItems(ctx, tx, id, e.Items); err != nil {
		return 0, err
	}
	if mail {
		err = s.queueMails(ctx, tx, id, e) // outbox.go: the studio's copy and the visitor's acknowledgement
	}
	return id, err
}

// insertItems stores an enquiry's pieces in its transaction, in one
// statement (at most 50 pieces, 400 parameters: well within both
// databases' limits).
func (s *Store) insertItems(ctx context.Context, tx *sql.Tx, enquiryID int64, items []enquiry.Item) error {
	if len(items) == 0 {
		return nil
	}
	query := `INSERT INTO enquiry_items (enquiry_id, position, product_id, product_name, material, finish, quantity, note) VALUES `
	args := make([]any, 0, 8*len(items))
	for i, it := range items {
		if i > 0 {
			query += `, `
		}
		query += `(?, ?, ?, ?, ?, ?, ?, ?)`
		args = append(args, enquiryID, i, it.ProductID, it.ProductName, it.Material, it.Finish, it.Quantity, it.Note)
	}
	_, err := tx.ExecContext(ctx, s.q(query), args...)
	return err
}

// withItems fills in the pieces of the enquiries in list, with one query
// for a page's ids (in chunks, for an export of every enquiry), never one
// per enquiry. An enquiry may be in list more than once (the two mails of
// one enquiry); each copy gets its pieces.
func (s *Store) withItems(ctx context.Context, list []enquiry.Enquiry) error {
	var ids []int64
	seen := make(map[int64]bool, len(list))
	for _, e := range list {
		if !seen[e.ID] {
			seen[e.ID] = true
			ids = append(ids, e.ID)
		}
	}
	items := map[int64][]enquiry.Item{}
	const chunk = 500 // well below either database's limit on parameters
	for start := 0; start < len(ids); start += chunk {
		page := ids[start:min(start+chunk, len(ids))]
		args := make([]any, len(page))
		for i, id := range page {
			args[i] = id
		}
		marks := strings.TrimSuffix(strings.Repeat("?, ", len(page)), ", ")
		rows, err := s.read.QueryContext(ctx, s.q(`SELECT enquiry_id, product_id, product_name, material, finish, quantity, note
			FROM enquiry_items WHERE enquiry_id IN (`+marks+`) ORDER BY enquiry_id, position`), args...)
		if err != nil {
			return fmt.Errorf("store: enquiry items: %w", err)
		}
		for rows.Next() {
			var (
				id int64
				it enquiry.Item
			)
			if err := rows.Scan(&id, &it.ProductID, &it.ProductName, &it.Material, &it.Finish, &it.Quantity, &it.Note); err != nil {
				rows.Close()
				return fmt.Errorf("store: enquiry items: %w", err)
			}
			items[id] = append(items[id], it)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return fmt.Errorf("store: enquiry items: %w", err)
		}
	}
	for i := range list {
		list[i].Items = items[list[i].ID]
	}
	return nil
}

// EnquiryFilter chooses the enquiries the inbox lists. Every field left
// at its zero value chooses everything.
type EnquiryFilter struct {
	Statuses  []enquiry.Status // any of these
	Spam      bool             // list the spam instead of the rest
	AllSpam   bool             // list spam and the rest together (exports)
	Kind      enquiry.Kind
	ProductID int
	From, To  time.Time // received at or after From, before To
	Search    string    // in the name, e-mail, phone, message or product
	Email     string    // from this address, in any case (a customer's enquiries)
	BeforeID  int64     // only ids below it (older)
	AfterID   int64     // only ids above it (newer); the list is still newest first
	Limit     int
}

// Enquiries lists enquiries newest first. With AfterID it lists the Limit
// enquiries just above that id, so "newer" pages back the way "older" came.
func (s *Store) Enquiries(ctx context.Context, f EnquiryFilter) ([]enquiry.Enquiry, error) {
	where, args, none, err := s.enquiryConditions(ctx, f)
	if err != nil {
		return nil, fmt.Errorf("store: list enquiries: %w", err)
	}
	if none {
		return nil, nil
	}
	order := ` ORDER BY id DESC`
	if f.AfterID > 0 {
		order = ` ORDER BY id ASC`
	}
	query := `SELECT ` + enquiryColumns + ` FROM enquiries WHERE ` + where + order
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
	if f.AfterID > 0 {
		slices.Reverse(list)
	}
	if err := s.withItems(ctx, list); err != nil {
		return nil, err
	}
	return list, nil
}

// enquiryConditions is the WHERE clause choosing the enquiries f asks for,
// with its arguments; none is true when nothing can match (no enquiry from
// f.Email), so there is nothing to ask the database.
func (s *Store) enquiryConditions(ctx context.Context, f EnquiryFilter) (where string, args []any, none bool, err error) {
	where = `(spam = ? OR ?)`
	args = []any{f.Spam, f.AllSpam}
	if len(f.Statuses) > 0 {
		where += ` AND status IN (?` + strings.Repeat(`, ?`, len(f.Statuses)-1) + `)`
		for _, st := range f.Statuses {
			args = append(args, string(st))
		}
	}
	if f.Kind != "" {
		where += ` AND kind = ?`
		args = append(args, string(f.Kind))
	}
	if f.ProductID != 0 {
		// The product asked about, or one of the pieces of a shortlist.
		where += ` AND (product_id = ? OR id IN (SELECT enquiry_id FROM enquiry_items WHERE product_id = ?))`
		args = append(args, f.ProductID, f.ProductID)
	}
	if !f.From.IsZero() {
		where += ` AND created_at >= ?`
		args = append(args, f.From.UTC())
	}
	if !f.To.IsZero() {
		where += ` AND created_at < ?`
		args = append(args, f.To.UTC())
	}
	if f.Email != "" {
		// Compared as ErasePerson compares: in Go, as SQLite's LOWER folds
		// ASCII letters only.
		ids, err := s.enquiriesFrom(ctx, s.read, enquiry.EmailKey(strings.TrimSpace(f.Email)))
		if err != nil {
			return "", nil, false, err
		}
		if len(ids) == 0 {
			return "", nil, true, nil
		}
		where += ` AND id IN (?` + strings.Repeat(`, ?`, len(ids)-1) + `)`
		args = append(args, anys(ids)...)
	}
	if words := strings.TrimSpace(f.Search); words != "" {
		// LOWER and LIKE behave the same in both databases; \ escapes the
		// wildcards so "100%" is searched as typed.
		pattern := "%" + likeEscaper.Replace(strings.ToLower(words)) + "%"
		where += ` AND (LOWER(name) LIKE ? ESCAPE '\' OR LOWER(email) LIKE ? ESCAPE '\' OR LOWER(phone) LIKE ? ESCAPE '\'
			OR LOWER(message) LIKE ? ESCAPE '\' OR LOWER(product_name) LIKE ? ESCAPE '\'
			OR id IN (SELECT enquiry_id FROM enquiry_items WHERE LOWER(product_name) LIKE ? ESCAPE '\' OR LOWER(note) LIKE ? ESCAPE '\'))`
		args = append(args, pattern, pattern, pattern, pattern, pattern, pattern, pattern)
	}
	if f.BeforeID > 0 {
		where += ` AND id < ?`
		args = append(args, f.BeforeID)
	}
	if f.AfterID > 0 {
		where += ` AND id > ?`
		args = append(args, f.AfterID)
	}
	return where, args, false, nil
}

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// CountNew counts the enquiries nobody has looked at: status new, not spam.
func (s *Store) CountNew(ctx context.Context) (int, error) {
	var n int
	err := s.read.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM enquiries WHERE status = ? AND spam = ?`), string(enquiry.New), false).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: count new enquiries: %w", err)
	}
	return n, nil
}

// CountEnquiries counts the enquiries received from from (inclusive) to to
// (exclusive), of every kind, spam left out; deleted enquiries are gone.
// Each enquiry counts once, whatever it asks about (a contact message, or
// a shortlist of fifty pieces).
func (s *Store) CountEnquiries(ctx context.Context, from, to time.Time) (int64, error) {
	var n int64
	err := s.read.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM enquiries WHERE spam = ? AND created_at >= ? AND created_at < ?`),
		false, from.UTC(), to.UTC()).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: count enquiries from %s to %s: %w", from.Format(time.RFC3339), to.Format(time.RFC3339), err)
	}
	return n, nil
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
	one := []enquiry.Enquiry{e}
	if err := s.withItems(ctx, one); err != nil {
		return e, err
	}
	return one[0], nil
}

type scanner interface{ Scan(...any) error }

func scanEnquiry(row scanner) (enquiry.Enquiry, error) {
	var (
		e       enquiry.Enquiry
		kind    string
		status  string
		product sql.NullInt64
	)
	err := row.Scan(&e.ID, &kind, &e.Name, &e.Email, &e.Phone, &e.Message, &product, &e.ProductName, &e.Material, &e.Finish, &e.Spam, &e.CreatedAt, &status, &e.IdempotencyKey)
	e.Kind = enquiry.Kind(kind)
	e.Status = enquiry.Status(status)
	e.ProductID = int(product.Int64)
	e.CreatedAt = e.CreatedAt.UTC()
	return e, err
}
