package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store"
	"studio/internal/store/testdb"
)

// newAPI is the whole handler with a fresh SQLite store.
func newAPI(t *testing.T, options ...Option) (http.Handler, *store.Store) {
	t.Helper()
	st := testdb.SQLite(t)
	s, err := New(discardLog(), testBuild(), testCatalogue(t, 1, 2), append([]Option{WithStore(st)}, options...)...)
	if err != nil {
		t.Fatal(err)
	}
	return s.Handler(), st
}

const goodContact = `{"kind":"contact","name":"Asha","email":"asha@example.com","message":"Hello","fillMs":5000}`

func post(h http.Handler, path, body string, edit ...func(*http.Request)) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.RemoteAddr = "203.0.113.7:5555"
	for _, e := range edit {
		e(r)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func storedCount(t *testing.T, st *store.Store, spam bool) int {
	t.Helper()
	list, err := st.Enquiries(context.Background(), store.EnquiryFilter{Spam: spam})
	if err != nil {
		t.Fatal(err)
	}
	return len(list)
}

func TestCreateEnquiry(t *testing.T) {
	header := func(k, v string) func(*http.Request) { return func(r *http.Request) { r.Header.Set(k, v) } }
	tests := []struct {
		name       string
		body       string
		edit       []func(*http.Request)
		wantStatus int
		wantFields []string // keys of "fields" in the error body
		wantError  string   // part of "error"
	}{
		{name: "contact", body: goodContact, wantStatus: 201},
		{name: "quote with product, material and finish", body: `{"kind":"quote","name":"A","email":"a@b.in","productId":1,"material":"Wood","finish":"Walnut","fillMs":4000}`, wantStatus: 201},
		{name: "customize without product", body: `{"kind":"customize","name":"A","email":"a@b.in","message":"A table","fillMs":4000}`, wantStatus: 201},
		{name: "charset in content type", body: goodContact, edit: []func(*http.Request){header("Content-Type", "application/json; charset=utf-8")}, wantStatus: 201},
		{name: "same-origin browser request", body: goodContact, edit: []func(*http.Request){header("Sec-Fetch-Site", "same-origin")}, wantStatus: 201},
		{name: "every problem at once", body: `{"kind":"contact","name":"","email":"nope","message":"","phone":"call me"}`, wantStatus: 422, wantFields: []string{"name", "email", "message", "phone"}},
		{name: "unknown product", body: `{"kind":"quote","name":"A","email":"a@b.in","productId":99}`, wantStatus: 422, wantFields: []string{"productId"}},
		{name: "material not the product's", body: `{"kind":"quote","name":"A","email":"a@b.in","productId":1,"material":"Stone","finish":"Oak"}`, wantStatus: 422, wantFields: []string{"material", "finish"}},
		{name: "a field in another case", body: `{"kind":"contact","Name":"A","email":"a@b.in","message":"m","fillMs":5000}`, wantStatus: 400, wantFields: []string{"Name"}},
		{name: "a field given twice", body: `{"kind":"contact","name":"A","email":"a@b.in","message":"m","name":"B","fillMs":5000}`, wantStatus: 400, wantFields: []string{"name"}},
		{name: "unknown field", body: `{"kind":"contact","name":"A","email":"a@b.in","message":"m","admin":true}`, wantStatus: 400, wantFields: []string{"admin"}},
		{name: "wrong type", body: `{"kind":"quote","name":"A","email":"a@b.in","productId":"one"}`, wantStatus: 400, wantFields: []string{"productId"}},
		{name: "malformed JSON", body: `{"kind":`, wantStatus: 400, wantError: "not valid JSON"},
		{name: "two JSON values", body: goodContact + goodContact, wantStatus: 400},
		{name: "no content type", body: goodContact, edit: []func(*http.Request){header("Content-Type", "")}, wantStatus: 415},
		{name: "text", body: "name=A", edit: []func(*http.Request){header("Content-Type", "text/plain")}, wantStatus: 415},
		{name: "body over 64 KiB", body: `{"kind":"contact","name":"A","email":"a@b.in","message":"` + strings.Repeat("x", 70<<10) + `"}`, wantStatus: 413},
		{name: "cross-site browser request", body: goodContact, edit: []func(*http.Request){header("Sec-Fetch-Site", "cross-site")}, wantStatus: 403},
		{name: "foreign Origin", body: goodContact, edit: []func(*http.Request){header("Origin", "https://evil.example")}, wantStatus: 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, st := newAPI(t)
			w := post(h, "/api/enquiries", tt.body, tt.edit...)
			if w.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d; body %s", w.Code, tt.wantStatus, w.Body)
			}
			if ct := w.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type = %q", ct)
			}
			stored := storedCount(t, st, false)
			if tt.wantStatus == 201 {
				var got struct{ ID int64 }
				if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || got.ID <= 0 {
					t.Errorf("body = %s, want {id}", w.Body)
				}
				if stored != 1 {
					t.Errorf("stored %d enquiries, want 1", stored)
				}
				return
			}
			if stored != 0 {
				t.Errorf("a refused request stored %d enquiries", stored)
			}
			var body errorBody
			if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Error == "" {
				t.Fatalf("error body = %s, want {error, fields}", w.Body)
			}
			if !strings.Contains(body.Error, tt.wantError) {
				t.Errorf("error = %q, want it to contain %q", body.Error, tt.wantError)
			}
			if len(body.Fields) != len(tt.wantFields) {
				t.Errorf("fields = %v, want %v", body.Fields, tt.wantFields)
			}
			for _, f := range tt.wantFields {
				if body.Fields[f] == "" {
					t.Errorf("fields[%q] missing in %v", f, body.Fields)
				}
			}
		})
	}
}

