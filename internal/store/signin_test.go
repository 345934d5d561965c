package store

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"studio/internal/store/storetest"
)

func TestBackoffWait(t *testing.T) {
	t.Parallel()
	b := Backoff{Free: 3, First: 30 * time.Second, Max: 15 * time.Minute}
	for _, c := range []struct {
		name  string
		count int
		ago   time.Duration // since the latest failure
		want  time.Duration
	}{
		{"none", 0, 0, 0},
		{"the free ones", 2, 0, 0},
		{"the last free one used", 3, 0, 30 * time.Second},
		{"one more doubles it", 4, 0, time.Minute},
		{"and one more", 5, 0, 2 * time.Minute},
		{"part of it waited", 5, 90 * time.Second, 30 * time.Second},
		{"all of it waited", 5, 2 * time.Minute, 0},
		{"longer than waited", 5, time.Hour, 0},
		{"capped", 9, 0, 15 * time.Minute},
		{"capped, however many", 10_000, 0, 15 * time.Minute},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := b.Wait(c.count, t0.Add(-c.ago), t0); got != c.want {
				t.Errorf("Wait(%d failures, the latest %s ago) = %s, want %s", c.count, c.ago, got, c.want)
			}
		})
	}
}

var testRule = SignInRule{
	Pair:    Backoff{Free: 3, First: 30 * time.Second, Max: 15 * time.Minute},
	Address: Backoff{Free: 6, First: 30 * time.Second, Max: 15 * time.Minute},
	Window:  24 * time.Hour,
	Keep:    7 * 24 * time.Hour,
}

// reserve tries account from address at, and returns the wait.
func reserve(t *testing.T, s *Store, account, address string, at time.Time) time.Duration {
	t.Helper()
	wait, err := s.ReserveSignIn(context.Background(), account, address, at, testRule)
	if err != nil {
		t.Fatal(err)
	}
	return wait
}

func TestSignInFailuresArePerPairAndPerAddress(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		for i := range testRule.Pair.Free {
			if wait := reserve(t, s, "asha@x.example", "192.0.2.1", t0); wait != 0 {
				t.Fatalf("free failure #%d: wait %s", i+1, wait)
			}
		}
		if wait := reserve(t, s, "Asha@X.example", "192.0.2.1", t0.Add(10*time.Second)); wait != 20*time.Second {
			t.Errorf("the pair after its free failures: wait %s, want 20s (30s from the latest)", wait)
		}
		if wait := reserve(t, s, "asha@x.example", "192.0.2.2", t0); wait != 0 {
			t.Errorf("the same account from another address: wait %s, want none", wait)
		}
		if wait := reserve(t, s, "asha@x.example", "192.0.2.1", t0.Add(30*time.Second)); wait != 0 {
			t.Errorf("after the wait: wait %s, want none", wait)
		}
		if wait := reserve(t, s, "asha@x.example", "192.0.2.1", t0.Add(31*time.Second)); wait != 59*time.Second {
			t.Errorf("one failure more: wait %s, want the doubled minute from the latest", wait)
		}
		// The address has 4 failures of its 6: two more accounts, then it waits for any account.
		reserve(t, s, "ravi@x.example", "192.0.2.1", t0.Add(40*time.Second))
		reserve(t, s, "meera@x.example", "192.0.2.1", t0.Add(40*time.Second))
		if wait := reserve(t, s, "nobody@x.example", "192.0.2.1", t0.Add(50*time.Second)); wait != 20*time.Second {
			t.Errorf("the address after its free failures: wait %s, want 20s", wait)
		}

		// A right password clears the pair's failures, not the address's others.
		if err := s.ClearSignInFailures(ctx, "asha@x.example", "192.0.2.1"); err != nil {
			t.Fatal(err)
		}
		if wait := reserve(t, s, "asha@x.example", "192.0.2.1", t0.Add(50*time.Second)); wait != 0 {
			t.Errorf("after a success, the pair's next try: wait %s, want none", wait)
		}
		if f, err := s.FailedSignInsSince(ctx, "asha@x.example", t0.Add(-time.Hour)); err != nil || f.Count != 2 || f.From != "192.0.2.1" || !f.Last.Equal(t0.Add(50*time.Second)) {
			t.Errorf("asha's failures = %+v, %v; want 2, the latest at +50s from 192.0.2.1 (the other address's stays)", f, err)
		}

		// Failures past the window no longer count; past Keep they are deleted.
		later := t0.Add(testRule.Window + time.Minute)
		if wait := reserve(t, s, "ravi@x.example", "192.0.2.1", later); wait != 0 {
			t.Errorf("a day later: wait %s, want none", wait)
		}
		reserve(t, s, "ravi@x.example", "192.0.2.9", t0.Add(testRule.Keep+time.Minute))
		if f, _ := s.FailedSignInsSince(ctx, "ravi@x.example", time.Time{}); f.Count != 2 {
			t.Errorf("ravi's failures after a week: %d, want 2 (the ones older than a week deleted)", f.Count)
		}
	})
}

