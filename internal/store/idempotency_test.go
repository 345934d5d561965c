package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"studio/internal/enquiry"
)

func keyed(name, key string) enquiry.Enquiry {
	e := sample(enquiry.Contact, name)
	e.IdempotencyKey = key
	if key != "" {
		// An address of each key's own: the tests' many enquiries are not
		// to meet the limit on acknowledgements to one address.
		e.Email = key + "@example.com"
	}
	return e
}

// countRows counts the enquiries and queued mails in the database.
func countRows(t *testing.T, s *Store) (enquiries, mails int) {
	t.Helper()
	if err := s.read.QueryRow(`SELECT count(*) FROM enquiries`).Scan(&enquiries); err != nil {
		t.Fatal(err)
	}
	if err := s.read.QueryRow(`SELECT count(*) FROM mail_outbox`).Scan(&mails); err != nil {
		t.Fatal(err)
	}
	return enquiries, mails
}

func TestIdempotencyKeyStoresOnce(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		first, err := s.CreateEnquiry(ctx, keyed("First", "key-0123456789abcdef"), true)
		if err != nil {
			t.Fatal(err)
		}
		// The retry's text does not matter: the key names the submission.
		again, err := s.CreateEnquiry(ctx, keyed("Retry", "key-0123456789abcdef"), true)
		if err != nil || again != first {
			t.Fatalf("retry = %d, %v; want the first id %d", again, err, first)
		}
		// Without a key (NULL, any number of them) and with another key, new enquiries.
		a, _ := s.CreateEnquiry(ctx, keyed("No key 1", ""), true)
		b, _ := s.CreateEnquiry(ctx, keyed("No key 2", ""), true)
		c, _ := s.CreateEnquiry(ctx, keyed("Other", "key-fedcba9876543210"), false)
		if a == first || b == a || c == b || a == 0 || b == 0 || c == 0 {
			t.Errorf("ids %d, %d, %d after %d: want new ones", a, b, c, first)
		}
		if n, mails := countRows(t, s); n != 4 || mails != 6 {
			t.Errorf("%d enquiries and %d mails stored, want 4 and 6 (the retry stores neither)", n, mails)
		}
		e, err := s.Enquiry(ctx, first)
		if err != nil || e.Name != "First" || e.IdempotencyKey != "key-0123456789abcdef" {
			t.Errorf("stored %+v, %v; want the first, with its key", e, err)
		}
		if e, _ := s.Enquiry(ctx, a); e.IdempotencyKey != "" {
			t.Errorf("an enquiry without a key reads back key %q", e.IdempotencyKey)
		}
	})
}

// A key seen earlier in the same SQLite batch answers with the earlier id,
// and the others of the batch are stored as usual.
func TestIdempotencyKeyWithinOneBatch(t *testing.T) {
	t.Parallel()
	s := newSQLite(t)
	reqs := []createRequest{
		{e: keyed("A", "batch-key-aaaaaaaaaaaa"), mail: true},
		{e: keyed("B", "")},
		{e: keyed("A again", "batch-key-aaaaaaaaaaaa"), mail: true},
		{e: keyed("C", "batch-key-cccccccccccc"), mail: true},
		{e: keyed("A a third time", "batch-key-aaaaaaaaaaaa")},
	}
	for i := range reqs {
		reqs[i].ctx = context.Background()
		reqs[i].reply = make(chan createReply, 1)
	}
	s.batch.commit(reqs)
	var ids []int64
	for _, r := range reqs {
		reply := <-r.reply
		if reply.err != nil {
			t.Fatalf("%s: %v", r.e.Name, reply.err)
		}
		ids = append(ids, reply.id)
	}
	if ids[2] != ids[0] || ids[4] != ids[0] || ids[1] == ids[0] || ids[3] == ids[0] || ids[3] == ids[1] {
		t.Errorf("ids %v: want the key's retries to answer the first id, the others new ones", ids)
	}
	if n, mails := countRows(t, s); n != 3 || mails != 4 {
		t.Errorf("%d enquiries and %d mails stored, want 3 and 4", n, mails)
	}
}

// Several requests with one key at once: one is stored, all are answered
// with its id.
func TestIdempotencyKeyRaces(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		const keys, copies = 40, 4
		ids := make([][copies]int64, keys)
		var wg sync.WaitGroup
		for k := range keys {
			start := make(chan struct{})
			for c := range copies {
				wg.Go(func() {
					<-start
					id, err := s.CreateEnquiry(context.Background(), keyed(fmt.Sprintf("%d-%d", k, c), fmt.Sprintf("race-key-%08d", k)), true)
					if err != nil {
						t.Error(err)
					}
					ids[k][c] = id
				})
			}
			close(start)
		}
		wg.Wait()
		for k, got := range ids {
			for _, id := range got {
				if id != got[0] || id == 0 {
					t.Errorf("key %d answered %v: want one id", k, got)
					break
				}
			}
		}
		if n, mails := countRows(t, s); n != keys || mails != 2*keys {
			t.Errorf("%d enquiries and %d mails stored, want %d and %d", n, mails, keys, 2*keys)
		}
	})
}

