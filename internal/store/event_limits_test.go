package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"studio/internal/store/storetest"
)

// events makes n page views of day, labelled with prefix and their index.
func events(day, prefix string, n int) []InsightEvent {
	list := make([]InsightEvent, n)
	for i := range list {
		list[i] = ev(day, "v", "page_view")
		list[i].Label = fmt.Sprintf("%s-%d", prefix, i)
	}
	return list
}

// readQuotas reads event_quotas as "day scope=events" lines, and the ids of
// event_batches.
func readQuotas(t *testing.T, s *Store) (quotas map[string]int64, batches map[string]bool) {
	t.Helper()
	quotas, batches = map[string]int64{}, map[string]bool{}
	rows, err := s.read.Query(`SELECT day, scope, events FROM event_quotas`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var day, scope string
		var n int64
		if err := rows.Scan(&day, &scope, &n); err != nil {
			t.Fatal(err)
		}
		quotas[day+" "+scope] = n
	}
	rows.Close()
	rows, err = s.read.Query(`SELECT id FROM event_batches`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		rows.Scan(&id)
		batches[id] = true
	}
	rows.Close()
	return quotas, batches
}

func TestEventBatchStoredOnce(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		b := EventBatch{ID: "batch-0123456789abcdef", Day: "2026-11-23", Sender: "s1", Events: events("2026-11-23", "a", 3)}
		for i, want := range []EventsAdded{{Stored: 3}, {Duplicate: 3}, {Duplicate: 3}} {
			got, err := s.AddEvents(ctx, EventCaps{PerDay: 100, PerSender: 100}, b)
			if err != nil || got != want {
				t.Errorf("sending %d: %+v, %v; want %+v", i+1, got, err, want)
			}
		}
		// Another id is another batch, even with the same events.
		b.ID = "batch-fedcba9876543210"
		if got, err := s.AddEvents(ctx, EventCaps{}, b); err != nil || got != (EventsAdded{Stored: 3}) {
			t.Errorf("another id: %+v, %v", got, err)
		}
		if n := rawEvents(t, s); n != 6 {
			t.Errorf("%d events stored, want 6 (two batches once each)", n)
		}
		// A retry counts nothing against the caps.
		if quotas, _ := readQuotas(t, s); quotas["2026-11-23 *"] != 6 || quotas["2026-11-23 a:s1"] != 6 {
			t.Errorf("counts %v, want 6 for the day and for s1", quotas)
		}
	})
}

// One id sent many times at once, as copies of the server or a SQLite
// group commit would take them: stored once, each other call told it was
// a duplicate.
func TestEventBatchRaces(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		const ids, copies = 20, 5
		var stored, duplicate atomic.Int64
		var wg sync.WaitGroup
		for k := range ids {
			start := make(chan struct{})
			for range copies {
				wg.Go(func() {
					<-start
					b := EventBatch{ID: fmt.Sprintf("race-batch-%08d", k), Day: "2026-11-23", Events: events("2026-11-23", fmt.Sprint(k), 2)}
					got, err := s.AddEvents(context.Background(), EventCaps{}, b)
					if err != nil {
						t.Error(err)
					}
					stored.Add(int64(got.Stored))
					duplicate.Add(int64(got.Duplicate))
				})
			}
			close(start)
		}
		wg.Wait()
		if n := rawEvents(t, s); n != ids*2 || stored.Load() != ids*2 || duplicate.Load() != ids*2*(copies-1) {
			t.Errorf("%d events stored, %d said stored, %d said duplicate; want %d, %d, %d", n, stored.Load(), duplicate.Load(), ids*2, ids*2, ids*2*(copies-1))
		}
	})
}

