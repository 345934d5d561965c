package workspace

import (
	"context"
	"html"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"studio/internal/input"
	"studio/internal/store"
	"studio/internal/workspace/accounts"
)

// clock fixes the workspace's time, and returns a way to move it on.
func clock(h *Handler, at time.Time) func(time.Duration) {
	h.now = func() time.Time { return at }
	return func(d time.Duration) {
		at = at.Add(d)
		h.now = func() time.Time { return at }
	}
}

// Wrong passwords for an account from 50 addresses do not keep its holder
// out: the right password from another address signs in at once, by the
// form and by Basic auth.
func TestGuessesFromElsewhereNeverKeepTheHolderOut(t *testing.T) {
	onBoth(t, func(t *testing.T, h *Handler, _ *store.Store) {
		clock(h, time.Now())
		for i := range 50 {
			for range 2 {
				if w := do(h, "POST", "/studio/sign-in", signInForm("Asha@Studio.example", "a guess"), from("192.0.2."+strconv.Itoa(i)+":1")); w.Code != http.StatusUnauthorized {
					t.Fatalf("a guess from address %d: %d, want 401", i, w.Code)
				}
			}
		}
		signIn(t, h, asha, ashaPassword, from("198.51.100.1:1"))
		if w := do(h, "GET", "/studio/enquiries.csv", nil, basic(asha, ashaPassword), from("198.51.100.2:1")); w.Code != 200 {
			t.Errorf("Basic auth from a fresh address: %d, want 200", w.Code)
		}
		// From an address that guessed twice (under its free failures) too.
		signIn(t, h, asha, ashaPassword, from("192.0.2.7:1"))
	})
}

// Failures from one address slow that address, more with each one, up to
// maxWait; the page says how long to wait. Other people elsewhere, and the
// address itself once it has waited, are let in.
func TestFailuresSlowTheAddress(t *testing.T) {
	onBoth(t, func(t *testing.T, h *Handler, _ *store.Store) {
		wait := clock(h, time.Now())
		office := from("198.51.100.1:1")
		guess := func(i int) *httptest.ResponseRecorder {
			return do(h, "POST", "/studio/sign-in", signInForm("guess"+strconv.Itoa(i)+"@x.example", "guess"), office)
		}
		for i := range accounts.AddressFreeFailures {
			if w := guess(i); w.Code != http.StatusUnauthorized {
				t.Fatalf("free failure #%d: %d, want 401", i+1, w.Code)
			}
		}
		for i, want := range []int{30, 60, 120, 240, 480, 900, 900, 900} {
			w := do(h, "POST", "/studio/sign-in", signInForm(ravi, raviPassword), office)
			body := html.UnescapeString(w.Body.String())
			if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != strconv.Itoa(want) || !strings.Contains(body, "Wait "+accounts.WaitText(time.Duration(want)*time.Second)+", then try again") {
				t.Fatalf("after %d failures: %d, Retry-After %q; want 429, %d, and the page saying how long", accounts.AddressFreeFailures+i, w.Code, w.Header().Get("Retry-After"), want)
			}
			if w := do(h, "GET", "/studio/newsletter.csv", nil, basic(ravi, raviPassword), office); w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != strconv.Itoa(want) {
				t.Fatalf("Basic auth from there: %d, Retry-After %q; want 429, %d", w.Code, w.Header().Get("Retry-After"), want)
			}
			signIn(t, h, asha, ashaPassword, from("203.0.113.50:1")) // elsewhere, at once
			wait(time.Duration(want-1) * time.Second)
			if w := guess(100 + i); w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "1" {
				t.Fatalf("a second before the wait ends: %d, Retry-After %q; want 429, 1", w.Code, w.Header().Get("Retry-After"))
			}
			wait(time.Second)
			if w := guess(100 + i); w.Code != http.StatusUnauthorized {
				t.Fatalf("once the wait is over: %d, want the try checked (401)", w.Code)
			}
		}
		wait(accounts.MaxWait)
		signIn(t, h, ravi, raviPassword, office)
	})
}

