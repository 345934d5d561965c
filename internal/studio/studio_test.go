package studio

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/base64"
	"encoding/csv"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store"
)

const password = "correct horse battery staple"

func setup(t *testing.T) (*Handler, http.Handler, *store.Store) {
	t.Helper()
	st, err := store.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "studio.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	// Which requests are over HTTPS is the server's to judge (server.IsHTTPS,
	// tested there); here, those that arrived over TLS.
	visitor := Visitor{IP: func(r *http.Request) string { return r.RemoteAddr }, IsHTTPS: func(r *http.Request) bool { return r.TLS != nil }}
	h := New(st, password, slog.New(slog.NewTextHandler(io.Discard, nil)), visitor)
	// The same patterns as internal/server/routes.go.
	mux := http.NewServeMux()
	mux.HandleFunc("GET /studio", h.Inbox)
	mux.HandleFunc("POST /studio/login", h.Login)
	mux.HandleFunc("POST /studio/logout", h.Logout)
	mux.HandleFunc("POST /studio/enquiries/{id}/handled", h.MarkHandled)
	mux.HandleFunc("GET /studio/enquiries.csv", h.EnquiriesCSV)
	mux.HandleFunc("GET /studio/newsletter.csv", h.NewsletterCSV)
	return h, mux, st
}

func add(t *testing.T, st *store.Store, e enquiry.Enquiry) int64 {
	t.Helper()
	if e.CreatedAt.IsZero() {
		e.CreatedAt = time.Now()
	}
	if e.Email == "" {
		e.Email = "asha@example.com"
	}
	id, err := st.CreateEnquiry(context.Background(), e, false)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func do(h http.Handler, method, target string, form url.Values, edit ...func(*http.Request)) *httptest.ResponseRecorder {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	r := httptest.NewRequest(method, target, body)
	r.RemoteAddr = "203.0.113.9:1234"
	if form != nil {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for _, e := range edit {
		e(r)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func login(t *testing.T, h http.Handler) *http.Cookie {
	t.Helper()
	w := do(h, "POST", "/studio/login", url.Values{"password": {password}})
	if w.Code != http.StatusSeeOther {
		t.Fatalf("login: %d %s", w.Code, w.Body)
	}
	cookies := w.Result().Cookies()
	if len(cookies) != 1 {
		t.Fatalf("login set %d cookies", len(cookies))
	}
	return cookies[0]
}

func withCookie(c *http.Cookie) func(*http.Request) { return func(r *http.Request) { r.AddCookie(c) } }

func TestLogin(t *testing.T) {
	_, h, st := setup(t)
	add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Secret visitor", Message: "private"})

	w := do(h, "GET", "/studio", nil)
	if w.Code != 200 || !strings.Contains(w.Body.String(), `type="password"`) || strings.Contains(w.Body.String(), "Secret visitor") {
		t.Fatalf("without a session: %d, want the login form and no enquiry", w.Code)
	}
	if w.Header().Get("Cache-Control") != "no-store" {
		t.Error("the inbox may be cached")
	}
	if w := do(h, "POST", "/studio/login", url.Values{"password": {"guess"}}); w.Code != http.StatusUnauthorized || len(w.Result().Cookies()) != 0 {
		t.Errorf("wrong password: %d, %d cookies", w.Code, len(w.Result().Cookies()))
	}
	if w := do(h, "POST", "/studio/login", url.Values{"password": {password}}, func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") }); w.Code != http.StatusForbidden {
		t.Errorf("cross-site login: %d, want 403", w.Code)
	}

	c := login(t, h)
	if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/studio" || c.Secure {
		t.Errorf("cookie = %+v, want HttpOnly, SameSite=Strict, Path=/studio, not Secure over plain HTTP", c)
	}
	w = do(h, "POST", "/studio/login", url.Values{"password": {password}}, func(r *http.Request) { r.TLS = &tls.ConnectionState{} })
	if tls := w.Result().Cookies()[0]; !tls.Secure {
		t.Error("cookie not Secure behind TLS")
	}
	if w := do(h, "GET", "/studio", nil, withCookie(c)); !strings.Contains(w.Body.String(), "Secret visitor") {
		t.Error("the session does not open the inbox")
	}

	tampered := *c
	tampered.Value = "9999999999." + strings.Repeat("0", 64)
	if w := do(h, "GET", "/studio", nil, withCookie(&tampered)); strings.Contains(w.Body.String(), "Secret visitor") {
		t.Error("a forged cookie opened the inbox")
	}
	w = do(h, "POST", "/studio/logout", url.Values{}, withCookie(c))
	if out := w.Result().Cookies(); w.Code != http.StatusSeeOther || len(out) != 1 || out[0].MaxAge >= 0 {
		t.Errorf("logout: %d %v", w.Code, out)
	}
}

func TestSessionExpires(t *testing.T) {
	sh, h, st := setup(t)
	add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Secret visitor"})
	c := login(t, h)
	sh.now = func() time.Time { return time.Now().Add(sessionLength + time.Minute) }
	if w := do(h, "GET", "/studio", nil, withCookie(c)); strings.Contains(w.Body.String(), "Secret visitor") {
		t.Error("an expired session opened the inbox")
	}
}

func TestLoginIsRateLimited(t *testing.T) {
	_, h, _ := setup(t)
	for i := 0; i < loginsAllowed; i++ {
		do(h, "POST", "/studio/login", url.Values{"password": {"guess"}})
	}
	w := do(h, "POST", "/studio/login", url.Values{"password": {password}})
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "" || len(w.Result().Cookies()) != 0 {
		t.Errorf("attempt %d: %d, want 429 with Retry-After even with the right password", loginsAllowed+1, w.Code)
	}
	basic := func(r *http.Request) { r.SetBasicAuth("studio", password) }
	if w := do(h, "GET", "/studio/enquiries.csv", nil, basic); w.Code != http.StatusTooManyRequests {
		t.Errorf("basic auth after the limit: %d, want 429", w.Code)
	}
}

func TestInbox(t *testing.T) {
	_, h, st := setup(t)
	add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "First", Message: "Hello"})
	add(t, st, enquiry.Enquiry{Kind: enquiry.Quote, Name: "Second", ProductID: 1, ProductName: "Marwar chair", Material: "Wood", Finish: "Light Oak", Phone: "+91 1234"})
	add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: `<script>alert("x")</script>`, Message: "<b>bold</b>"})
	add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Robot", Spam: true})
	c := login(t, h)

	body := do(h, "GET", "/studio", nil, withCookie(c)).Body.String()
	first, second, third := strings.Index(body, "First"), strings.Index(body, "Second"), strings.Index(body, "alert")
	if !(third < second && second < first) || third < 0 {
		t.Errorf("not newest first: positions %d %d %d", third, second, first)
	}
	for _, want := range []string{"Marwar chair", "Wood", "Light Oak", "+91 1234", "asha@example.com", `<script>alert("x")</script>`, "<b>bold</b>"} {
		if !strings.Contains(html.UnescapeString(body), want) {
			t.Errorf("inbox lacks %q", want)
		}
	}
	if !strings.Contains(body, `href="tel:&#43;911234"`) && !strings.Contains(body, `href="tel:+911234"`) {
		t.Error("the phone number is not a tel: link")
	}
	if strings.Contains(body, "<script>") || strings.Contains(body, "<b>bold") {
		t.Error("visitor text shown unescaped")
	}
	if strings.Contains(body, "Robot") {
		t.Error("spam in the default view")
	}
	if spam := do(h, "GET", "/studio?spam=1", nil, withCookie(c)).Body.String(); !strings.Contains(spam, "Robot") || strings.Contains(spam, "First") {
		t.Error("the spam view")
	}
	if quotes := do(h, "GET", "/studio?kind=quote", nil, withCookie(c)).Body.String(); !strings.Contains(quotes, "Second") || strings.Contains(quotes, "First") {
		t.Error("the kind filter")
	}
}

