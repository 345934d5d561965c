package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"studio/internal/enquiry"
)

// The studio's work on an enquiry: its status, spam or not, notes, and a
// history of who did what (enquiry_events), from which the last change can
// be undone.

// Event actions.
const (
	ActionStatus = "status" // from_value → to_value are statuses
	ActionSpam   = "spam"   // "true" / "false"
	ActionNote   = "note"
	ActionUndo   = "undo" // took back the last change: from_value → to_value as above
	ActionDelete = "delete"
)

// Event is one entry of an enquiry's history.
type Event struct {
	ID        int64
	EnquiryID int64
	Actor     string
	Action    string
	From, To  string
	Undone    bool
	At        time.Time
}

// Note is a remark of the studio's on an enquiry.
type Note struct {
	ID     int64
	Author string
	Body   string
	At     time.Time
}

// ErrStale is returned for an undo of a change that is no longer the
// enquiry's last (someone changed it since, or it was undone already).
var ErrStale = errors.New("store: that change is no longer the last")

// SetStatus moves an enquiry to status, recording who did it. Setting
// the status it already has changes and records nothing.
func (s *Store) SetStatus(ctx context.Context, id int64, status enquiry.Status, actor string, at time.Time) error {
	if !status.Valid() {
		return fmt.Errorf("store: no status %q", status)
	}
	return s.change(ctx, id, ActionStatus, `status`, string(status), actor, at)
}

// SetSpam marks an enquiry as spam or as not spam, recording who did it.
func (s *Store) SetSpam(ctx context.Context, id int64, spam bool, actor string, at time.Time) error {
	return s.change(ctx, id, ActionSpam, `spam`, strconv.FormatBool(spam), actor, at)
}

// change sets one column of an enquiry and records the change, in one
// transaction.
func (s *Store) change(ctx context.Context, id int64, action, column, value, actor string, at time.Time) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		old, err := s.current(ctx, tx, id, column)
		if err != nil || old == value {
			return err
		}
		return s.setAndRecord(ctx, tx, id, action, column, old, value, actor, at, 0)
	})
}

// current reads an enquiry's status or spam column as text.
func (s *Store) current(ctx context.Context, tx *sql.Tx, id int64, column string) (string, error) {
	var status string
	var spam bool
	err := tx.QueryRowContext(ctx, s.q(`SELECT status, spam FROM enquiries WHERE id = ?`), id).Scan(&status, &spam)
	if errors.Is(err, sql.ErrNoRows) {
		return "", enquiry.ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("store: read enquiry %d: %w", id, err)
	}
	if column == "spam" {
		return strconv.FormatBool(spam), nil
	}
	return status, nil
}

// setAndRecord writes value to column and adds the event; undoing names the
// event an undo takes back (0 for a change of its own).
func (s *Store) setAndRecord(ctx context.Context, tx *sql.Tx, id int64, action, column, from, to, actor string, at time.Time, undoing int64) error {
	var value any = to
	if column == "spam" {
		value = to == "true"
	}
	if _, err := tx.ExecContext(ctx, s.q(`UPDATE enquiries SET `+column+` = ? WHERE id = ?`), value, id); err != nil {
		return fmt.Errorf("store: change enquiry %d: %w", id, err)
	}
	if undoing != 0 {
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE enquiry_events SET undone = ? WHERE id = ?`), true, undoing); err != nil {
			return fmt.Errorf("store: mark change %d undone: %w", undoing, err)
		}
		action = ActionUndo
	}
	return s.record(ctx, tx, id, action, from, to, actor, at)
}

func (s *Store) record(ctx context.Context, tx *sql.Tx, id int64, action, from, to, actor string, at time.Time) error {
	_, err := tx.ExecContext(ctx, s.q(`INSERT INTO enquiry_events (enquiry_id, actor, action, from_value, to_value, undone, at) VALUES (?, ?, ?, ?, ?, ?, ?)`),
		id, actor, action, from, to, false, at.UTC())
	if err != nil {
		return fmt.Errorf("store: record %s on enquiry %d: %w", action, id, err)
	}
	return nil
}

// LastChange is the enquiry's newest change of status or spam, when it can
// still be undone: it is not undone and nothing has changed since.
func (s *Store) LastChange(ctx context.Context, id int64) (Event, bool, error) {
	ev, err := s.lastChange(ctx, s.read, id)
	if errors.Is(err, sql.ErrNoRows) {
		return Event{}, false, nil
	}
	if err != nil {
		return Event{}, false, fmt.Errorf("store: last change of enquiry %d: %w", id, err)
	}
	return ev, !ev.Undone && ev.Action != ActionUndo, nil
}

func (s *Store) lastChange(ctx context.Context, db querier, id int64) (Event, error) {
	var ev Event
	err := db.QueryRowContext(ctx, s.q(`SELECT id, enquiry_id, actor, action, from_value, to_value, undone, at FROM enquiry_events
		WHERE enquiry_id = ? AND action IN (?, ?, ?) ORDER BY id DESC LIMIT 1`), id, ActionStatus, ActionSpam, ActionUndo).
		Scan(&ev.ID, &ev.EnquiryID, &ev.Actor, &ev.Action, &ev.From, &ev.To, &ev.Undone, &ev.At)
	ev.At = ev.At.UTC()
	return ev, err
}

// Undo takes back the change eventID, which must still be the enquiry's
// last (ErrStale otherwise), and records who did.
func (s *Store) Undo(ctx context.Context, id, eventID int64, actor string, at time.Time) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		ev, err := s.lastChange(ctx, tx, id)
		if errors.Is(err, sql.ErrNoRows) {
			if _, err := s.current(ctx, tx, id, "status"); err != nil {
				return err
			}
			return ErrStale
		}
		if err != nil {
			return fmt.Errorf("store: undo on enquiry %d: %w", id, err)
		}
		if ev.ID != eventID || ev.Undone || ev.Action == ActionUndo {
			return ErrStale
		}
		column := "status"
		if ev.Action == ActionSpam {
			column = "spam"
		}
		return s.setAndRecord(ctx, tx, id, ev.Action, column, ev.To, ev.From, actor, at, ev.ID)
	})
}

// AddNote adds a note to an enquiry.
func (s *Store) AddNote(ctx context.Context, id int64, author, body string, at time.Time) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := s.current(ctx, tx, id, "status"); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO enquiry_notes (enquiry_id, author, body, created_at) VALUES (?, ?, ?, ?)`),
			id, author, body, at.UTC()); err != nil {
			return fmt.Errorf("store: add note to enquiry %d: %w", id, err)
		}
		return s.record(ctx, tx, id, ActionNote, "", "", author, at)
	})
}