func TestSpamAnswersLikeSuccessButIsFlagged(t *testing.T) {
	tests := []struct{ name, body string }{
		{"honeypot", `{"kind":"contact","name":"A","email":"a@b.in","message":"m","website":"http://x.test","fillMs":9000}`},
		// The timer's cases are in exactlyonce_test.go (TestFormTimerDecidesSpam).
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			woken := 0
			h, st := newAPI(t, WithMail(func() { woken++ }))
			w := post(h, "/api/enquiries", tt.body)
			if w.Code != 201 || !strings.Contains(w.Body.String(), `"id"`) {
				t.Fatalf("status %d %s, want 201 with an id", w.Code, w.Body)
			}
			if storedCount(t, st, false) != 0 || storedCount(t, st, true) != 1 {
				t.Error("spam not stored flagged")
			}
			if f, _ := st.MailFigures(context.Background()); f.Pending != 0 || woken != 0 {
				t.Errorf("spam queued %d mails", f.Pending)
			}
		})
	}
}

// The form without JavaScript judges spam alike: a filled honeypot is
// thanked, stored as spam, and nobody is mailed, least of all the address
// the robot typed.
func TestSpamFormGetsNoAcknowledgement(t *testing.T) {
	woken := 0
	h, st := newAPI(t, WithMail(func() { woken++ }))
	form := url.Values{"kind": {"contact"}, "page": {"/contact-us"}, "name": {"A"}, "email": {"stranger@example.com"}, "message": {"m"}, "website": {"http://x.test"}}
	if w := postForm(h, "/api/enquiries", form); w.Code != http.StatusSeeOther || w.Header().Get("Location") != thanksPath {
		t.Fatalf("%d → %q, want 303 to %s", w.Code, w.Header().Get("Location"), thanksPath)
	}
	if storedCount(t, st, true) != 1 {
		t.Error("spam not stored flagged")
	}
	if f, _ := st.MailFigures(context.Background()); f.Pending != 0 || woken != 0 {
		t.Errorf("spam queued %d mails", f.Pending)
	}
}