// Requests cancelled at random moments while CreateEnquiry runs (before,
// during and after the commit), and retried with the same key until one
// is answered: every key is stored exactly once, with its mails once, and
// every later retry answers the same id. This is the visitor whose request
// was cancelled mid-commit, told "not saved", who sends again.
func TestCancelledMidCommitThenRetriedStoredOnce(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		const (
			workers        = 12
			perWork        = 16
			cancelAttempts = 40 // then one is let through
		)
		var (
			cancelled    atomic.Int64 // attempts that returned an error
			storedAnyway atomic.Int64 // of those, found stored before the retry
			answered     = make([][]int64, workers*perWork)
			wg           sync.WaitGroup
			// A cancel falls within twice the time an answered call takes
			// on this database under this load (the retries after the
			// answer measure it), and later at each attempt, as an attempt
			// after a cancel opens a new connection: before the commit,
			// inside it and after it alike. A fixed window fits one
			// database only: on a slower one nearly every attempt was
			// cancelled before its commit began, forty times a key.
			callNanos, calls atomic.Int64
		)
		window := func() time.Duration {
			if n := calls.Load(); n > 0 {
				return 2 * time.Duration(callNanos.Load()/n)
			}
			return 3 * time.Millisecond // until the first answer
		}
		for w := range workers {
			wg.Go(func() {
				for i := range perWork {
					n := w*perWork + i
					key := fmt.Sprintf("cancel-key-%03d-%03d", w, i)
					e := keyed(fmt.Sprintf("%d", n), key)
					for attempt := 0; ; attempt++ {
						ctx, cancel := context.WithCancel(context.Background())
						if attempt < cancelAttempts {
							time.AfterFunc(rand.N(max(window()*time.Duration(attempt+1), time.Microsecond)), cancel)
						}
						id, err := s.CreateEnquiry(ctx, e, true)
						cancel()
						if err == nil {
							answered[n] = append(answered[n], id)
							break
						}
						if !errors.Is(err, context.Canceled) { // even when the driver's own error is another
							t.Errorf("%s: %v", key, err)
							return
						}
						cancelled.Add(1)
						var stored int64
						if s.read.QueryRow(s.q(`SELECT id FROM enquiries WHERE idempotency_key = ?`), key).Scan(&stored) == nil {
							storedAnyway.Add(1)
						}
					}
					// A retry after the answer (the answer was lost on the way).
					started := time.Now()
					id, err := s.CreateEnquiry(context.Background(), e, true)
					if err != nil {
						t.Error(err)
						return
					}
					callNanos.Add(int64(time.Since(started)))
					calls.Add(1)
					answered[n] = append(answered[n], id)
				}
			})
		}
		wg.Wait()

		byKey := map[string][]int64{}
		rows, err := s.read.Query(`SELECT id, idempotency_key FROM enquiries`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var (
				id  int64
				key string
			)
			if err := rows.Scan(&id, &key); err != nil {
				t.Fatal(err)
			}
			byKey[key] = append(byKey[key], id)
		}
		rows.Close()
		for n, ids := range answered {
			key := fmt.Sprintf("cancel-key-%03d-%03d", n/perWork, n%perWork)
			stored := byKey[key]
			if len(stored) != 1 {
				t.Errorf("%s stored as %v, want once", key, stored)
				continue
			}
			for _, id := range ids {
				if id != stored[0] {
					t.Errorf("%s answered %v, stored as %d", key, ids, stored[0])
					break
				}
			}
		}
		if n, mails := countRows(t, s); n != workers*perWork || mails != 2*workers*perWork {
			t.Errorf("%d enquiries and %d mails stored, want %d and %d", n, mails, workers*perWork, 2*workers*perWork)
		}
		t.Logf("%d keys; %d attempts cancelled (within %s), %d of them found stored before their retry", workers*perWork, cancelled.Load(), window().Round(time.Microsecond), storedAnyway.Load())
	})
}

func TestKeyIsMadeOnceAndShared(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		var (
			wg   sync.WaitGroup
			keys [8][]byte
		)
		for i := range keys {
			wg.Go(func() {
				k, err := s.Key(ctx, KeyFormStart)
				if err != nil {
					t.Error(err)
				}
				keys[i] = k
			})
		}
		wg.Wait()
		for _, k := range keys {
			if len(k) != 32 || !bytes.Equal(k, keys[0]) {
				t.Fatalf("keys %x: want one key of 32 bytes", keys)
			}
		}
		other, err := s.Key(ctx, "another")
		if err != nil || bytes.Equal(other, keys[0]) {
			t.Errorf("another name's key %x, %v: want a key of its own", other, err)
		}
	})
}

// Two servers on one SQLite file that start together get the same key,
// and a restart keeps it.
func TestKeySurvivesRestartAndIsSharedBetweenServers(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "studio.db")
	first, err := OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	second, err := OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	var (
		wg   sync.WaitGroup
		a, b []byte
	)
	wg.Go(func() { a, _ = first.Key(context.Background(), KeyFormStart) })
	wg.Go(func() { b, _ = second.Key(context.Background(), KeyFormStart) })
	wg.Wait()
	first.Close()
	second.Close()
	if len(a) != 32 || !bytes.Equal(a, b) {
		t.Fatalf("two servers got %x and %x", a, b)
	}
	again, err := OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if c, err := again.Key(context.Background(), KeyFormStart); err != nil || !bytes.Equal(c, a) {
		t.Errorf("after a restart: %x, %v; want %x", c, err, a)
	}
}
