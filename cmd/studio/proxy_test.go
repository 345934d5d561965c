package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// Behind a reverse proxy, as deploy/studio.service runs it: bin/studio on
// loopback (LISTEN_ADDR), this test playing the proxy from 127.0.0.1.
// With TRUSTED_PROXIES naming the proxy, X-Forwarded-Proto: https brings
// HSTS and a Secure inbox cookie, and the log names the visitor of
// X-Forwarded-For. From a proxy not named, the same headers bring neither,
// the log names the proxy, and one warning says what to set.
func TestBehindAProxy(t *testing.T) {
	t.Parallel()
	const visitor, password = "203.0.113.9", "correct horse battery staple"
	for _, tt := range []struct {
		name, trustedProxies string
		wantHTTPS            bool   // HSTS and a Secure cookie for X-Forwarded-Proto: https
		wantRemote           string // the visitor's address in the log
		wantWarnings         int
	}{
		{"trusted proxy", "127.0.0.1,::1", true, visitor, 0},
		{"proxy not in TRUSTED_PROXIES", "10.0.0.1", false, "127.0.0.1", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			port := freePort(t)
			base := fmt.Sprintf("http://127.0.0.1:%d", port)
			cmd := exec.Command(binary)
			// PORT empty (8080): the server must listen where LISTEN_ADDR says.
			cmd.Env = append(os.Environ(), "PORT=", fmt.Sprintf("LISTEN_ADDR=127.0.0.1:%d", port), "TRUSTED_PROXIES="+tt.trustedProxies,
				"DATA_DIR="+t.TempDir(), "DATABASE_URL=", "STUDIO_PASSWORD="+password, "SMTP_HOST=", "DOMAIN=")
			var logs bytes.Buffer
			cmd.Stdout = &logs
			started(t, base, cmd)
			t.Cleanup(func() {
				if cmd.ProcessState == nil {
					cmd.Process.Kill()
					cmd.Wait()
				}
			})

			client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			send := func(method, path, proto string) *http.Response {
				t.Helper()
				var body *strings.Reader
				if method == "POST" {
					body = strings.NewReader(url.Values{"email": {"studio"}, "password": {password}}.Encode())
				} else {
					body = strings.NewReader("")
				}
				req, _ := http.NewRequest(method, base+path, body)
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				req.Header.Set("X-Forwarded-For", visitor)
				req.Header.Set("X-Forwarded-Proto", proto)
				res, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				res.Body.Close()
				return res
			}
			for _, proto := range []string{"https", "http"} {
				wantHTTPS := tt.wantHTTPS && proto == "https"
				if hsts := send("GET", "/", proto).Header.Get("Strict-Transport-Security"); (hsts != "") != wantHTTPS {
					t.Errorf("X-Forwarded-Proto: %s: HSTS %q, want it sent: %v", proto, hsts, wantHTTPS)
				}
				res := send("POST", "/studio/sign-in", proto)
				cookies := res.Cookies()
				if res.StatusCode != http.StatusSeeOther || len(cookies) != 1 {
					t.Fatalf("login: %s with %d cookies, want 303 and the session cookie", res.Status, len(cookies))
				}
				if cookies[0].Secure != wantHTTPS || (cookies[0].Name == "__Host-studio") != wantHTTPS {
					t.Errorf("X-Forwarded-Proto: %s: the session cookie %s has Secure %v, want __Host- and Secure %v", proto, cookies[0].Name, cookies[0].Secure, wantHTTPS)
				}
			}
			for range 5 {
				send("GET", "/", "https")
			}

			// Stopped, the server has written out its whole log.
			cmd.Process.Signal(syscall.SIGTERM)
			if err := cmd.Wait(); err != nil {
				t.Fatalf("exit: %v", err)
			}
			requests, warnings := 0, 0
			for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
				var entry struct{ Msg, Path, Remote, Peer string }
				if err := json.Unmarshal([]byte(line), &entry); err != nil {
					t.Fatalf("log line %q: %v", line, err)
				}
				switch {
				case entry.Msg == "request" && entry.Path == "/healthz":
					// the start-up checks, sent without forwarded headers
				case entry.Msg == "request":
					requests++
					if entry.Remote != tt.wantRemote || !strings.HasPrefix(entry.Peer, "127.0.0.1:") {
						t.Errorf("%s logged remote %q peer %q, want remote %q and the proxy's address as peer", entry.Path, entry.Remote, entry.Peer, tt.wantRemote)
					}
				case strings.Contains(entry.Msg, "X-Forwarded-For from 127.0.0.1") && strings.Contains(entry.Msg, "set TRUSTED_PROXIES=127.0.0.1"):
					warnings++
				}
			}
			if requests != 9 {
				t.Errorf("%d requests logged, want the 9 sent:\n%s", requests, logs.String())
			}
			if warnings != tt.wantWarnings {
				t.Errorf("%d warnings about the untrusted proxy, want %d:\n%s", warnings, tt.wantWarnings, logs.String())
			}
		})
	}
}