func TestEnquiryQueuesMail(t *testing.T) {
	woken := 0
	h, st := newAPI(t, WithMail(func() { woken++ }))
	if w := post(h, "/api/enquiries", goodContact); w.Code != 201 {
		t.Fatal(w.Code)
	}
	// The studio's copy and the visitor's acknowledgement, one wake for both.
	if f, _ := st.MailFigures(context.Background()); f.Pending != 2 || woken != 1 {
		t.Errorf("f.Pending = %d, woken = %d; want 2, 1", f.Pending, woken)
	}
}

// Past store.AcknowledgementsPerDay to one address, an enquiry is still
// taken and stored, and the studio's copy queued: the visitor is told it
// was received (201; without JavaScript, the thank-you page), and only
// the acknowledgement stays unsent.
func TestEnquiryPastTheAcknowledgementLimitIsReceived(t *testing.T) {
	h, st := newAPI(t, WithMail(func() {}))
	for i := range store.AcknowledgementsPerDay {
		if w := post(h, "/api/enquiries", goodContact); w.Code != 201 || !strings.Contains(w.Body.String(), `"id"`) {
			t.Fatalf("enquiry %d: %d %s", i+1, w.Code, w.Body)
		}
	}
	form := url.Values{"kind": {"contact"}, "page": {"/contact-us"}, "name": {"Asha"}, "email": {"Asha@Example.com"}, "message": {"Hello again"}}
	if w := postForm(h, "/api/enquiries", form); w.Code != http.StatusSeeOther || w.Header().Get("Location") != thanksPath {
		t.Fatalf("the next, without JavaScript: %d → %q, want 303 to %s", w.Code, w.Header().Get("Location"), thanksPath)
	}
	if n := storedCount(t, st, false); n != store.AcknowledgementsPerDay+1 {
		t.Errorf("%d enquiries stored, want %d", n, store.AcknowledgementsPerDay+1)
	}
	if f, _ := st.MailFigures(context.Background()); f.Pending != 2*store.AcknowledgementsPerDay+1 {
		t.Errorf("%d mails queued, want %d studio's copies and %d acknowledgements", f.Pending, store.AcknowledgementsPerDay+1, store.AcknowledgementsPerDay)
	}
}

func TestRateLimit(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	h, st := newAPI(t, WithClock(func() time.Time { return now }), WithTrustedProxies([]netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}))
	from := func(remote, xff string) func(*http.Request) {
		return func(r *http.Request) {
			r.RemoteAddr = remote
			if xff != "" {
				r.Header.Set("X-Forwarded-For", xff)
			}
		}
	}
	for i := 0; i < enquiriesPerWindow; i++ {
		if w := post(h, "/api/enquiries", goodContact, from("198.51.100.1:1000", "")); w.Code != 201 {
			t.Fatalf("enquiry %d: %d", i+1, w.Code)
		}
		now = now.Add(time.Second)
	}
	w := post(h, "/api/enquiries", goodContact, from("198.51.100.1:1001", ""))
	if w.Code != 429 {
		t.Fatalf("11th enquiry: %d, want 429", w.Code)
	}
	retry, _ := strconv.Atoi(w.Header().Get("Retry-After"))
	if want := int((limitWindow - 10*time.Second) / time.Second); retry != want {
		t.Errorf("Retry-After = %q, want %d", w.Header().Get("Retry-After"), want)
	}
	// An untrusted client cannot escape by naming another address.
	if w := post(h, "/api/enquiries", goodContact, from("198.51.100.1:1002", "192.0.2.99")); w.Code != 429 {
		t.Errorf("X-Forwarded-For from an untrusted peer was believed: %d", w.Code)
	}
	// Behind a trusted proxy, each visitor has a limit of their own.
	if w := post(h, "/api/enquiries", goodContact, from("10.1.2.3:80", "198.51.100.2, 10.9.9.9")); w.Code != 201 {
		t.Errorf("another visitor through the proxy: %d, want 201", w.Code)
	}
	if w := post(h, "/api/enquiries", goodContact, from("10.1.2.3:80", "198.51.100.1")); w.Code != 429 {
		t.Errorf("the limited visitor through the proxy: %d, want 429", w.Code)
	}
	now = now.Add(limitWindow)
	if w := post(h, "/api/enquiries", goodContact, from("198.51.100.1:1003", "")); w.Code != 201 {
		t.Errorf("after the window: %d, want 201", w.Code)
	}
	if n := storedCount(t, st, false); n != enquiriesPerWindow+2 {
		t.Errorf("stored %d, want %d", n, enquiriesPerWindow+2)
	}
}