func TestMarkHandled(t *testing.T) {
	_, h, st := setup(t)
	id := add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "First"})
	target := "/studio/enquiries/" + itoa(id) + "/handled"
	form := url.Values{"return": {"/studio?kind=contact"}}
	if w := do(h, "POST", target, form); w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/studio" {
		t.Errorf("without a session: %d %s", w.Code, w.Header().Get("Location"))
	}
	c := login(t, h)
	if w := do(h, "POST", target, form, withCookie(c), func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }); w.Code != http.StatusForbidden {
		t.Errorf("cross-site: %d, want 403", w.Code)
	}
	if list, _ := st.Enquiries(context.Background(), store.EnquiryFilter{}); list[0].HandledAt != nil {
		t.Fatal("handled without a session or cross-site")
	}
	w := do(h, "POST", target, form, withCookie(c))
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/studio?kind=contact" {
		t.Errorf("mark handled: %d → %s", w.Code, w.Header().Get("Location"))
	}
	if list, _ := st.Enquiries(context.Background(), store.EnquiryFilter{}); list[0].HandledAt == nil {
		t.Error("not handled")
	}
	if w := do(h, "POST", target, url.Values{"return": {"//evil.example/"}}, withCookie(c)); w.Header().Get("Location") != "/studio" {
		t.Errorf("open redirect to %s", w.Header().Get("Location"))
	}
	if w := do(h, "POST", "/studio/enquiries/999/handled", form, withCookie(c)); w.Code != http.StatusNotFound {
		t.Errorf("unknown enquiry: %d", w.Code)
	}
}

