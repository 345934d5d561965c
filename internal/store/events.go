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

// First-party analytics ("insights"): raw events for the last weeks, and
// their daily counts per dimension, kept for good.

// InsightEvent is one analytics event as the server stores it (the server
// has already validated and normalised it; the store does not interpret
// names). (Event is an enquiry's history entry, workflow.go.)
type InsightEvent struct {
	At       time.Time // when the server received it
	Day      string    // "2026-11-23": the day in the studio's time zone (the server computes it)
	Visitor  string    // a daily-rotating salted hash, hex; never an IP
	Name     string    // "page_view", "view_item", "search", "quote_request", "customize_request", ...
	Path     string    // the page's path, "/product/3"; may be ""
	Product  int64     // a product id, 0 when none
	Label    string    // the event's one dimension: a search term, "material:Wood", a chat topic id, ...; may be ""
	Empty    bool      // the event says it found nothing (a search or filter with result_count 0)
	Device   string    // "phone" or "desktop"
	Referrer string    // the referring site's host, "" when direct or internal
	Campaign string    // "utm_source / utm_campaign" or "", as the server writes it
}

// DayCount is one day's events and distinct visitors.
type DayCount struct {
	Day              string
	Events, Visitors int64
}

// ValueCount is one value of a dimension with its events and visitors.
type ValueCount struct {
	Value            string
	Events, Visitors int64
}

// EventBatch is one request's events, as the server hands them over.
type EventBatch struct {
	// ID is the page's batchId: a batch whose id is stored already (a
	// retry) is not stored again. "" stores the batch whatever (tools and
	// tests).
	ID string
	// Day is the day the server received the batch ("2026-11-23", the
	// studio's time zone): the caps it counts against are that day's.
	Day string
	// Sender is a keyed hash of the sender's address, made by the server
	// (never the address itself): the per-sender cap counts by it. "" is
	// counted against no sender.
	Sender string
	Events []InsightEvent
}

// EventCaps are the most events stored in one day: in all, and from one
// sender. Zero or less is no cap.
type EventCaps struct {
	PerDay, PerSender int64
}

// EventsAdded says what became of a batch's events. Stored are its first
// events; the rest were dropped, each counted under one reason.
type EventsAdded struct {
	Stored     int
	Duplicate  int // the batch was stored before
	OverDay    int // the day's cap was reached
	OverSender int // the sender's cap was reached
}

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

// eventBatcher is the group commit of AddEvents on SQLite: a call waits
// while the transaction before it commits, and then all calls waiting are
// committed in one transaction, so one disk flush serves them all.
type eventBatcher struct {
	s        *Store
	full     *sql.Stmt // the INSERT of eventRows rows, on the writing connection
	requests chan eventRequest
	quit     chan struct{}
	done     sync.WaitGroup
	closing  sync.Once
}

// eventRequest carries no context: once the batcher has it, it is
// committed whether or not its caller still waits.
type eventRequest struct {
	caps  EventCaps
	batch EventBatch
	reply chan eventReply // buffered: the batcher never blocks on a caller who left
}

type eventReply struct {
	added EventsAdded
	err   error
}

// maxEventBatch bounds one transaction, so a flood cannot hold the one
// writing connection for long (enquiries wait for it too).
const maxEventBatch = 10000

func newEventBatcher(s *Store) *eventBatcher {
	b := &eventBatcher{s: s, requests: make(chan eventRequest), quit: make(chan struct{})}
	b.done.Go(b.run)
	return b
}

func (b *eventBatcher) close() {
	b.closing.Do(func() { close(b.quit) })
	b.done.Wait()
}

// add hands a batch to the batcher and waits for its commit. ctx bounds
// the wait only: a batch handed over is committed anyway.
func (b *eventBatcher) add(ctx context.Context, caps EventCaps, batch EventBatch) (EventsAdded, error) {
	req := eventRequest{caps: caps, batch: batch, reply: make(chan eventReply, 1)}
	select {
	case b.requests <- req:
	case <-ctx.Done():
		return EventsAdded{}, ctx.Err()
	case <-b.quit:
		return EventsAdded{}, errClosed
	}
	select {
	case r := <-req.reply:
		return r.added, r.err
	case <-ctx.Done():
		// They will still be committed.
		return EventsAdded{}, ctx.Err()
	}
}

func (b *eventBatcher) run() {
	for {
		var batch []eventRequest
		select {
		case r := <-b.requests:
			batch = append(batch, r)
		case <-b.quit:
			if b.full != nil {
				b.full.Close()
			}
			return
		}
		n := len(batch[0].batch.Events)
	collect:
		for n < maxEventBatch {
			select {
			case r := <-b.requests:
				batch = append(batch, r)
				n += len(r.batch.Events)
			default:
				break collect
			}
		}
		b.commit(batch)
	}
}

// commit stores a group of batches in one transaction, each admitted in
// turn (a retry or a cap applies within the group as across groups). If
// that fails, each batch is tried alone, so one bad batch cannot cost the
// others. Nothing here depends on the callers' contexts: a caller that
// stopped waiting (its request ended) still has its events stored.
func (b *eventBatcher) commit(batch []eventRequest) {
	ctx := context.Background()
	if b.full == nil {
		// Prepared on first use. Should that fail, the statements are
		// parsed each time, and it is tried again with the next batch.
		b.full, _ = b.s.write.PrepareContext(ctx, b.s.eventInsertSQL(eventRows))
	}
	var added []EventsAdded
	err := b.s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		added, err = b.s.addBatches(ctx, tx, b.full, batch)
		return err
	})
	if err == nil {
		for i, r := range batch {
			r.reply <- eventReply{added: added[i]}
		}
		return
	}
	if len(batch) == 1 {
		batch[0].reply <- eventReply{err: err}
		return
	}
	for _, r := range batch {
		var a []EventsAdded
		err := b.s.inTx(ctx, func(tx *sql.Tx) error {
			var err error
			a, err = b.s.addBatches(ctx, tx, b.full, []eventRequest{r})
			return err
		})
		if err != nil {
			r.reply <- eventReply{err: err}
			continue
		}
		r.reply <- eventReply{added: a[0]}
	}
}
