package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"studio/internal/enquiry"
)

// startForm asks h for a form's start token, as the site does when the
// visitor begins typing.
func startForm(t *testing.T, h http.Handler) string {
	t.Helper()
	w := post(h, "/api/form-start", "")
	var got struct{ Started string }
	if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &got) != nil || got.Started == "" {
		t.Fatalf("form-start: %d %s", w.Code, w.Body)
	}
	return got.Started
}

func TestFormStart(t *testing.T) {
	now := time.Date(2026, 5, 6, 7, 8, 9, 10_000_000, time.UTC)
	h, _ := newAPI(t, WithClock(func() time.Time { return now }))
	w := post(h, "/api/form-start", "", func(r *http.Request) {
		r.Header.Del("Content-Type")
		r.Header.Set("Sec-Fetch-Site", "same-origin")
	})
	if w.Code != 200 || w.Header().Get("Cache-Control") != "no-store" || w.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("status %d, headers %v", w.Code, w.Header())
	}
	var body map[string]string
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || len(body) != 1 ||
		!regexp.MustCompile(`^1778051289010\.[A-Za-z0-9_-]{43}$`).MatchString(body["started"]) {
		t.Errorf("body %s, want {\"started\": \"<unix ms>.<base64url HMAC-SHA256>\"}", w.Body)
	}
	if w := post(h, "/api/form-start", "", func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") }); w.Code != 403 {
		t.Errorf("cross-site: %d, want 403", w.Code)
	}
	if w := do(h, "GET", "/api/form-start", nil); w.Code != 405 || w.Header().Get("Allow") != "POST" {
		t.Errorf("GET: %d, want 405 with Allow: POST", w.Code)
	}
}

// The spam timer is the server's own signed time, not the client's fillMs.
func TestFormTimerDecidesSpam(t *testing.T) {
	t0 := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	key := bytes.Repeat([]byte{7}, 32)
	forged := enquiry.NewFormTimer(bytes.Repeat([]byte{8}, 32)).Start(t0)
	body := func(extra string) string {
		return `{"kind":"contact","name":"A","email":"a@b.in","message":"m"` + extra + `}`
	}
	tests := []struct {
		name  string
		after time.Duration // from the form's start to the enquiry
		body  func(token string) string
		spam  bool
	}{
		{"sent after 5 s", 5 * time.Second, func(tok string) string { return body(`,"started":"` + tok + `"`) }, false},
		{"sent after 1 s", time.Second, func(tok string) string { return body(`,"started":"` + tok + `"`) }, true},
		{"sent after 1 s, claiming fillMs 5000", time.Second, func(tok string) string { return body(`,"started":"` + tok + `","fillMs":5000`) }, true},
		{"a token not ours", time.Minute, func(string) string { return body(`,"started":"` + forged + `"`) }, true},
		{"a malformed token", time.Minute, func(string) string { return body(`,"started":"yesterday"`) }, true},
		{"a token over a day old", 25 * time.Hour, func(tok string) string { return body(`,"started":"` + tok + `"`) }, false},
		{"no token (no JavaScript), fillMs claims 300 ms", 0, func(string) string { return body(`,"fillMs":300`) }, false},
		{"no token and no fillMs", 0, func(string) string { return body(``) }, false},
		{"the honeypot with a good token", time.Minute, func(tok string) string { return body(`,"started":"` + tok + `","website":"x"`) }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := t0
			woken := 0
			h, st := newAPI(t, WithClock(func() time.Time { return now }), WithFormKey(key), WithMail(func() { woken++ }))
			token := startForm(t, h)
			now = now.Add(tt.after)
			w := post(h, "/api/enquiries", tt.body(token))
			if w.Code != 201 {
				t.Fatalf("status %d %s, want 201 (spam is answered like the rest)", w.Code, w.Body)
			}
			if got := storedCount(t, st, true) == 1; got != tt.spam || storedCount(t, st, false)+storedCount(t, st, true) != 1 {
				t.Errorf("stored as spam: %v, want %v", got, tt.spam)
			}
			if f, _ := st.MailFigures(context.Background()); (f.Pending == 0) != tt.spam {
				t.Errorf("%d mails queued (spam %v)", f.Pending, tt.spam)
			}
		})
	}
}

