package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The caps on stored events (EventCaps): each day's count in all and per
// sender, kept in event_quotas and read and written under a lock in the
// transaction that stores the events; and the batch ids (event_batches)
// that make a retried batch count once.

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