// Tries that come at once are checked one after the other: of 24 wrong
// passwords from one address, exactly the free ones are checked, and the
// rest are told to wait.
func TestConcurrentTriesAreCheckedOnce(t *testing.T) {
	onBoth(t, func(t *testing.T, h *Handler, st *store.Store) {
		clock(h, time.Now())
		race := func(address string, email func(i int) string, want int) {
			t.Helper()
			var wg sync.WaitGroup
			var mu sync.Mutex
			codes := map[int]int{}
			for i := range 24 {
				wg.Go(func() {
					w := do(h, "POST", "/studio/sign-in", signInForm(email(i), "a guess"), from(address+":1"))
					mu.Lock()
					codes[w.Code]++
					mu.Unlock()
				})
			}
			wg.Wait()
			if codes[http.StatusUnauthorized] != want || codes[http.StatusTooManyRequests] != 24-want {
				t.Errorf("24 tries at once from %s: %v, want %d checked (401) and %d told to wait (429)", address, codes, want, 24-want)
			}
		}
		race("192.0.2.1", func(int) string { return asha }, accounts.PairFreeFailures)
		if f, err := st.FailedSignInsSince(context.Background(), asha, h.now().Add(-time.Hour)); f.Count != accounts.PairFreeFailures || err != nil {
			t.Errorf("%d failures recorded (%v), want %d: one for each password checked", f.Count, err, accounts.PairFreeFailures)
		}
		race("192.0.2.2", func(i int) string { return "guess" + strconv.Itoa(i) + "@x.example" }, accounts.AddressFreeFailures)
	})
}

// A Basic user or password that no database can keep (a NUL, bytes that
// are not UTF-8) is a wrong password: 401, never a 5xx, and a failure for
// the address all the same. In the sign-in form such text is refused at
// the workspace's edge (storableForm) with a 400 naming the field, before
// anything is looked up.
func TestUnstorableCredentialsAreWrong(t *testing.T) {
	onBoth(t, func(t *testing.T, h *Handler, _ *store.Store) {
		clock(h, time.Now())
		for _, c := range []struct {
			name  string
			form  bool
			email string
			pass  string
		}{
			{"a NUL in the e-mail", true, asha + "\x00", ashaPassword},
			{"not UTF-8 in the e-mail", true, "\xff" + asha, ashaPassword},
			{"a NUL in the password", true, asha, ashaPassword + "\x00"},
			{"an e-mail longer than any", true, strings.Repeat("a", 300) + "@x.example", ashaPassword},
			{"a NUL in the Basic user", false, "asha\x00@studio.example", ashaPassword},
			{"not UTF-8 in the Basic user", false, asha + "\xc3", ashaPassword},
			{"a NUL in the Basic password", false, asha, "\x00" + ashaPassword},
			{"not UTF-8 in the Basic password", false, asha, ashaPassword + "\xff"},
		} {
			t.Run(c.name, func(t *testing.T) {
				var w *httptest.ResponseRecorder
				if c.form {
					w = do(h, "POST", "/studio/sign-in", signInForm(c.email, c.pass), from("198.51.100.9:1"))
				} else {
					w = do(h, "GET", "/studio/enquiries.csv", nil, basic(c.email, c.pass), from("198.51.100.9:1"))
				}
				want := http.StatusUnauthorized
				if c.form && !input.Storable(c.email+c.pass) {
					want = http.StatusBadRequest
				}
				if w.Code != want {
					t.Errorf("%d %s, want %d", w.Code, w.Body, want)
				}
				if c.form && strings.ContainsRune(w.Body.String(), 0) {
					t.Error("the page shows the NUL back")
				}
			})
		}
		// They share one pair (no account's), whose free failures they use
		// up, and count for the address with the others.
		for i := range accounts.AddressFreeFailures {
			email := "guess" + strconv.Itoa(i) + "@x.example"
			if i < accounts.PairFreeFailures {
				email += "\x00"
			}
			if w := do(h, "GET", "/studio/enquiries.csv", nil, basic(email, "guess"), from("198.51.100.10:1")); w.Code != http.StatusUnauthorized {
				t.Fatalf("free failure #%d: %d, want 401", i+1, w.Code)
			}
		}
		if w := do(h, "POST", "/studio/sign-in", signInForm(asha, ashaPassword), from("198.51.100.10:1")); w.Code != http.StatusTooManyRequests {
			t.Errorf("after %d failures, %d of them with a NUL: %d, want 429", accounts.AddressFreeFailures, accounts.PairFreeFailures, w.Code)
		}
		// From an address of their own, the e-mails no database can keep
		// share one pair, slowed after its free failures like any other.
		for i := range accounts.PairFreeFailures {
			do(h, "GET", "/studio/enquiries.csv", nil, basic(strconv.Itoa(i)+"\x00", "guess"), from("198.51.100.11:1"))
		}
		if w := do(h, "GET", "/studio/enquiries.csv", nil, basic("\x00", "guess"), from("198.51.100.11:1")); w.Code != http.StatusTooManyRequests {
			t.Errorf("one more with a NUL, from where they used up their pair's free failures: %d, want 429", w.Code)
		}
	})
}

