package accounts

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"studio/internal/store"
	"studio/internal/store/testdb"
	"studio/internal/workspace/page"
)

// The tests hash with argon2id's smallest cost (CheapHashing).
func init() { CheapHashing() }

// The accounts' HTTP tests, which need the rest of the workspace too (an
// owner's gate on the inbox's routes, say), are package workspace's; these
// need only the accounts.

// accountsOn are accounts on a fresh database, with Ravi's account.
func accountsOn(t *testing.T) (*Handler, *store.Store) {
	t.Helper()
	st := testdb.SQLite(t)
	hash, err := HashPassword("ravi's long password")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateAccount(context.Background(), "ravi@studio.example", hash, time.Now()); err != nil {
		t.Fatal(err)
	}
	kit := page.NewKit(page.Kit{Log: slog.New(slog.DiscardHandler), Visitor: page.Visitor{
		IP: func(r *http.Request) string { return strings.Split(r.RemoteAddr, ":")[0] }, IsHTTPS: func(*http.Request) bool { return false }}})
	return New(st, kit, nil, nil), st
}

// argonWork is one argon2id computation's cost.
type argonWork struct {
	time, memory    uint32
	threads         uint8
	saltLen, keyLen int
}

// countArgon records each argon2id computation's cost until the test ends.
func countArgon(t *testing.T) *[]argonWork {
	t.Helper()
	var done []argonWork
	var mu sync.Mutex
	real := argonKey
	argonKey = func(password, salt []byte, time, memory uint32, threads uint8, keyLen uint32) []byte {
		mu.Lock()
		done = append(done, argonWork{time, memory, threads, len(salt), int(keyLen)})
		mu.Unlock()
		return real(password, salt, time, memory, threads, keyLen)
	}
	t.Cleanup(func() { argonKey = real })
	return &done
}

// A wrong password costs the same argon2 work, one hash at the cost of a
// real account's, whoever it names: an account, one invited that has not
// set a password yet, one removed, or an address that never had one. So
// how long the answer takes tells an outsider nothing about which
// addresses have accounts or invitations.
func TestWrongPasswordsCostTheSameWhoeverTheyName(t *testing.T) {
	h, st := accountsOn(t)
	const ravi, meera, gone = "ravi@studio.example", "meera@studio.example", "gone@studio.example"
	for _, email := range []string{meera, gone} {
		if _, err := st.InviteAccount(context.Background(), email, "", store.RoleStaff, unusablePassword(), time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.RemoveAccount(context.Background(), gone); err != nil {
		t.Fatal(err)
	}
	done := countArgon(t)
	var real argonWork
	for i, email := range []string{ravi, meera, gone, "nobody@studio.example"} {
		*done = nil
		// Each from its own address, under its free failures.
		r := httptest.NewRequest("POST", "/studio/sign-in", strings.NewReader(url.Values{"email": {email}, "password": {"a wrong long password"}}.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.RemoteAddr = "192.0.2." + strconv.Itoa(i+1) + ":1"
		w := httptest.NewRecorder()
		if h.SignIn(w, r); w.Code != http.StatusUnauthorized {
			t.Fatalf("a wrong password for %s: %d, want 401", email, w.Code)
		}
		if len(*done) != 1 {
			t.Fatalf("a wrong password for %s: %d argon2 hashes, want 1", email, len(*done))
		}
		if i == 0 {
			real = (*done)[0]
		} else if (*done)[0] != real {
			t.Errorf("a wrong password for %s: hashed at %+v, a real account's at %+v", email, (*done)[0], real)
		}
	}
	if real != (argonWork{argonTime, argonMemory, argonThreads, 16, 32}) {
		t.Errorf("a real account's hash: %+v, want the cost in force", real)
	}
}

func TestWaitWords(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		wait        time.Duration
		text, retry string
	}{
		{time.Millisecond, "a second", "1"},
		{time.Second, "a second", "1"},
		{1500 * time.Millisecond, "2 seconds", "2"},
		{30 * time.Second, "30 seconds", "30"},
		{59*time.Second + time.Millisecond, "a minute", "60"},
		{time.Minute, "a minute", "60"},
		{61 * time.Second, "2 minutes", "61"},
		{15 * time.Minute, "15 minutes", "900"},
	} {
		if text, retry := WaitText(c.wait), retryAfter(c.wait); text != c.text || retry != c.retry {
			t.Errorf("%s: %q, Retry-After %s; want %q, %s", c.wait, text, retry, c.text, c.retry)
		}
	}
}

func TestPasswords(t *testing.T) {
	t.Parallel()
	hash, err := HashPassword("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(hash, "$argon2id$v=19$") || strings.Contains(hash, "correct") {
		t.Errorf("hash = %q, want argon2id in PHC form", hash)
	}
	if again, _ := HashPassword("correct horse battery"); again == hash {
		t.Error("two hashes of one password are the same: no salt")
	}
	if !PasswordMatches(hash, "correct horse battery") || PasswordMatches(hash, "correct horse batterY") || PasswordMatches("garbage", "x") {
		t.Error("PasswordMatches")
	}
	if CheckPasswordRules("elevenchars") == nil || CheckPasswordRules("twelve chars") != nil || CheckPasswordRules("नमस्ते नमस्ते ") != nil {
		t.Error("the rule is 12 characters (not bytes) at least")
	}
}

// An invitation and a reset each wake the mail worker once, when mail is
// on.
func TestMailedLinksWakeTheMailWorker(t *testing.T) {
	t.Parallel()
	h, st := accountsOn(t)
	var woken atomic.Int32
	h.wakeMail = func() { woken.Add(1) }
	owner, err := st.AccountByEmail(context.Background(), "ravi@studio.example")
	if err != nil {
		t.Fatal(err)
	}
	owner.Role = store.RoleOwner
	form := func(target string, values url.Values) *http.Request {
		r := httptest.NewRequest("POST", target, strings.NewReader(values.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		return page.WithAccount(r, owner)
	}
	w := httptest.NewRecorder()
	if h.Invite(w, form("/studio/accounts/invite", url.Values{"email": {"meera@studio.example"}, "role": {store.RoleStaff}})); w.Code != http.StatusSeeOther || woken.Load() != 1 {
		t.Fatalf("an invitation: %d, the mail worker woken %d times; want 303, once\n%s", w.Code, woken.Load(), w.Body)
	}
	h.queueReset(context.Background(), form("/studio/forgot-password", nil), "ravi@studio.example")
	if woken.Load() != 2 {
		t.Errorf("a reset woke the mail worker %d times in all, want 2", woken.Load())
	}
}
