package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// The daily counts of the analytics events (event_days), made from the
// raw events every few minutes, and what the insights page reads of them.

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