func TestClientIP(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	tests := []struct{ remote, xff, want string }{
		{"203.0.113.5:1", "", "203.0.113.5"},
		{"203.0.113.5:1", "1.2.3.4", "203.0.113.5"},
		{"10.0.0.1:1", "1.2.3.4", "1.2.3.4"},
		{"10.0.0.1:1", "6.6.6.6, 1.2.3.4, 10.0.0.2", "1.2.3.4"},
		{"10.0.0.1:1", "", "10.0.0.1"},
		{"10.0.0.1:1", "garbage, 1.2.3.4", "1.2.3.4"},
		{"[::1]:1", "2001:db8::1", "2001:db8::1"},
		{"[2001:DB8:0::5]:1", "", "2001:db8::5"},
		{"[::ffff:203.0.113.5]:1", "", "203.0.113.5"},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tt.remote
		if tt.xff != "" {
			r.Header.Set("X-Forwarded-For", tt.xff)
		}
		if got := ClientIP(r, trusted); got != tt.want {
			t.Errorf("clientIP(%s, XFF %q) = %s, want %s", tt.remote, tt.xff, got, tt.want)
		}
	}
}

func TestVisitorKey(t *testing.T) {
	for remote, want := range map[string]string{
		"203.0.113.5:1":            "203.0.113.5",
		"[2001:db8:1:2:aaaa::1]:1": "2001:db8:1:2::/64",
		"[2001:db8:1:2:bbbb::9]:1": "2001:db8:1:2::/64",
		"[::ffff:203.0.113.5]:1":   "203.0.113.5",
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = remote
		if got := VisitorKey(r, nil); got != want {
			t.Errorf("VisitorKey(%s) = %s, want %s", remote, got, want)
		}
	}
}

func TestNewsletter(t *testing.T) {
	h, st := newAPI(t)
	tests := []struct {
		body string
		want int
	}{
		{`{"email":"Asha@Example.com"}`, 201},
		{`{"email":"asha@example.com"}`, 200},
		{`{"email":"ravi@example.com"}`, 201},
		{`{"email":"nope"}`, 422},
		{`{"email":"a@b.in","name":"x"}`, 400},
		{`not json`, 400},
	}
	for _, tt := range tests {
		if w := post(h, "/api/newsletter", tt.body); w.Code != tt.want {
			t.Errorf("%s: %d, want %d (%s)", tt.body, w.Code, tt.want, w.Body)
		}
	}
	if subs, _ := st.Subscribers(context.Background()); len(subs) != 2 {
		t.Errorf("%d subscribers, want 2", len(subs))
	}
}

type failingStore struct{ calls atomic.Int32 }

func (f *failingStore) CreateEnquiry(context.Context, enquiry.Enquiry, bool) (int64, error) {
	f.calls.Add(1)
	return 0, errors.New("disk full")
}
func (f *failingStore) Subscribe(context.Context, string, bool, time.Time) (bool, error) {
	return false, errors.New("disk full")
}
func (f *failingStore) CheckWrite(context.Context, time.Time) error { return errors.New("disk full") }