func TestEventCaps(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		caps := EventCaps{PerDay: 10, PerSender: 4}
		steps := []struct {
			name, id, day, sender string
			n                     int
			want                  EventsAdded
		}{
			{"under both caps", "b01-xxxxxxxxxxxxxxxx", "2026-11-23", "a", 3, EventsAdded{Stored: 3}},
			{"the sender's cap reached within the batch", "b02-xxxxxxxxxxxxxxxx", "2026-11-23", "a", 3, EventsAdded{Stored: 1, OverSender: 2}},
			{"the sender at its cap", "b03-xxxxxxxxxxxxxxxx", "2026-11-23", "a", 1, EventsAdded{OverSender: 1}},
			{"another sender", "b04-xxxxxxxxxxxxxxxx", "2026-11-23", "b", 4, EventsAdded{Stored: 4}},
			{"the day's cap reached within the batch", "b05-xxxxxxxxxxxxxxxx", "2026-11-23", "c", 4, EventsAdded{Stored: 2, OverDay: 2}},
			{"the day at its cap", "b06-xxxxxxxxxxxxxxxx", "2026-11-23", "d", 1, EventsAdded{OverDay: 1}},
			{"a batch refused at the cap, sent again", "b06-xxxxxxxxxxxxxxxx", "2026-11-23", "d", 1, EventsAdded{OverDay: 1}},
			{"a batch partly stored, sent again", "b02-xxxxxxxxxxxxxxxx", "2026-11-23", "a", 3, EventsAdded{Duplicate: 3}},
			{"the next day", "b07-xxxxxxxxxxxxxxxx", "2026-11-24", "a", 3, EventsAdded{Stored: 3}},
			{"no sender: the day's cap only", "b08-xxxxxxxxxxxxxxxx", "2026-11-24", "", 6, EventsAdded{Stored: 6}},
		}
		for _, st := range steps {
			b := EventBatch{ID: st.id, Day: st.day, Sender: st.sender, Events: events(st.day, st.id, st.n)}
			got, err := s.AddEvents(ctx, caps, b)
			if err != nil || got != st.want {
				t.Errorf("%s: %+v, %v; want %+v", st.name, got, err, st.want)
			}
		}
		if n := rawEvents(t, s); n != 10+9 {
			t.Errorf("%d events stored, want 19", n)
		}
		quotas, batches := readQuotas(t, s)
		want := map[string]int64{"2026-11-23 *": 10, "2026-11-23 a:a": 4, "2026-11-23 a:b": 4, "2026-11-23 a:c": 2, "2026-11-24 *": 9, "2026-11-24 a:a": 3}
		if fmt.Sprint(quotas) != fmt.Sprint(want) {
			t.Errorf("event_quotas = %v, want %v (no row for d, nothing of it was stored)", quotas, want)
		}
		if batches["b03-xxxxxxxxxxxxxxxx"] || batches["b06-xxxxxxxxxxxxxxxx"] || !batches["b02-xxxxxxxxxxxxxxxx"] || len(batches) != 6 {
			t.Errorf("event_batches = %v: want those of which something was stored", batches)
		}
	})
}

// A SQLite group commit of many batches decides as the same batches sent
// one after another do (on PostgreSQL, each its own transaction): ids
// repeated within the group, a sender's cap and the day's reached in it.
func TestEventGroupDecidesAsOneAfterAnother(t *testing.T) {
	t.Parallel()
	caps := EventCaps{PerDay: 6, PerSender: 4}
	day := "2026-11-23"
	batch := func(id, sender string, n int) eventRequest {
		return eventRequest{caps: caps, batch: EventBatch{ID: id, Day: day, Sender: sender, Events: events(day, id+sender, n)}}
	}
	reqs := []eventRequest{
		batch("group-a-xxxxxxxxxxxx", "s1", 3),
		batch("group-b-xxxxxxxxxxxx", "s1", 3),
		batch("group-a-xxxxxxxxxxxx", "s1", 3),
		batch("group-c-xxxxxxxxxxxx", "s2", 4),
		batch("group-d-xxxxxxxxxxxx", "s3", 1),
		batch("", "", 1),
	}
	want := []EventsAdded{{Stored: 3}, {Stored: 1, OverSender: 2}, {Duplicate: 3}, {Stored: 2, OverDay: 2}, {OverDay: 1}, {OverDay: 1}}
	check := func(t *testing.T, s *Store, got []EventsAdded) {
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("decided %v, want %v", got, want)
		}
		quotas, batches := readQuotas(t, s)
		if want := map[string]int64{day + " *": 6, day + " a:s1": 4, day + " a:s2": 2}; fmt.Sprint(quotas) != fmt.Sprint(want) {
			t.Errorf("event_quotas = %v, want %v", quotas, want)
		}
		if len(batches) != 3 || batches["group-d-xxxxxxxxxxxx"] {
			t.Errorf("event_batches = %v, want a, b and c", batches)
		}
		if n := rawEvents(t, s); n != 6 {
			t.Errorf("%d events stored, want 6", n)
		}
	}
	t.Run("sqlite, one group", func(t *testing.T) {
		s := newSQLite(t)
		for i := range reqs {
			reqs[i].reply = make(chan eventReply, 1)
		}
		s.events.commit(reqs)
		var got []EventsAdded
		for _, r := range reqs {
			reply := <-r.reply
			if reply.err != nil {
				t.Fatal(reply.err)
			}
			got = append(got, reply.added)
		}
		check(t, s, got)
	})
	t.Run("postgres, one after another", func(t *testing.T) {
		s := NewPostgresForTest(t)
		var got []EventsAdded
		for _, r := range reqs {
			a, err := s.AddEvents(context.Background(), r.caps, r.batch)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, a)
		}
		check(t, s, got)
	})
}

