package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
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

// quotaDay is event_quotas' scope of the day's total; a sender's is
// quotaSender and its hash.
const (
	quotaDay    = "*"
	quotaSender = "a:"
)

type quotaKey struct{ day, scope string }

// quotaRows bounds the rows of one statement of admit (3 parameters each),
// far below both databases' limits.
const quotaRows = 300

// admit records batches and counts their events against the caps, in the
// transaction that inserts them, and says how many of each batch's first
// events may be stored: a batch whose id is stored already (before, or
// earlier in reqs) stores none. It does so in a few statements for all of
// reqs, however many (a group commit's hundreds of batches cost as much as
// one):
//
//  1. the ids are inserted, ON CONFLICT DO NOTHING (a unique violation
//     would abort a PostgreSQL transaction and a whole SQLite group);
//  2. the day totals' rows, then the senders', are made or locked by an
//     upsert that changes nothing and returns their counts. Locked, they
//     stay so until the commit: copies of the server on one PostgreSQL
//     count one after another (each holds the day's total until its
//     commit: some hundreds of batches a second, far more than the caps
//     let in). Always in that order, totals then senders, each sorted, so
//     two transactions never wait for each other in a circle;
//  3. the caps are applied in memory, batch after batch;
//  4. the counts are written back; rows of senders of which nothing was
//     stored, and ids of batches of which nothing was, are deleted: a
//     flood refused at the cap leaves no rows behind. A day whose total
//     is at its cap already is not even asked about its senders.
func (s *Store) admit(ctx context.Context, tx *sql.Tx, reqs []eventRequest) ([]EventsAdded, error) {
	added := make([]EventsAdded, len(reqs))
	fresh, err := s.recordBatches(ctx, tx, reqs)
	if err != nil {
		return nil, err
	}
	// Which batches are new: the first of each id not stored before.
	live := make([]bool, len(reqs))
	taken := map[string]bool{}
	var totals []quotaKey
	for i, r := range reqs {
		id := r.batch.ID
		if id != "" && (!fresh[id] || taken[id]) {
			added[i].Duplicate = len(r.batch.Events)
			continue
		}
		taken[id], live[i] = true, true
		totals = append(totals, quotaKey{r.batch.Day, quotaDay})
	}
	counts, err := s.lockQuotas(ctx, tx, totals)
	if err != nil {
		return nil, err
	}
	before := maps.Clone(counts)
	var senders []quotaKey
	for i, r := range reqs {
		if live[i] && r.batch.Sender != "" && room(r.caps.PerDay, counts[quotaKey{r.batch.Day, quotaDay}], 1) > 0 {
			senders = append(senders, quotaKey{r.batch.Day, quotaSender + r.batch.Sender})
		}
	}
	senderCounts, err := s.lockQuotas(ctx, tx, senders)
	if err != nil {
		return nil, err
	}
	maps.Copy(counts, senderCounts)
	maps.Copy(before, senderCounts)

	var refused []string
	for i, r := range reqs {
		if !live[i] {
			continue
		}
		n, day := len(r.batch.Events), quotaKey{r.batch.Day, quotaDay}
		stored := room(r.caps.PerDay, counts[day], n)
		added[i].OverDay = n - stored
		if sender := (quotaKey{r.batch.Day, quotaSender + r.batch.Sender}); stored > 0 && r.batch.Sender != "" {
			kept := room(r.caps.PerSender, counts[sender], stored)
			added[i].OverSender, stored = stored-kept, kept
			counts[sender] += int64(stored)
		}
		counts[day] += int64(stored)
		added[i].Stored = stored
		if stored == 0 && r.batch.ID != "" {
			refused = append(refused, r.batch.ID)
		}
	}
	if err := s.writeQuotas(ctx, tx, before, counts); err != nil {
		return nil, err
	}
	if err := s.forgetBatches(ctx, tx, refused); err != nil {
		return nil, err
	}
	return added, nil
}

