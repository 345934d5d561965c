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

// Reply is a mail the studio wrote to a customer from an enquiry's page.
type Reply struct {
	ID             int64
	EnquiryID      int64
	Author         string // the account's e-mail
	AuthorName     string // the account's name, the sender's name ("" when it has none)
	To             string
	Subject        string
	Body           string
	FormKey        string // the reply form's key: the same form sent twice is one reply
	AttachmentName string // "" when there is none
	Attachment     []byte // read only for the mail (Reply), not for lists (Replies)
	AttachmentSize int64  // its bytes, in lists too
	CreatedAt      time.Time
}

// ActionReply is the history's line for a reply: to_value is its id.
const ActionReply = "reply"

// AddReply stores a reply, queues its mail and records it in the
// enquiry's history, in one transaction; an enquiry still New moves to
// Replied, recorded as the author's change (so it can be undone). A form
// sent again (its FormKey stored already) changes nothing: sent is false.
func (s *Store) AddReply(ctx context.Context, r Reply, at time.Time) (sent bool, err error) {
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		status, err := s.current(ctx, tx, r.EnquiryID, "status")
		if err != nil {
			return err
		}
		var attachment any
		if r.AttachmentName != "" {
			attachment = r.Attachment
		}
		var id int64
		err = tx.QueryRowContext(ctx, s.q(`INSERT INTO enquiry_replies (enquiry_id, author, author_name, to_address, subject, body, form_key, attachment_name, attachment, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (form_key) DO NOTHING RETURNING id`),
			r.EnquiryID, r.Author, r.AuthorName, r.To, r.Subject, r.Body, r.FormKey, r.AttachmentName, attachment, at.UTC()).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil // sent before
		}
		if err != nil {
			return err
		}
		sent = true
		if err := s.queueMail(ctx, tx, RecipientReply, r.EnquiryID, &id, at); err != nil {
			return err
		}
		if err := s.record(ctx, tx, r.EnquiryID, ActionReply, "", fmt.Sprint(id), r.Author, at); err != nil {
			return err
		}
		if enquiry.Status(status) == enquiry.New {
			return s.setAndRecord(ctx, tx, r.EnquiryID, ActionStatus, "status", status, string(enquiry.Replied), r.Author, at, 0)
		}
		return nil
	})
	if err != nil && !errors.Is(err, enquiry.ErrNotFound) {
		return false, fmt.Errorf("store: add reply: %w", err)
	}
	return sent, err
}

// Reply returns one reply with its attachment.
func (s *Store) Reply(ctx context.Context, id int64) (Reply, error) {
	var r Reply
	err := s.read.QueryRowContext(ctx, s.q(`SELECT `+replyColumns+`, attachment FROM enquiry_replies WHERE id = ?`), id).
		Scan(append(r.fields(), &r.Attachment)...)
	if err != nil {
		return r, fmt.Errorf("store: reply %d: %w", id, err)
	}
	r.CreatedAt = r.CreatedAt.UTC()
	return r, nil
}

// Replies lists the replies to the given enquiries, oldest first, without
// their attachments' bytes.
func (s *Store) Replies(ctx context.Context, enquiryIDs []int64) ([]Reply, error) {
	var list []Reply
	err := s.byIDs(ctx, enquiryIDs, `SELECT `+replyColumns+` FROM enquiry_replies WHERE enquiry_id IN (%s) ORDER BY id`, func(rows *sql.Rows) error {
		var r Reply
		if err := rows.Scan(r.fields()...); err != nil {
			return err
		}
		r.CreatedAt = r.CreatedAt.UTC()
		list = append(list, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: replies: %w", err)
	}
	return list, nil
}

// repliesBefore lists the ids of the replies to r's enquiry written
// before r, oldest first.
func (s *Store) repliesBefore(ctx context.Context, r Reply) ([]int64, error) {
	rows, err := s.read.QueryContext(ctx, s.q(`SELECT id FROM enquiry_replies WHERE enquiry_id = ? AND id < ? ORDER BY id`), r.EnquiryID, r.ID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

const replyColumns = `id, enquiry_id, author, author_name, to_address, subject, body, attachment_name, COALESCE(LENGTH(attachment), 0), created_at`

func (r *Reply) fields() []any {
	return []any{&r.ID, &r.EnquiryID, &r.Author, &r.AuthorName, &r.To, &r.Subject, &r.Body, &r.AttachmentName, &r.AttachmentSize, &r.CreatedAt}
}

// byIDs runs query (with %s where its list of ids goes) over ids in
// batches, as a database takes a bounded number of parameters, calling
// scan for each row.
func (s *Store) byIDs(ctx context.Context, ids []int64, query string, scan func(*sql.Rows) error) error {
	for batch := range slices.Chunk(ids, 500) {
		rows, err := s.read.QueryContext(ctx, s.q(fmt.Sprintf(query, "?"+strings.Repeat(", ?", len(batch)-1))), anys(batch)...)
		if err != nil {
			return err
		}
		for rows.Next() {
			if err := scan(rows); err != nil {
				rows.Close()
				return err
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