// Two copies of the server on one database (two Stores), each with
// concurrent callers from many senders: no more than the caps are stored,
// and what each call was told adds up to what is stored.
func TestEventCapsExactAcrossCopies(t *testing.T) {
	t.Parallel()
	const (
		perDay, perSender = 300, 40
		callers, calls    = 8, 25 // per copy
		size, senders     = 3, 10
	)
	run := func(t *testing.T, copies [2]*Store) {
		var stored, overDay, overSender atomic.Int64
		var wg sync.WaitGroup
		for c, s := range copies {
			for w := range callers {
				wg.Go(func() {
					for i := range calls {
						b := EventBatch{ID: fmt.Sprintf("copy%d-w%02d-%03d-xxxxxxx", c, w, i), Day: "2026-11-23",
							Sender: fmt.Sprintf("s%d", (w+i)%senders), Events: events("2026-11-23", fmt.Sprint(c, w, i), size)}
						got, err := s.AddEvents(context.Background(), EventCaps{PerDay: perDay, PerSender: perSender}, b)
						if err != nil {
							t.Error(err)
							return
						}
						stored.Add(int64(got.Stored))
						overDay.Add(int64(got.OverDay))
						overSender.Add(int64(got.OverSender))
					}
				})
			}
		}
		wg.Wait()
		sent := int64(2 * callers * calls * size)
		n := rawEvents(t, copies[0])
		if int64(n) != stored.Load() || n != perDay || stored.Load()+overDay.Load()+overSender.Load() != sent {
			t.Errorf("%d stored (%d said), %d over the day, %d over a sender, of %d sent; want exactly %d stored", n, stored.Load(), overDay.Load(), overSender.Load(), sent, perDay)
		}
		quotas, _ := readQuotas(t, copies[0])
		var bySender int64
		for scope, count := range quotas {
			if scope != "2026-11-23 *" {
				bySender += count
				if count > perSender {
					t.Errorf("%s: %d, over the cap of %d", scope, count, perSender)
				}
			}
		}
		if quotas["2026-11-23 *"] != perDay || bySender != perDay {
			t.Errorf("counts: day %d, senders %d; want %d", quotas["2026-11-23 *"], bySender, perDay)
		}
	}
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "studio.db")
		var copies [2]*Store
		for i := range copies {
			s, err := OpenSQLite(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			copies[i] = s
		}
		run(t, copies)
	})
	t.Run("postgres", func(t *testing.T) {
		url := storetest.PostgresURL(t)
		var copies [2]*Store
		for i := range copies {
			s, err := OpenPostgres(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			copies[i] = s
		}
		run(t, copies)
	})
}

// The batch ids and the senders' counts go once the day after theirs is
// over; the days' totals with the events, after keepDays.
func TestEventLimitsRetention(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		for i, day := range []string{"2026-11-20", "2026-11-21", "2026-11-22", "2026-11-23"} {
			b := EventBatch{ID: fmt.Sprintf("retention-%d-xxxxxxxxxx", i), Day: day, Sender: "s", Events: events(day, day, 1)}
			if _, err := s.AddEvents(ctx, EventCaps{}, b); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.RollUpEvents(ctx, "2026-11-23", 2); err != nil {
			t.Fatal(err)
		}
		quotas, batches := readQuotas(t, s)
		want := map[string]int64{"2026-11-21 *": 1, "2026-11-22 *": 1, "2026-11-22 a:s": 1, "2026-11-23 *": 1, "2026-11-23 a:s": 1}
		if fmt.Sprint(quotas) != fmt.Sprint(want) {
			t.Errorf("event_quotas = %v, want %v", quotas, want)
		}
		if fmt.Sprint(batches) != fmt.Sprint(map[string]bool{"retention-2-xxxxxxxxxx": true, "retention-3-xxxxxxxxxx": true}) {
			t.Errorf("event_batches = %v, want yesterday's and today's", batches)
		}
		if n := rawEvents(t, s); n != 3 {
			t.Errorf("%d events kept, want the 3 from the 21st", n)
		}
		// keepDays 0 keeps today's only, ids and counts too.
		if err := s.RollUpEvents(ctx, "2026-11-23", 0); err != nil {
			t.Fatal(err)
		}
		if quotas, batches := readQuotas(t, s); len(quotas) != 2 || len(batches) != 1 {
			t.Errorf("with keepDays 0: %v, %v; want today's rows", quotas, batches)
		}
	})
}