// recordBatches inserts the ids of reqs and returns those that were not
// stored before.
func (s *Store) recordBatches(ctx context.Context, tx *sql.Tx, reqs []eventRequest) (map[string]bool, error) {
	fresh := map[string]bool{}
	var args []any
	seen := map[string]bool{}
	for _, r := range reqs {
		if id := r.batch.ID; id != "" && !seen[id] {
			seen[id] = true
			args = append(args, id, r.batch.Day)
		}
	}
	for len(args) > 0 {
		chunk := args[:min(len(args), 2*quotaRows)]
		args = args[len(chunk):]
		rows, err := tx.QueryContext(ctx, s.q(`INSERT INTO event_batches (id, day) VALUES `+values(len(chunk)/2, 2)+
			` ON CONFLICT (id) DO NOTHING RETURNING id`), chunk...)
		if err != nil {
			return nil, fmt.Errorf("record batches: %w", err)
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, fmt.Errorf("record batches: %w", err)
			}
			fresh[id] = true
		}
		if err := rows.Close(); err != nil {
			return nil, fmt.Errorf("record batches: %w", err)
		}
	}
	return fresh, nil
}

// lockQuotas makes or locks the quota rows of keys, in a sorted order,
// and returns their counts (0 for a row just made).
func (s *Store) lockQuotas(ctx context.Context, tx *sql.Tx, keys []quotaKey) (map[quotaKey]int64, error) {
	counts := map[quotaKey]int64{}
	slices.SortFunc(keys, func(a, b quotaKey) int { return cmp.Or(cmp.Compare(a.day, b.day), cmp.Compare(a.scope, b.scope)) })
	keys = slices.Compact(keys)
	for len(keys) > 0 {
		chunk := keys[:min(len(keys), quotaRows)]
		keys = keys[len(chunk):]
		args := make([]any, 0, 3*len(chunk))
		for _, k := range chunk {
			args = append(args, k.day, k.scope, 0)
		}
		// An update that changes nothing, so that it locks the row.
		rows, err := tx.QueryContext(ctx, s.q(`INSERT INTO event_quotas (day, scope, events) VALUES `+values(len(chunk), 3)+`
			ON CONFLICT (day, scope) DO UPDATE SET events = event_quotas.events RETURNING day, scope, events`), args...)
		if err != nil {
			return nil, fmt.Errorf("count events against the caps: %w", err)
		}
		for rows.Next() {
			var k quotaKey
			var n int64
			if err := rows.Scan(&k.day, &k.scope, &n); err != nil {
				rows.Close()
				return nil, fmt.Errorf("count events against the caps: %w", err)
			}
			counts[k] = n
		}
		if err := rows.Close(); err != nil {
			return nil, fmt.Errorf("count events against the caps: %w", err)
		}
	}
	return counts, nil
}

// writeQuotas writes back the counts that changed, and deletes the rows
// lockQuotas made that still count nothing.
func (s *Store) writeQuotas(ctx context.Context, tx *sql.Tx, before, after map[quotaKey]int64) error {
	var set, empty []any
	for k, n := range after {
		switch {
		case n == 0:
			empty = append(empty, k.day, k.scope)
		case n != before[k]:
			set = append(set, k.day, k.scope, n)
		}
	}
	for len(set) > 0 {
		chunk := set[:min(len(set), 3*quotaRows)]
		set = set[len(chunk):]
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO event_quotas (day, scope, events) VALUES `+values(len(chunk)/3, 3)+`
			ON CONFLICT (day, scope) DO UPDATE SET events = excluded.events`), chunk...); err != nil {
			return fmt.Errorf("count events against the caps: %w", err)
		}
	}
	for len(empty) > 0 {
		chunk := empty[:min(len(empty), 2*quotaRows)]
		empty = empty[len(chunk):]
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM event_quotas WHERE events = 0 AND (day, scope) IN (VALUES `+values(len(chunk)/2, 2)+`)`), chunk...); err != nil {
			return fmt.Errorf("count events against the caps: %w", err)
		}
	}
	return nil
}