// Notes lists an enquiry's notes, oldest first.
func (s *Store) Notes(ctx context.Context, id int64) ([]Note, error) {
	rows, err := s.read.QueryContext(ctx, s.q(`SELECT id, author, body, created_at FROM enquiry_notes WHERE enquiry_id = ? ORDER BY id`), id)
	if err != nil {
		return nil, fmt.Errorf("store: notes of enquiry %d: %w", id, err)
	}
	defer rows.Close()
	var list []Note
	for rows.Next() {
		var n Note
		if err := rows.Scan(&n.ID, &n.Author, &n.Body, &n.At); err != nil {
			return nil, fmt.Errorf("store: notes of enquiry %d: %w", id, err)
		}
		n.At = n.At.UTC()
		list = append(list, n)
	}
	return list, rows.Err()
}

// NotesOf lists the notes of each of the enquiries ids, oldest first, by
// enquiry (an export's notes column: one query, not one an enquiry).
func (s *Store) NotesOf(ctx context.Context, ids []int64) (map[int64][]Note, error) {
	notes := make(map[int64][]Note)
	err := s.byIDs(ctx, ids, `SELECT enquiry_id, id, author, body, created_at FROM enquiry_notes WHERE enquiry_id IN (%s) ORDER BY id`, func(rows *sql.Rows) error {
		var id int64
		var n Note
		if err := rows.Scan(&id, &n.ID, &n.Author, &n.Body, &n.At); err != nil {
			return err
		}
		n.At = n.At.UTC()
		notes[id] = append(notes[id], n)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: notes of %d enquiries: %w", len(ids), err)
	}
	return notes, nil
}

func anys[T any](values []T) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}

// History lists an enquiry's events, oldest first; it outlives the
// enquiry, so a deletion can be traced.
func (s *Store) History(ctx context.Context, id int64) ([]Event, error) {
	rows, err := s.read.QueryContext(ctx, s.q(`SELECT id, enquiry_id, actor, action, from_value, to_value, undone, at FROM enquiry_events WHERE enquiry_id = ? ORDER BY id`), id)
	if err != nil {
		return nil, fmt.Errorf("store: history of enquiry %d: %w", id, err)
	}
	defer rows.Close()
	var list []Event
	for rows.Next() {
		var ev Event
		if err := rows.Scan(&ev.ID, &ev.EnquiryID, &ev.Actor, &ev.Action, &ev.From, &ev.To, &ev.Undone, &ev.At); err != nil {
			return nil, fmt.Errorf("store: history of enquiry %d: %w", id, err)
		}
		ev.At = ev.At.UTC()
		list = append(list, ev)
	}
	return list, rows.Err()
}

// HistoryOf lists the events of the given enquiries, oldest first.
func (s *Store) HistoryOf(ctx context.Context, ids []int64) ([]Event, error) {
	var list []Event
	err := s.byIDs(ctx, ids, `SELECT id, enquiry_id, actor, action, from_value, to_value, undone, at FROM enquiry_events WHERE enquiry_id IN (%s) ORDER BY id`, func(rows *sql.Rows) error {
		var ev Event
		if err := rows.Scan(&ev.ID, &ev.EnquiryID, &ev.Actor, &ev.Action, &ev.From, &ev.To, &ev.Undone, &ev.At); err != nil {
			return err
		}
		ev.At = ev.At.UTC()
		list = append(list, ev)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: history of %d enquiries: %w", len(ids), err)
	}
	return list, nil
}

// DeleteEnquiry removes an enquiry with its notes and mails, for a
// customer who asks to be forgotten; its pieces (enquiry_items) go by the
// foreign key's ON DELETE CASCADE. The history keeps that actor deleted
// it and when, and none of its text.
func (s *Store) DeleteEnquiry(ctx context.Context, id int64, actor string, at time.Time) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := s.current(ctx, tx, id, "status"); err != nil {
			return err
		}
		for _, stmt := range []string{
			`DELETE FROM enquiry_notes WHERE enquiry_id = ?`,
			`DELETE FROM mail_outbox WHERE enquiry_id = ?`,
			`DELETE FROM enquiry_replies WHERE enquiry_id = ?`,
			`DELETE FROM enquiries WHERE id = ?`,
		} {
			if _, err := tx.ExecContext(ctx, s.q(stmt), id); err != nil {
				return fmt.Errorf("store: delete enquiry %d: %w", id, err)
			}
		}
		return s.record(ctx, tx, id, ActionDelete, "", "", actor, at)
	})
}