// A batch the SQLite batcher has taken is committed even though its caller
// stops waiting (its request was cancelled): nothing that was accepted is
// lost. The writing connection is held, so the batcher waits with the
// batch in hand while the caller's context ends.
func TestEventBatcherCommitsWhenTheCallerLeaves(t *testing.T) {
	t.Parallel()
	s := newSQLite(t)
	ctx := context.Background()
	// The group commit prepares its statement on first use: done here, so
	// that the wait below is the transaction's.
	addEvents(t, s, ev("2026-11-23", "first", "page_view"))
	held, err := s.write.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	waits := s.write.Stats().WaitCount
	caller, leave := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := s.AddEvents(caller, EventCaps{}, EventBatch{ID: "left-xxxxxxxxxxxxxxxx", Day: "2026-11-23", Events: events("2026-11-23", "left", 5)})
		done <- err
	}()
	// Until the batcher waits for the connection, the batch in hand; the
	// deadlines are generous, for a machine under load.
	deadline := time.Now().Add(2 * time.Minute)
	for s.write.Stats().WaitCount == waits {
		if time.Now().After(deadline) {
			t.Fatal("the batcher never waited for the held connection")
		}
		time.Sleep(time.Millisecond)
	}
	leave()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("the caller that left heard %v, want context.Canceled", err)
	}
	held.Close()
	deadline = time.Now().Add(2 * time.Minute)
	for rawEvents(t, s) != 6 {
		if time.Now().After(deadline) {
			t.Fatalf("%d events stored, want 6: the batch of the caller that left was dropped", rawEvents(t, s))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Batches sent with contexts cancelled at random moments (before, during
// and after the commit) and sent again with the same id until a call
// answers: each batch is stored exactly once, including those committed
// though their caller heard an error.
func TestEventBatchCancelledThenRetriedStoredOnce(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		const workers, perWorker, size, cancelAttempts = 4, 6, 4, 5
		var cancelled, storedAnyway atomic.Int64
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for i := range perWorker {
					id := fmt.Sprintf("cancel-%02d-%03d-xxxxxxxx", w, i)
					b := EventBatch{ID: id, Day: "2026-11-23", Events: events("2026-11-23", id, size)}
					for attempt := 0; ; attempt++ {
						ctx, cancel := context.WithCancel(context.Background())
						if attempt < cancelAttempts {
							time.AfterFunc(time.Duration(rand.IntN(3000))*time.Microsecond, cancel)
						}
						_, err := s.AddEvents(ctx, EventCaps{}, b)
						cancel()
						if err == nil {
							break
						}
						if !errors.Is(err, context.Canceled) {
							t.Errorf("%s: %v", id, err)
							return
						}
						cancelled.Add(1)
						var n int
						if s.read.QueryRow(s.q(`SELECT COUNT(*) FROM event_batches WHERE id = ?`), id).Scan(&n) == nil && n > 0 {
							storedAnyway.Add(1)
						}
					}
				}
			})
		}
		wg.Wait()
		t.Logf("%d batches; %d attempts cancelled, %d of them found stored before their retry", workers*perWorker, cancelled.Load(), storedAnyway.Load())
		var n, distinct int
		if err := s.read.QueryRow(`SELECT COUNT(*), COUNT(DISTINCT label) FROM events`).Scan(&n, &distinct); err != nil {
			t.Fatal(err)
		}
		if want := workers * perWorker * size; n != want || distinct != want {
			t.Errorf("%d events stored (%d distinct), want each of %d once", n, distinct, want)
		}
	})
}
