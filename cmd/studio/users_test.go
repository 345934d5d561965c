package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"studio/internal/store"
	"studio/internal/store/storetest"
)

// docs/workspace.md's account commands, run beside a running server: the inbox
// turns on with the first account, a token opens the CSV until revoked, a
// new password ends the sessions, and STUDIO_PASSWORD still signs in as
// "studio".
func TestAccountCommands(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	port := freePort(t)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	env := append(os.Environ(), fmt.Sprintf("PORT=%d", port), "DATA_DIR="+dataDir, "DATABASE_URL=", "STUDIO_PASSWORD=", "SMTP_HOST=")
	server := launch(t, base, env)
	t.Cleanup(func() {
		if server.ProcessState == nil {
			server.Process.Kill()
			server.Wait()
		}
	})
	studio := func(stdin string, args ...string) (string, error) {
		cmd := exec.Command(binary, args...)
		cmd.Env = append(os.Environ(), "DATA_DIR="+dataDir, "DATABASE_URL=")
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	noRedirects := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path string, edit func(*http.Request)) *http.Response {
		t.Helper()
		r, _ := http.NewRequest("GET", base+path, nil)
		if edit != nil {
			edit(r)
		}
		resp, err := noRedirects.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	signIn := func(email, password string) *http.Response {
		t.Helper()
		resp, err := noRedirects.PostForm(base+"/studio/sign-in", url.Values{"email": {email}, "password": {password}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}

	if resp := get("/studio", nil); resp.StatusCode != 404 {
		t.Fatalf("with no account /studio = %d, want 404", resp.StatusCode)
	}
	if out, err := studio("too short\n", "user", "add", "asha@studio.example"); err == nil || !strings.Contains(out, "at least 12") {
		t.Errorf("a short password: %v %s", err, out)
	}
	if out, err := studio("", "user", "add", "not-an-address"); err == nil || !strings.Contains(out, "is not an e-mail address") {
		t.Errorf("a bad e-mail: %v %s", err, out)
	}
	if out, _ := studio("", "user", "list"); !strings.Contains(out, "no accounts") {
		t.Errorf("a refused add added an account: %s", out)
	}
	if out, err := studio("asha's long password\n", "user", "add", "Asha@Studio.example"); err != nil {
		t.Fatalf("user add: %v %s", err, out)
	}
	if out, err := studio("another long password\n", "user", "add", "asha@studio.example"); err == nil || !strings.Contains(out, "has an account already") {
		t.Errorf("the same account twice: %v %s", err, out)
	}
	if resp := get("/studio", nil); resp.StatusCode != 200 {
		t.Fatalf("with an account /studio = %d, want 200 (without a restart)", resp.StatusCode)
	}
	resp := signIn("asha@studio.example", "asha's long password")
	if resp.StatusCode != http.StatusSeeOther || len(resp.Cookies()) != 1 {
		t.Fatalf("sign in: %d", resp.StatusCode)
	}
	session := resp.Cookies()[0]
	withSession := func(r *http.Request) { r.AddCookie(session) }
	if resp := get("/studio/enquiries.csv", withSession); resp.StatusCode != 200 {
		t.Errorf("the session's CSV: %d", resp.StatusCode)
	}

	// Wrong passwords slow the next try from here; `user unlock` forgets them.
	for i := 0; ; i++ {
		resp := signIn("asha@studio.example", "a wrong password")
		if resp.StatusCode == http.StatusTooManyRequests {
			break
		}
		if resp.StatusCode != http.StatusUnauthorized || i > 10 {
			t.Fatalf("wrong password #%d: %d, want 401 until the tries are slowed, then 429", i+1, resp.StatusCode)
		}
	}
	if resp := signIn("asha@studio.example", "asha's long password"); resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("the right password right after: %d, want 429 with Retry-After (else unlock is not tested)", resp.StatusCode)
	}
	if out, err := studio("", "user", "unlock", "nobody@studio.example"); err == nil || !strings.Contains(out, "no account has the e-mail nobody@studio.example") {
		t.Errorf("unlocking no one: %v %s", err, out)
	}
	if out, err := studio("", "user", "unlock", "Asha@Studio.example"); err != nil || !strings.Contains(out, "forgot 5 failed sign-ins of asha@studio.example") {
		t.Fatalf("user unlock: %v %s", err, out)
	}
	if resp := signIn("asha@studio.example", "asha's long password"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("the right password after user unlock: %d, want 303", resp.StatusCode)
	}

	// The token alone is on standard output, for scripts to capture.
	cmd := exec.Command(binary, "token", "create", "asha@studio.example")
	cmd.Env = append(os.Environ(), "DATA_DIR="+dataDir, "DATABASE_URL=")
	token, err := cmd.Output()
	if err != nil {
		t.Fatalf("token create: %v", err)
	}
	bearer := func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(token))) }
	if resp := get("/studio/enquiries.csv", bearer); resp.StatusCode != 200 {
		t.Errorf("CSV with the token: %d", resp.StatusCode)
	}
	list, _ := studio("", "token", "list")
	id, _, _ := strings.Cut(strings.TrimSpace(list[strings.LastIndex(strings.TrimSpace(list), "\n")+1:]), "\t")
	if !strings.Contains(list, "asha@studio.example") || !strings.Contains(list, "last used") {
		t.Errorf("token list = %q", list)
	}
	if out, err := studio("", "token", "revoke", id); err != nil {
		t.Fatalf("token revoke %s: %v %s", id, err, out)
	}
	if resp := get("/studio/enquiries.csv", bearer); resp.StatusCode != 401 {
		t.Errorf("CSV with a revoked token: %d, want 401", resp.StatusCode)
	}

	if out, err := studio("a new long password\n", "user", "password", "asha@studio.example"); err != nil {
		t.Fatalf("user password: %v %s", err, out)
	}
	if resp := get("/studio/enquiries.csv", withSession); resp.StatusCode != 401 {
		t.Errorf("a session from before the new password: %d, want 401", resp.StatusCode)
	}
	if resp := signIn("asha@studio.example", "a new long password"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("sign in with the new password: %d", resp.StatusCode)
	}
	if out, err := studio("", "user", "remove", "nobody@studio.example"); err == nil || !strings.Contains(out, "no account has the e-mail nobody@studio.example") {
		t.Errorf("removing no one: %v %s", err, out)
	}
	// The only owner is not removed while staff remain: they could manage no accounts.
	if out, err := studio("staff's long password\n", "user", "add", "--staff", "ravi@studio.example"); err != nil {
		t.Fatalf("user add --staff: %v %s", err, out)
	}
	if out, err := studio("", "user", "remove", "asha@studio.example"); err == nil || !strings.Contains(out, "asha@studio.example is the only owner") {
		t.Errorf("removing the only owner while staff remain: %v %s", err, out)
	}
	if out, err := studio("", "user", "remove", "ravi@studio.example"); err != nil {
		t.Fatalf("user remove (staff): %v %s", err, out)
	}
	if out, err := studio("", "user", "remove", "asha@studio.example"); err != nil {
		t.Fatalf("user remove: %v %s", err, out)
	}
	if resp := get("/studio", nil); resp.StatusCode != 404 {
		t.Errorf("with the last account removed /studio = %d, want 404", resp.StatusCode)
	}

	// STUDIO_PASSWORD makes (or updates) the account "studio".
	server.Process.Signal(syscall.SIGTERM)
	server.Wait()
	server = launch(t, base, append(env, "STUDIO_PASSWORD=the studio's old password"))
	if resp := signIn("studio", "the studio's old password"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("sign in as studio with STUDIO_PASSWORD: %d", resp.StatusCode)
	}
}