// forgetBatches deletes the ids of batches of which nothing was stored,
// so that a flood refused at the cap takes no room.
func (s *Store) forgetBatches(ctx context.Context, tx *sql.Tx, ids []string) error {
	for len(ids) > 0 {
		chunk := ids[:min(len(ids), quotaRows)]
		ids = ids[len(chunk):]
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM event_batches WHERE id IN (`+strings.TrimSuffix(strings.Repeat("?, ", len(chunk)), ", ")+`)`), args...); err != nil {
			return fmt.Errorf("forget refused batches: %w", err)
		}
	}
	return nil
}

// values is n rows of width placeholders: "(?, ?), (?, ?)".
func values(n, width int) string {
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", width), ", ") + ")"
	return strings.TrimSuffix(strings.Repeat(row+", ", n), ", ")
}

// room is how many of n more events fit under limit when before are
// stored; a limit of zero or less is none.
func room(limit, before int64, n int) int {
	if limit <= 0 {
		return n
	}
	return int(max(0, min(int64(n), limit-before)))
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

const dayLayout = "2006-01-02"

// The daily counts, one INSERT ... SELECT per dimension: the same SQL on
// both databases. Each reads the raw events of one day (the ? is the day);
// day is left out of GROUP BY, as the WHERE fixes it (shorter keys to sort:
// 15% faster on SQLite), and MIN(day) names it.
//
// The day's total comes first: on PostgreSQL each statement sees what was
// committed before it began, so an event that comes during the rollup is
// missing from the total if from anything, and the next rollup, finding
// more raw events than the total, counts the day again.
var rollUps = []string{
	// Every event of the day, whatever its name: the day's visitors.
	`SELECT MIN(day), '*', '', '', COUNT(*), COUNT(DISTINCT visitor) FROM events WHERE day = ? HAVING COUNT(*) > 0`,
	`SELECT MIN(day), name, '', '', COUNT(*), COUNT(DISTINCT visitor) FROM events WHERE day = ? GROUP BY name`,
	`SELECT MIN(day), name, 'path', path, COUNT(*), COUNT(DISTINCT visitor) FROM events WHERE day = ? AND path <> '' GROUP BY name, path`,
	`SELECT MIN(day), name, 'product', CAST(product AS TEXT), COUNT(*), COUNT(DISTINCT visitor) FROM events WHERE day = ? AND product > 0 GROUP BY name, product`,
	`SELECT MIN(day), name, 'label', label, COUNT(*), COUNT(DISTINCT visitor) FROM events WHERE day = ? AND label <> '' GROUP BY name, label`,
	`SELECT MIN(day), name, 'empty', label, COUNT(*), COUNT(DISTINCT visitor) FROM events WHERE day = ? AND empty = 1 AND label <> '' GROUP BY name, label`,
	`SELECT MIN(day), name, 'device', device, COUNT(*), COUNT(DISTINCT visitor) FROM events WHERE day = ? AND device <> '' GROUP BY name, device`,
	`SELECT MIN(day), name, 'referrer', referrer, COUNT(*), COUNT(DISTINCT visitor) FROM events WHERE day = ? AND referrer <> '' GROUP BY name, referrer`,
	`SELECT MIN(day), name, 'campaign', campaign, COUNT(*), COUNT(DISTINCT visitor) FROM events WHERE day = ? AND campaign <> '' GROUP BY name, campaign`,
	// Every event of the day by device, whatever its name.
	`SELECT MIN(day), '*', 'device', device, COUNT(*), COUNT(DISTINCT visitor) FROM events WHERE day = ? AND device <> '' GROUP BY device`,
}

// RollUpEvents recomputes the daily counts (event_days) of today, of the
// day before, and of every day that has raw events but no counts yet (the
// server was off); then deletes the raw events of the days before today
// minus keepDays, whose counts stay. Days are "YYYY-MM-DD", compared as
// text. A day's counts are replaced in one transaction, and only if events
// came since they were made: on SQLite a day of 35,000 events holds the
// one writing connection for 0.35 to 1 s (BenchmarkRollUpDay), and
// enquiries wait that long.
func (s *Store) RollUpEvents(ctx context.Context, today string, keepDays int) error {
	t, err := time.Parse(dayLayout, today)
	if err != nil || keepDays < 0 {
		return fmt.Errorf("store: roll up events: today %q is not YYYY-MM-DD, or keepDays %d < 0", today, keepDays)
	}
	days := []string{t.AddDate(0, 0, -1).Format(dayLayout), today}
	missing, err := s.daysWithoutCounts(ctx)
	if err != nil {
		return fmt.Errorf("store: roll up events: %w", err)
	}
	for _, d := range missing {
		if d != days[0] && d != days[1] {
			days = append(days, d)
		}
	}
	for _, day := range days {
		if err := s.rollUpDay(ctx, day); err != nil {
			return fmt.Errorf("store: roll up events of %s: %w", day, err)
		}
	}
	cutoff := t.AddDate(0, 0, -keepDays).Format(dayLayout)
	// A batch's id need only outlive its retries (the page sends a batch
	// again at once or never) and a sender's count its day: both go once
	// the day after theirs is over, so they never take the room the events
	// do, and no hash of an address outlives the next day. The day's total
	// goes with the day's events.
	recent := max(cutoff, days[0])
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		for _, del := range []struct{ query, before string }{
			{`DELETE FROM events WHERE day < ?`, cutoff},
			{`DELETE FROM event_quotas WHERE day < ?`, cutoff},
			{`DELETE FROM event_quotas WHERE day < ? AND scope <> '` + quotaDay + `'`, recent},
			{`DELETE FROM event_batches WHERE day < ?`, recent},
		} {
			if _, err := tx.ExecContext(ctx, s.q(del.query), del.before); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: delete events before %s: %w", cutoff, err)
	}
	return nil
}

// daysWithoutCounts lists the days that have raw events and no counts.
// The recursive query visits each distinct day through the index on day,
// one step per day, rather than reading every raw event (neither database
// skips through an index by itself).
func (s *Store) daysWithoutCounts(ctx context.Context) ([]string, error) {
	rows, err := s.read.QueryContext(ctx, `WITH RECURSIVE d (day) AS (
			SELECT MIN(day) FROM events
			UNION ALL
			SELECT (SELECT MIN(e.day) FROM events e WHERE e.day > d.day) FROM d WHERE d.day IS NOT NULL
		)
		SELECT day FROM d WHERE day IS NOT NULL
			AND NOT EXISTS (SELECT 1 FROM event_days c WHERE c.day = d.day)`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var days []string
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			return nil, err
		}
		days = append(days, d)
	}
	return days, rows.Err()
}

// rollUpDay replaces one day's counts with counts of its raw events.
func (s *Store) rollUpDay(ctx context.Context, day string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if s.dialect == Postgres {
			// Two copies of the server rolling up at once take turns (the
			// second would otherwise insert rows the first just did).
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(4242002)`); err != nil {
				return err
			}
		}
		// A day's raw events are only ever added to, or all deleted. So a
		// day whose count of raw events is the one its counts were made
		// from has nothing new (yesterday, mostly), and a day without raw
		// events keeps its counts (a clock set back must not wipe them).
		var raw, counted int64
		if err := tx.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM events WHERE day = ?`), day).Scan(&raw); err != nil {
			return err
		}
		err := tx.QueryRowContext(ctx, s.q(`SELECT events FROM event_days WHERE day = ? AND name = '*' AND dim = '' AND value = ''`), day).Scan(&counted)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if raw == 0 || raw == counted {
			return nil
		}
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM event_days WHERE day = ?`), day); err != nil {
			return err
		}
		for _, sel := range rollUps {
			if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO event_days (day, name, dim, value, events, visitors) `+sel), day); err != nil {
				return err
			}
		}
		// The counts are kept for good, so their free-text values (what
		// visitors searched, where they came from) are kept to a day's
		// most frequent few: a sender who makes every event's text
		// different cannot grow them without end.
		_, err = tx.ExecContext(ctx, s.q(`DELETE FROM event_days WHERE day = ? AND dim IN `+freeTextDims+` AND (name, dim, value) IN (
			SELECT name, dim, value FROM (
				SELECT name, dim, value, ROW_NUMBER() OVER (PARTITION BY name, dim ORDER BY events DESC, visitors DESC, value) AS place
				FROM event_days WHERE day = ? AND dim IN `+freeTextDims+`
			) ranked WHERE place > ?)`), day, day, MaxDayValues)
		return err
	})
}

// MaxDayValues is how many values of each event's free-text dimension a
// day's counts keep (its most frequent); the rest count in the event's
// total only.
const MaxDayValues = 100

// freeTextDims are the dimensions whose values a sender writes; the others
// are bounded by the site itself (its pages, products, two devices).
const freeTextDims = `('label', 'empty', 'referrer', 'campaign')`

// daysBetween lists the days from from to to, inclusive.
func daysBetween(from, to string) ([]string, error) {
	f, err := time.Parse(dayLayout, from)
	if err != nil {
		return nil, fmt.Errorf("from %q is not YYYY-MM-DD", from)
	}
	t, err := time.Parse(dayLayout, to)
	if err != nil {
		return nil, fmt.Errorf("to %q is not YYYY-MM-DD", to)
	}
	if t.Sub(f) > 20*366*24*time.Hour {
		return nil, fmt.Errorf("%s to %s is more than 20 years", from, to)
	}
	var days []string
	for d := f; !d.After(t); d = d.AddDate(0, 0, 1) {
		days = append(days, d.Format(dayLayout))
	}
	return days, nil
}

// EventsPerDay lists each day of [from, to] (inclusive) in order, days
// without counts with zeros. name "*" counts every event (the day's
// visitors); "page_view" gives the page views. The counts are those of the
// last RollUpEvents.
func (s *Store) EventsPerDay(ctx context.Context, name, from, to string) ([]DayCount, error) {
	days, err := daysBetween(from, to)
	if err != nil {
		return nil, fmt.Errorf("store: events per day: %w", err)
	}
	rows, err := s.read.QueryContext(ctx, s.q(`SELECT day, events, visitors FROM event_days
		WHERE name = ? AND dim = '' AND day >= ? AND day <= ?`), name, from, to)
	if err != nil {
		return nil, fmt.Errorf("store: events per day: %w", err)
	}
	defer rows.Close()
	counts := map[string]DayCount{}
	for rows.Next() {
		var c DayCount
		if err := rows.Scan(&c.Day, &c.Events, &c.Visitors); err != nil {
			return nil, fmt.Errorf("store: events per day: %w", err)
		}
		counts[c.Day] = c
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: events per day: %w", err)
	}
	list := make([]DayCount, len(days))
	for i, d := range days {
		list[i] = counts[d]
		list[i].Day = d
	}
	return list, nil
}

// TopValues lists the values of one dimension of one event name over
// [from, to], summed over the days, by events descending then value, at
// most limit (limit <= 0: all). Visitors are the sum of the daily visitors:
// the hashes rotate daily, so no count of distinct visitors across days
// exists.
func (s *Store) TopValues(ctx context.Context, name, dim, from, to string, limit int) ([]ValueCount, error) {
	// Values are ordered by their bytes in both databases (PostgreSQL's
	// default collation follows the locale).
	order := `value`
	if s.dialect == Postgres {
		order = `value COLLATE "C"`
	}
	query := `SELECT value, CAST(SUM(events) AS BIGINT) AS n, CAST(SUM(visitors) AS BIGINT) FROM event_days
		WHERE name = ? AND dim = ? AND day >= ? AND day <= ?
		GROUP BY value ORDER BY n DESC, ` + order
	args := []any{name, dim, from, to}
	if limit > 0 {
		query += ` LIMIT ?`
		args = append(args, limit)
	}
	rows, err := s.read.QueryContext(ctx, s.q(query), args...)
	if err != nil {
		return nil, fmt.Errorf("store: top values of %s %s: %w", name, dim, err)
	}
	defer rows.Close()
	var list []ValueCount
	for rows.Next() {
		var v ValueCount
		if err := rows.Scan(&v.Value, &v.Events, &v.Visitors); err != nil {
			return nil, fmt.Errorf("store: top values of %s %s: %w", name, dim, err)
		}
		list = append(list, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: top values of %s %s: %w", name, dim, err)
	}
	return list, nil
}

// EnquiriesByProduct counts the enquiries received from from (inclusive)
// to to (exclusive) per product id: spam is left out, and deleted
// enquiries are gone. A shortlist's quote request counts once for each
// product it lists. A zero from or to leaves that end open.
func (s *Store) EnquiriesByProduct(ctx context.Context, from, to time.Time) (map[int64]int64, error) {
	where := `e.spam = ?`
	args := []any{false}
	if !from.IsZero() {
		where += ` AND e.created_at >= ?`
		args = append(args, from.UTC())
	}
	if !to.IsZero() {
		where += ` AND e.created_at < ?`
		args = append(args, to.UTC())
	}
	// UNION, not UNION ALL: a product listed twice in one shortlist is one
	// enquiry about it.
	query := `SELECT product_id, COUNT(*) FROM (
		SELECT e.product_id, e.id FROM enquiries e WHERE ` + where + ` AND e.product_id IS NOT NULL
		UNION
		SELECT i.product_id, e.id FROM enquiry_items i JOIN enquiries e ON e.id = i.enquiry_id WHERE ` + where + `
	) AS asked GROUP BY product_id`
	rows, err := s.read.QueryContext(ctx, s.q(query), append(args, args...)...)
	if err != nil {
		return nil, fmt.Errorf("store: enquiries by product: %w", err)
	}
	defer rows.Close()
	counts := map[int64]int64{}
	for rows.Next() {
		var id, n int64
		if err := rows.Scan(&id, &n); err != nil {
			return nil, fmt.Errorf("store: enquiries by product: %w", err)
		}
		counts[id] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: enquiries by product: %w", err)
	}
	return counts, nil
}