func TestUnlockAccount(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		for i := range 5 {
			reserve(t, s, "asha@x.example", fmt.Sprintf("192.0.2.%d", i), t0)
			reserve(t, s, "asha@x.example", "192.0.2.100", t0.Add(time.Duration(i)*time.Hour))
		}
		reserve(t, s, "ravi@x.example", "192.0.2.100", t0)
		if wait := reserve(t, s, "asha@x.example", "192.0.2.100", t0.Add(4*time.Hour)); wait == 0 {
			t.Fatal("the pair is not slowed before the unlock: the test proves nothing")
		}
		n, err := s.UnlockAccount(ctx, "Asha@X.example")
		if err != nil || n != 10 {
			t.Errorf("unlock = %d, %v; want 10 failures cleared", n, err)
		}
		if wait := reserve(t, s, "asha@x.example", "192.0.2.100", t0.Add(4*time.Hour)); wait != 0 {
			t.Errorf("after the unlock: wait %s, want none", wait)
		}
		if f, _ := s.FailedSignInsSince(ctx, "ravi@x.example", time.Time{}); f.Count != 1 {
			t.Errorf("another account's failures after the unlock: %d, want 1", f.Count)
		}
		if f, err := s.FailedSignInsSince(ctx, "nobody@x.example", time.Time{}); f != (FailedSignIns{}) || err != nil {
			t.Errorf("no failures = %+v, %v", f, err)
		}
	})
}

// Tries that come at once are counted one after the other: exactly the
// free ones are let through, within one copy of the server and across two
// on one PostgreSQL.
func TestConcurrentTriesAreCountedOnce(t *testing.T) {
	t.Parallel()
	race := func(t *testing.T, stores []*Store, account func(i int) string, address string, want int) {
		t.Helper()
		var wg sync.WaitGroup
		var mu sync.Mutex
		let := 0
		for i := range 24 {
			wg.Go(func() {
				wait, err := stores[i%len(stores)].ReserveSignIn(context.Background(), account(i), address, t0, testRule)
				if err != nil {
					t.Error(err)
					return
				}
				if wait == 0 {
					mu.Lock()
					let++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if let != want {
			t.Errorf("%d of 24 tries at once let through, want %d", let, want)
		}
	}
	oneAccount := func(int) string { return "asha@x.example" }
	manyAccounts := func(i int) string { return fmt.Sprintf("guess%d@x.example", i) }
	eachStore(t, func(t *testing.T, s *Store) {
		t.Run("one account", func(t *testing.T) { race(t, []*Store{s}, oneAccount, "192.0.2.1", testRule.Pair.Free) })
		t.Run("many accounts", func(t *testing.T) { race(t, []*Store{s}, manyAccounts, "192.0.2.2", testRule.Address.Free) })
	})
	t.Run("two servers on one postgres", func(t *testing.T) {
		url := storetest.PostgresURL(t)
		var stores []*Store
		for range 2 {
			s, err := OpenPostgres(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			stores = append(stores, s)
		}
		race(t, stores, oneAccount, "192.0.2.1", testRule.Pair.Free)
		race(t, stores, manyAccounts, "192.0.2.1", testRule.Address.Free-testRule.Pair.Free)
	})
}