func TestStoreFailure(t *testing.T) {
	s, err := New(discardLog(), testBuild(), testCatalogue(t, 1), WithStore(&failingStore{}))
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	for _, path := range []string{"/api/enquiries", "/api/newsletter"} {
		body := goodContact
		if path == "/api/newsletter" {
			body = `{"email":"a@b.in"}`
		}
		w := post(h, path, body)
		if w.Code != 503 || w.Header().Get("Retry-After") == "" || strings.Contains(w.Body.String(), "disk full") || !strings.Contains(w.Body.String(), `"error"`) {
			t.Errorf("%s: %d %s; want 503 with Retry-After and a message that hides the cause", path, w.Code, w.Body)
		}
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/readyz", nil))
	if w.Code != 503 {
		t.Errorf("readyz with the database failing = %d, want 503", w.Code)
	}
	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/healthz", nil))
	if w.Code != 200 {
		t.Errorf("healthz (liveness) with the database failing = %d, want 200: a restart does not mend a database", w.Code)
	}
}

func TestAPIWithoutStore(t *testing.T) {
	if w := post(newTestServer(t), "/api/enquiries", goodContact); w.Code != 503 {
		t.Errorf("status = %d, want 503", w.Code)
	}
}

// fakeWorkspace is a workspace that is on or off.
type fakeWorkspace struct{ on bool }

func (f fakeWorkspace) On(context.Context) (bool, error) { return f.on, nil }
func (fakeWorkspace) Previewing(*http.Request) string    { return "" }
func (fakeWorkspace) SignedIn(r *http.Request) bool {
	_, err := r.Cookie("studio")
	return err == nil
}
func (fakeWorkspace) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte("workspace " + r.URL.Path))
}

// /studio and all under it go to the workspace while it is on (an account
// exists), and are the 404 page while it is off or there is none.
func TestWorkspaceOnlyWhenOn(t *testing.T) {
	none, _ := newAPI(t)
	off, _ := newAPI(t, WithWorkspace(fakeWorkspace{on: false}))
	on, _ := newAPI(t, WithWorkspace(fakeWorkspace{on: true}))
	for _, path := range []string{"/studio", "/studio/enquiries.csv", "/studio/enquiries/1"} {
		for name, h := range map[string]http.Handler{"without a workspace": none, "with the workspace off": off} {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
			if w.Code != 404 {
				t.Errorf("%s %s = %d, want 404", name, path, w.Code)
			}
		}
		w := httptest.NewRecorder()
		on.ServeHTTP(w, httptest.NewRequest("POST", path, nil))
		if w.Code != 200 || w.Body.String() != "workspace "+path {
			t.Errorf("with the workspace on, POST %s = %d %q", path, w.Code, w.Body.String())
		}
	}
}

// Under /api/ every answer is JSON: another method on an API route is a
// 405 that names POST, a path that is no route a 404.
func TestAPIErrorsAreJSON(t *testing.T) {
	h, _ := newAPI(t)
	for _, c := range []struct {
		method, path string
		want         int
		allow        string
	}{
		{"GET", "/api/enquiries", 405, "POST"},
		{"PUT", "/api/newsletter", 405, "POST"},
		{"DELETE", "/api/enquiries", 405, "POST"},
		{"GET", "/api/nothing", 404, ""},
		{"POST", "/api/nothing", 404, ""},
	} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(c.method, c.path, nil))
		if w.Code != c.want || w.Header().Get("Content-Type") != "application/json" || w.Header().Get("Allow") != c.allow {
			t.Errorf("%s %s: %d %q Allow %q, want %d JSON Allow %q", c.method, c.path, w.Code, w.Header().Get("Content-Type"), w.Header().Get("Allow"), c.want, c.allow)
		}
	}
	// A page asked with POST is still a plain 405 naming GET.
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("POST", "/products", nil))
	if w.Code != 405 || w.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("POST /products: %d Allow %q", w.Code, w.Header().Get("Allow"))
	}
}