// `studio user unlock` forgets an account's failed sign-ins from every
// address, and no one else's, on either database.
func TestUserUnlock(t *testing.T) {
	rule := store.SignInRule{Pair: store.Backoff{Free: 100}, Address: store.Backoff{Free: 100}, Window: time.Hour, Keep: time.Hour}
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			t.Setenv("DATA_DIR", t.TempDir())
			t.Setenv("DATABASE_URL", "")
			if db == "postgres" {
				t.Setenv("DATABASE_URL", storetest.PostgresURL(t))
			}
			ctx := context.Background()
			st, err := store.Open(ctx, os.Getenv("DATABASE_URL"), os.Getenv("DATA_DIR"))
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			now := time.Now()
			for _, email := range []string{"asha@studio.example", "ravi@studio.example"} {
				if err := st.CreateAccount(ctx, email, "a hash", now); err != nil {
					t.Fatal(err)
				}
			}
			for i := range 6 {
				for _, email := range []string{"asha@studio.example", "ravi@studio.example"} {
					if _, err := st.ReserveSignIn(ctx, email, fmt.Sprintf("192.0.2.%d", i%3), now, rule); err != nil {
						t.Fatal(err)
					}
				}
			}
			var out strings.Builder
			if err := userCommand([]string{"unlock", "Asha@Studio.example"}, nil, &out); err != nil || !strings.Contains(out.String(), "forgot 6 failed sign-ins of asha@studio.example") {
				t.Fatalf("user unlock: %v %s", err, out.String())
			}
			for email, want := range map[string]int{"asha@studio.example": 0, "ravi@studio.example": 6} {
				if f, err := st.FailedSignInsSince(ctx, email, now.Add(-time.Hour)); f.Count != want || err != nil {
					t.Errorf("%s after unlocking Asha: %d failures (%v), want %d", email, f.Count, err, want)
				}
			}
		})
	}
}

// `user add --staff` makes a staff account (never the first); `user list`
// says each account's role.
func TestUserAddStaff(t *testing.T) {
	t.Setenv("DATA_DIR", t.TempDir())
	t.Setenv("DATABASE_URL", "")
	run := func(input string, args ...string) (string, error) {
		var out strings.Builder
		err := userCommand(args, strings.NewReader(input), &out)
		if err != nil {
			out.WriteString(err.Error())
		}
		return out.String(), err
	}
	if out, err := run("a staff member's password\n", "add", "--staff", "meera@studio.example"); err == nil || !strings.Contains(out, "first account must be an owner") {
		t.Fatalf("staff first: %v %s", err, out)
	}
	if out, err := run("asha's long password\n", "add", "asha@studio.example"); err != nil || !strings.Contains(out, "as owner") {
		t.Fatalf("user add: %v %s", err, out)
	}
	if out, err := run("a staff member's password\n", "add", "--staff", "meera@studio.example"); err != nil || !strings.Contains(out, "as staff") {
		t.Fatalf("user add --staff: %v %s", err, out)
	}
	out, _ := run("", "list")
	if !strings.Contains(out, "asha@studio.example\towner\t") || !strings.Contains(out, "meera@studio.example\tstaff\t") {
		t.Errorf("user list = %q, want each account's role", out)
	}
}