// Every copy of the server with the key store.Key gives takes the others'
// tokens.
func TestFormTokenFromAnotherCopyOfTheServer(t *testing.T) {
	now := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	clock := WithClock(func() time.Time { return now })
	key := bytes.Repeat([]byte{9}, 32)
	first, _ := newAPI(t, clock, WithFormKey(key))
	second, st := newAPI(t, clock, WithFormKey(key))
	stranger, st3 := newAPI(t, clock) // a key of its own
	token := startForm(t, first)
	now = now.Add(10 * time.Second)
	body := `{"kind":"contact","name":"A","email":"a@b.in","message":"m","started":"` + token + `"}`
	if w := post(second, "/api/enquiries", body); w.Code != 201 || storedCount(t, st, false) != 1 {
		t.Errorf("the second copy: %d %s, %d not spam; want the enquiry taken", w.Code, w.Body, storedCount(t, st, false))
	}
	if w := post(stranger, "/api/enquiries", body); w.Code != 201 || storedCount(t, st3, true) != 1 {
		t.Errorf("a server with another key: %d, %d spam; want spam", w.Code, storedCount(t, st3, true))
	}
}

// The same body with the same idempotency key twice: the same answer, one
// enquiry, one set of mails.
func TestIdempotentRetryAnswersTheSame(t *testing.T) {
	woken := 0
	h, st := newAPI(t, WithMail(func() { woken++ }))
	body := `{"kind":"quote","name":"A","email":"a@b.in","productId":1,"message":"Two chairs","idempotencyKey":"3b241101-e2bb-4255-8caf-4136c566a962"}`
	first := post(h, "/api/enquiries", body)
	again := post(h, "/api/enquiries", body)
	if first.Code != 201 || again.Code != 201 || first.Body.String() != again.Body.String() || !strings.HasPrefix(first.Body.String(), `{"id":`) {
		t.Fatalf("answers %d %s and %d %s, want the same 201 {id}", first.Code, first.Body, again.Code, again.Body)
	}
	if n := storedCount(t, st, false); n != 1 {
		t.Errorf("%d enquiries stored, want 1", n)
	}
	if f, _ := st.MailFigures(context.Background()); f.Pending != 2 {
		t.Errorf("%d mails queued, want the first's two", f.Pending)
	}
	// Another key is another enquiry.
	other := post(h, "/api/enquiries", strings.Replace(body, "3b241101", "4c352212", 1))
	if other.Code != 201 || other.Body.String() == first.Body.String() || storedCount(t, st, false) != 2 {
		t.Errorf("another key: %d %s", other.Code, other.Body)
	}
}

func TestIdempotencyKeyMustBeWellFormed(t *testing.T) {
	h, st := newAPI(t)
	for _, key := range []string{"short", strings.Repeat("k", 65), "has spaces in it, sixteen+", "ключ-ключ-ключ-ключ"} {
		w := post(h, "/api/enquiries", `{"kind":"contact","name":"A","email":"a@b.in","message":"m","idempotencyKey":"`+key+`"}`)
		var body errorBody
		json.Unmarshal(w.Body.Bytes(), &body)
		if w.Code != 422 || body.Fields["idempotencyKey"] == "" || len(body.Fields) != 1 {
			t.Errorf("key %q: %d %s, want 422 naming idempotencyKey", key, w.Code, w.Body)
		}
	}
	if n := storedCount(t, st, false) + storedCount(t, st, true); n != 0 {
		t.Errorf("%d stored", n)
	}
}

func TestFormStartWithoutAStore(t *testing.T) {
	s, err := New(discardLog(), testBuild(), testCatalogue(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	if w := post(s.Handler(), "/api/form-start", ""); w.Code != 200 {
		t.Errorf("status %d: the token needs no database", w.Code)
	}
}