func TestCSV(t *testing.T) {
	_, h, st := setup(t)
	add(t, st, enquiry.Enquiry{Kind: enquiry.Quote, Name: "=HYPERLINK(\"http://evil\")", Phone: "+91 1234", ProductID: 1, ProductName: "Marwar chair",
		Material: "Wood", Finish: "Walnut", Message: "line one\nline two, with \"quotes\""})
	add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Robot", Spam: true})
	st.Subscribe(context.Background(), "@attacker@example.com", time.Now())
	st.Subscribe(context.Background(), "ravi@example.com", time.Now())

	tests := []struct {
		name string
		edit func(*http.Request)
		want int
	}{
		{"no auth", func(*http.Request) {}, 401},
		{"wrong user", func(r *http.Request) { r.SetBasicAuth("admin", password) }, 401},
		{"wrong password", func(r *http.Request) { r.SetBasicAuth("studio", "guess") }, 401},
		{"basic auth", func(r *http.Request) { r.SetBasicAuth("studio", password) }, 200},
		{"session", withCookie(login(t, h)), 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, path := range []string{"/studio/enquiries.csv", "/studio/newsletter.csv"} {
				w := do(h, "GET", path, nil, tt.edit)
				if w.Code != tt.want {
					t.Fatalf("%s: %d, want %d", path, w.Code, tt.want)
				}
				if tt.want == 401 && !strings.HasPrefix(w.Header().Get("WWW-Authenticate"), "Basic ") {
					t.Errorf("401 without a Basic challenge")
				}
			}
		})
	}

	w := do(h, "GET", "/studio/enquiries.csv", nil, func(r *http.Request) { r.SetBasicAuth("studio", password) })
	if ct := w.Header().Get("Content-Type"); ct != "text/csv; charset=utf-8" || !strings.Contains(w.Header().Get("Content-Disposition"), "attachment") {
		t.Errorf("headers %q %q", ct, w.Header().Get("Content-Disposition"))
	}
	body, bom := strings.CutPrefix(w.Body.String(), "\uFEFF")
	if !bom {
		t.Error("the CSV does not start with a UTF-8 byte-order mark")
	}
	rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// Every field quoted: a ";" inside a value cannot split it in a
	// spreadsheet that separates with ";".
	for _, line := range strings.Split(strings.TrimSuffix(body, "\r\n"), "\r\n")[:1] {
		if !strings.HasPrefix(line, `"id","received"`) {
			t.Errorf("header line %q: fields not quoted", line)
		}
	}
	if len(rows) != 3 || rows[0][0] != "id" {
		t.Fatalf("rows = %v", rows)
	}
	quote := rows[2] // oldest last
	if quote[7] != "'=HYPERLINK(\"http://evil\")" || quote[9] != "'+91 1234" || quote[4] != "Marwar chair" || quote[10] != "line one\nline two, with \"quotes\"" {
		t.Errorf("quote row = %q", quote)
	}
	if rows[1][7] != "Robot" || rows[1][12] != "true" {
		t.Errorf("spam row = %q", rows[1])
	}

	w = do(h, "GET", "/studio/newsletter.csv", nil, func(r *http.Request) { r.SetBasicAuth("studio", password) })
	subs, _ := csv.NewReader(strings.NewReader(strings.TrimPrefix(w.Body.String(), "\uFEFF"))).ReadAll()
	if len(subs) != 3 || subs[1][0] != "'@attacker@example.com" || subs[2][0] != "ravi@example.com" {
		t.Errorf("newsletter rows = %q", subs)
	}
}

func TestNeutralise(t *testing.T) {
	for in, want := range map[string]string{
		"=1+1": "'=1+1", "+91": "'+91", "-2": "'-2", "@SUM(A1)": "'@SUM(A1)", "\tx": "'\tx", "\rx": "'\rx",
		"Asha": "Asha", "": "", "a=b": "a=b",
	} {
		if got := Neutralise(in); got != want {
			t.Errorf("Neutralise(%q) = %q, want %q", in, got, want)
		}
	}
}

func itoa(i int64) string { return strconvFormat(i) }

func TestInboxPolicyAllowsOnlyItsOwnStylesheet(t *testing.T) {
	style := pageHTML[strings.Index(pageHTML, "<style>")+len("<style>") : strings.Index(pageHTML, "</style>")]
	sum := sha256.Sum256([]byte(style))
	want := "style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	if !strings.Contains(inboxPolicy, want) || strings.Contains(inboxPolicy, "unsafe") || strings.Contains(inboxPolicy, "script-src") {
		t.Errorf("inbox CSP = %q, want only %s for styles and no scripts", inboxPolicy, want)
	}
}

// After an action the inbox goes back to the page it was on, never to
// another site.
func TestInboxPath(t *testing.T) {
	for back, want := range map[string]string{
		"/studio":                     "/studio",
		"/studio?kind=quote&before=9": "/studio?kind=quote&before=9",
		"/studio/enquiries.csv":       "/studio/enquiries.csv",
		"/studio/../\\evil.example":   "/studio",
		"/studio/../evil":             "/studio",
		"/studioevil":                 "/studio",
		"//evil.example/studio":       "/studio",
		"https://evil.example/studio": "/studio",
		"/studio\\@evil.example":      "/studio",
		"":                            "/studio",
	} {
		if got := inboxPath(back); got != want {
			t.Errorf("inboxPath(%q) = %q, want %q", back, got, want)
		}
	}
}