// The inbox tells its holder of the failed tries at their account, and
// not of their own typing mistakes made good, nor of another's account.
func TestInboxShowsFailedSignIns(t *testing.T) {
	onBoth(t, func(t *testing.T, h *Handler, _ *store.Store) {
		// 08:32 UTC is 14:02 in Kolkata.
		wait := clock(h, time.Date(2026, 3, 2, 8, 30, 0, 0, time.UTC))
		for range 2 {
			do(h, "POST", "/studio/sign-in", signInForm(ravi, "a guess"), from("192.0.2.5:1"))
		}
		wait(2 * time.Minute)
		do(h, "POST", "/studio/sign-in", signInForm(ravi, "a guess"), from("192.0.2.7:1"))
		do(h, "POST", "/studio/sign-in", signInForm(asha, "a typo")) // from Asha's own address
		wait(time.Hour)

		body := html.UnescapeString(do(h, "GET", "/studio", nil, withCookie(signIn(t, h, ravi, raviPassword))).Body.String())
		if want := "3 failed sign-in attempts for your account in the last 7 days, the latest on 2 Mar 2026, 14:02 IST from 192.0.2.7."; !strings.Contains(body, want) {
			t.Errorf("Ravi's inbox lacks %q", want)
		}
		body = do(h, "GET", "/studio", nil, withCookie(signIn(t, h, asha, ashaPassword))).Body.String()
		if strings.Contains(body, "failed sign-in") {
			t.Error("Asha's inbox shows failures: her own typo, cleared by her sign-in from there, or Ravi's")
		}
		wait(accounts.FailuresShown)
		if body := do(h, "GET", "/studio", nil, withCookie(signIn(t, h, ravi, raviPassword))).Body.String(); strings.Contains(body, "failed sign-in") {
			t.Error("failures older than a week are still shown")
		}
	})
}

// sessionsDown is a store whose sessions cannot be read, as when the
// database stops answering.
type sessionsDown struct{ *store.Store }

func (sessionsDown) SessionBySecret(context.Context, string) (store.Session, error) {
	return store.Session{}, context.DeadlineExceeded
}

// A signed-in person whose session cannot be read is told the database did
// not answer (503, Retry-After), not sent to sign in again, and a script
// gets a 503 it can retry.
func TestSessionUnreadableIs503(t *testing.T) {
	h, st := setup(t)
	c := signIn(t, h, asha, ashaPassword)
	down := New(sessionsDown{st}, h.log, h.opts)
	for _, target := range []string{"/studio", "/studio/insights", "/studio/enquiries.csv"} {
		w := do(down, "GET", target, nil, withCookie(c))
		if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
			t.Errorf("%s with the sessions unreadable = %d (Retry-After %q), want 503 with Retry-After", target, w.Code, w.Header().Get("Retry-After"))
		}
		if strings.Contains(w.Body.String(), `name="password"`) {
			t.Errorf("%s shows the sign-in form to a signed-in person", target)
		}
	}
}

// An owner's sign-in keeps the address it came to, where the mails' links
// lead when the server is told no address of its own; a staff account's
// sign-in, and a Host that is not a host name, change nothing.
func TestOwnerSignInKeepsTheAddress(t *testing.T) {
	onBoth(t, func(t *testing.T, h *Handler, st *store.Store) {
		ctx := context.Background()
		host := func(name string) func(*http.Request) { return func(r *http.Request) { r.Host = name } }
		kept := func() string {
			t.Helper()
			base, err := st.SignInAddress(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return base
		}
		if got := kept(); got != "" {
			t.Fatalf("before any sign-in: %q", got)
		}
		signIn(t, h, asha, ashaPassword, host("trial.studio.test:8080"))
		if got := kept(); got != "http://trial.studio.test:8080" {
			t.Errorf("after an owner's sign-in over HTTP: %q", got)
		}
		signIn(t, h, asha, ashaPassword, host("www.studio.test"), overTLS)
		if got := kept(); got != "https://www.studio.test" {
			t.Errorf("after an owner's sign-in over HTTPS: %q", got)
		}
		hash, err := accounts.HashPassword("a staff password")
		if err != nil {
			t.Fatal(err)
		}
		if err := st.CreateAccountAs(ctx, "meera@studio.example", hash, store.RoleStaff, time.Now()); err != nil {
			t.Fatal(err)
		}
		signIn(t, h, "meera@studio.example", "a staff password", host("elsewhere.example"))
		signIn(t, h, asha, ashaPassword, host("www.studio.test/evil?x=1"))
		if got := kept(); got != "https://www.studio.test" {
			t.Errorf("after a staff sign-in and a Host with a path: %q, want the owner's last", got)
		}
	})
}
