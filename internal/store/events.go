package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// AddEvents stores a batch durably, or the part of it under the caps: it
// returns only after the commit. The batch's id, its count against the
// caps and its events are written in one transaction, so a batch sent
// again is stored once, and the caps hold across copies of the server on
// one database (the counts are rows, updated by an upsert that makes
// concurrent transactions take turns).
//
// On SQLite, the batches of concurrent calls are committed together in one
// transaction (group commit, as batch.go does for enquiries), because each
// commit waits for the disk; a batch handed to that transaction is
// committed even if ctx ends while the caller waits (the caller then hears
// ctx's error; a retry with the same id stores nothing twice). On
// PostgreSQL each call is one transaction, which ctx's end rolls back.
func (s *Store) AddEvents(ctx context.Context, caps EventCaps, b EventBatch) (EventsAdded, error) {
	if err := ctx.Err(); err != nil {
		return EventsAdded{}, fmt.Errorf("store: add events: %w", err)
	}
	if len(b.Events) == 0 {
		return EventsAdded{}, nil
	}
	if _, err := time.Parse(dayLayout, b.Day); err != nil {
		return EventsAdded{}, fmt.Errorf("store: add events: the batch's day %q is not YYYY-MM-DD", b.Day)
	}
	var (
		added EventsAdded
		err   error
	)
	if s.events != nil {
		added, err = s.events.add(ctx, caps, b)
	} else {
		err = s.inTx(ctx, func(tx *sql.Tx) error {
			all, err := s.addBatches(ctx, tx, nil, []eventRequest{{caps: caps, batch: b}})
			if err == nil {
				added = all[0]
			}
			return err
		})
	}
	if err != nil {
		if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
			return EventsAdded{}, fmt.Errorf("store: add events: %w (%w)", cerr, err)
		}
		return EventsAdded{}, fmt.Errorf("store: add events: %w", err)
	}
	return added, nil
}

// addBatches admits batches in order and inserts the events admitted, in
// tx: one batch on PostgreSQL, a group commit's on SQLite.
func (s *Store) addBatches(ctx context.Context, tx *sql.Tx, full *sql.Stmt, reqs []eventRequest) ([]EventsAdded, error) {
	added, err := s.admit(ctx, tx, reqs)
	if err != nil {
		return nil, err
	}
	var all []InsightEvent
	for i, r := range reqs {
		all = append(all, r.batch.Events[:added[i].Stored]...)
	}
	return added, s.insertEvents(ctx, tx, full, all)
}

// eventRows is the number of rows of one INSERT: one statement's overhead
// is shared by many rows, and 11 × 100 parameters stay far below both
// databases' limits.
const eventRows = 100

const eventColumns = `at, day, visitor, name, path, product, label, empty, device, referrer, campaign`

var eventInsert = map[Dialect]*eventInsertCache{SQLite: {}, Postgres: {}}

// eventInsertCache keeps the full-size statement, built once per dialect.
type eventInsertCache struct {
	once  sync.Once
	query string
}

func (s *Store) eventInsertSQL(n int) string {
	build := func(n int) string {
		var b strings.Builder
		b.WriteString(`INSERT INTO events (` + eventColumns + `) VALUES `)
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
		}
		return s.q(b.String())
	}
	if n != eventRows {
		return build(n)
	}
	c := eventInsert[s.dialect]
	c.once.Do(func() { c.query = build(eventRows) })
	return c.query
}

// prepareFullInsert prepares the INSERT of eventRows rows on the writing
// connection.
func (s *Store) prepareFullInsert(ctx context.Context) (*sql.Stmt, error) {
	return s.write.PrepareContext(ctx, s.eventInsertSQL(eventRows))
}

// insertEvents inserts events in statements of at most eventRows rows;
// full ones through full, if given (prepared once: parsing a statement of
// 1,100 parameters costs as much as binding them).
func (s *Store) insertEvents(ctx context.Context, tx *sql.Tx, full *sql.Stmt, events []InsightEvent) error {
	args := make([]any, 0, 11*min(len(events), eventRows))
	if full != nil && len(events) >= eventRows {
		full = tx.StmtContext(ctx, full)
	}
	for len(events) > 0 {
		chunk := events[:min(len(events), eventRows)]
		events = events[len(chunk):]
		args = args[:0]
		for _, e := range chunk {
			empty := 0
			if e.Empty {
				empty = 1
			}
			args = append(args, millis(e.At), e.Day, e.Visitor, e.Name, e.Path, e.Product, e.Label, empty, e.Device, e.Referrer, e.Campaign)
		}
		var err error
		if full != nil && len(chunk) == eventRows {
			_, err = full.ExecContext(ctx, args...)
		} else {
			_, err = tx.ExecContext(ctx, s.eventInsertSQL(len(chunk)), args...)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
