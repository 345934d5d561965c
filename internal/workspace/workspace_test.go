package workspace

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/base64"
	"encoding/csv"
	"html"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store"
	"studio/internal/store/testdb"
	"studio/internal/workspace/accounts"
	"studio/internal/workspace/editor"
	"studio/internal/workspace/inbox"
	"studio/internal/workspace/page"
)

// Two people of the studio, each with an account of their own.
const (
	asha, ashaPassword = "asha@studio.example", "asha's long password"
	ravi, raviPassword = "ravi@studio.example", "ravi's long password"
)

func setup(t *testing.T) (*Handler, *store.Store) {
	t.Helper()
	st := testdb.SQLite(t)
	return setupOn(t, st), st
}

// onBoth runs test with a workspace on a fresh SQLite database, then on a
// fresh PostgreSQL schema (skipped without STUDIO_TEST_DATABASE_URL, a
// failure under CI=true).
func onBoth(t *testing.T, test func(t *testing.T, h *Handler, st *store.Store)) {
	testdb.Each(t, func(t *testing.T, st *store.Store) { test(t, setupOn(t, st), st) })
}

// setupOn makes Asha's and Ravi's accounts in st and returns their
// workspace, its options changed by edit.
func setupOn(t *testing.T, st *store.Store, edit ...func(*Options)) *Handler {
	t.Helper()
	for email, password := range map[string]string{asha: ashaPassword, ravi: raviPassword} {
		hash, err := accounts.HashPassword(password)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.CreateAccount(context.Background(), email, hash, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	kolkata, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		t.Fatal(err)
	}
	// Which requests are over HTTPS is the server's to judge (server.IsHTTPS,
	// tested there); here, those that arrived over TLS.
	opts := Options{
		Visitor:     page.Visitor{IP: remoteIP, IsHTTPS: func(r *http.Request) bool { return r.TLS != nil }},
		Location:    kolkata,
		Products:    []page.Product{{ID: 1, Name: "Marwar chair"}, {ID: 2, Name: "Jharokha mirror"}},
		StudioPhone: "+919829041752",
	}
	for _, e := range edit {
		e(&opts)
	}
	return New(st, slog.New(slog.DiscardHandler), opts)
}

// remoteIP is the connection's address without its port, as server.ClientIP
// gives it without proxies.
func remoteIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func add(t *testing.T, st *store.Store, e enquiry.Enquiry) int64 {
	t.Helper()
	if e.CreatedAt.IsZero() {
		e.CreatedAt = time.Now()
	}
	if e.Email == "" {
		e.Email = "visitor@example.com"
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

func signIn(t *testing.T, h http.Handler, email, password string, edit ...func(*http.Request)) *http.Cookie {
	t.Helper()
	w := do(h, "POST", "/studio/sign-in", url.Values{"email": {email}, "password": {password}}, edit...)
	if w.Code != http.StatusSeeOther {
		t.Fatalf("sign in as %s: %d %s", email, w.Code, w.Body)
	}
	cookies := w.Result().Cookies()
	if len(cookies) != 1 {
		t.Fatalf("sign in set %d cookies", len(cookies))
	}
	return cookies[0]
}

func withCookie(c *http.Cookie) func(*http.Request) { return func(r *http.Request) { r.AddCookie(c) } }
func from(ip string) func(*http.Request)            { return func(r *http.Request) { r.RemoteAddr = ip } }
func overTLS(r *http.Request)                       { r.TLS = &tls.ConnectionState{} }

// opens tells whether a cookie opens the inbox (the list, not the sign-in form).
func opens(h http.Handler, c *http.Cookie, edit ...func(*http.Request)) bool {
	w := do(h, "GET", "/studio", nil, append([]func(*http.Request){withCookie(c)}, edit...)...)
	return w.Code == 200 && strings.Contains(w.Body.String(), "Signed in as")
}

func TestSignIn(t *testing.T) {
	h, st := setup(t)
	add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Secret visitor", Message: "private"})

	w := do(h, "GET", "/studio", nil)
	if w.Code != 200 || !strings.Contains(w.Body.String(), `type="password"`) || strings.Contains(w.Body.String(), "Secret visitor") {
		t.Fatalf("without a session: %d, want the sign-in form and no enquiry", w.Code)
	}
	if w.Header().Get("Cache-Control") != "no-store" {
		t.Error("the inbox may be cached")
	}
	for _, form := range []url.Values{
		{"email": {asha}, "password": {"a wrong password"}},
		{"email": {"nobody@studio.example"}, "password": {ashaPassword}},
		{"email": {asha}},
	} {
		w := do(h, "POST", "/studio/sign-in", form)
		if w.Code != http.StatusUnauthorized || len(w.Result().Cookies()) != 0 || !strings.Contains(w.Body.String(), "do not match an account") {
			t.Errorf("%v: %d, %d cookies", form, w.Code, len(w.Result().Cookies()))
		}
	}
	if w := do(h, "POST", "/studio/sign-in", url.Values{"email": {asha}, "password": {ashaPassword}}, func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") }); w.Code != http.StatusForbidden {
		t.Errorf("cross-site sign-in: %d, want 403", w.Code)
	}

	c := signIn(t, h, "Asha@Studio.example", ashaPassword) // the e-mail in any case
	if c.Name != "studio" || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" || c.Secure {
		t.Errorf("cookie over plain HTTP = %+v, want studio, HttpOnly, SameSite=Strict, Path=/, not Secure", c)
	}
	secure := signIn(t, h, asha, ashaPassword, overTLS)
	if secure.Name != "__Host-studio" || !secure.Secure || secure.Path != "/" || secure.Domain != "" || !secure.HttpOnly {
		t.Errorf("cookie over HTTPS = %+v, want __Host-studio, Secure, Path=/, no Domain", secure)
	}
	if len(c.Value) < 43 || c.Value == secure.Value {
		t.Errorf("session ids %q and %q: want 256 random bits each, never the same", c.Value, secure.Value)
	}
	if !opens(h, c) || !opens(h, secure, overTLS) {
		t.Fatal("the sessions do not open the inbox")
	}
	if w := do(h, "GET", "/studio", nil, withCookie(c)); !strings.Contains(w.Body.String(), "Secret visitor") || !strings.Contains(w.Body.String(), "Signed in as "+asha) {
		t.Error("the inbox does not show the enquiry and who is signed in")
	}
	// Each scheme reads only its own cookie.
	if opens(h, c, overTLS) {
		t.Error("a plain-HTTP cookie opened the inbox over HTTPS")
	}
	forged := *c
	forged.Value = strings.Repeat("A", 43)
	if opens(h, &forged) {
		t.Error("a made-up session id opened the inbox")
	}
}

// Signing out ends the session on the server: a copy of the cookie (a
// stolen one) opens nothing afterwards; "sign out everywhere else" ends
// every other session of the account and no one else's.
func TestSignOutEndsTheSession(t *testing.T) {
	h, _ := setup(t)
	laptop, phone := signIn(t, h, asha, ashaPassword), signIn(t, h, asha, ashaPassword)
	other := signIn(t, h, ravi, raviPassword)
	stolen := *laptop

	w := do(h, "POST", "/studio/sign-out", url.Values{}, withCookie(laptop))
	// The session's cookie and the preview's (a preview is for the signed-in) are forgotten.
	if out := w.Result().Cookies(); w.Code != http.StatusSeeOther || len(out) != 2 || out[0].MaxAge >= 0 || out[1].MaxAge >= 0 || out[1].Name != "studio-preview" {
		t.Errorf("sign out: %d %v", w.Code, out)
	}
	if opens(h, &stolen) {
		t.Error("a copy of a signed-out cookie still opens the inbox")
	}
	if w := do(h, "GET", "/studio/enquiries.csv", nil, withCookie(&stolen)); w.Code != http.StatusUnauthorized {
		t.Errorf("a signed-out cookie downloads the CSV: %d", w.Code)
	}
	if !opens(h, phone) {
		t.Error("signing out on the laptop ended the phone's session")
	}
	tablet := signIn(t, h, asha, ashaPassword)
	if w := do(h, "POST", "/studio/account/sign-out-others", url.Values{}, withCookie(phone)); w.Code != http.StatusSeeOther {
		t.Errorf("sign out everywhere else: %d", w.Code)
	}
	if !opens(h, phone) || opens(h, tablet) {
		t.Error("sign out everywhere else should keep the phone signed in and end the tablet's session")
	}
	if !opens(h, other) {
		t.Error("Asha signing out everywhere else ended Ravi's session")
	}
	if w := do(h, "POST", "/studio/account/sign-out-others", url.Values{}, withCookie(other), func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") }); w.Code != http.StatusForbidden || !opens(h, other) {
		t.Errorf("a cross-site sign-out: %d, want 403 and still signed in", w.Code)
	}
}

func TestSessionExpires(t *testing.T) {
	h, _ := setup(t)
	start := time.Now()
	c := signIn(t, h, asha, ashaPassword)

	h.now = func() time.Time { return start.Add(accounts.IdleLimit + time.Minute) }
	if opens(h, c) {
		t.Error("a session idle for longer than the idle limit opened the inbox")
	}

	c = signIn(t, h, asha, ashaPassword)
	signedIn := h.now()
	for at := time.Duration(0); at < accounts.AbsoluteLimit; at += time.Hour { // used every hour, never idle
		h.now = func() time.Time { return signedIn.Add(at) }
		if !opens(h, c) {
			t.Fatalf("a session in use ended after %s", at)
		}
	}
	h.now = func() time.Time { return signedIn.Add(accounts.AbsoluteLimit + time.Minute) }
	if opens(h, c) {
		t.Error("a session in use outlived the absolute limit")
	}
}

// Only failed attempts count, per pair (an e-mail from one address) and
// per address, never per account alone; a success clears the pair's count.
func TestOnlyFailuresAreLimited(t *testing.T) {
	onBoth(t, func(t *testing.T, h *Handler, _ *store.Store) {
		now := time.Now()
		h.now = func() time.Time { return now }
		for range 2 * accounts.AddressFreeFailures {
			signIn(t, h, asha, ashaPassword)
			if w := do(h, "GET", "/studio/enquiries.csv", nil, basic(asha, ashaPassword)); w.Code != 200 {
				t.Fatalf("scripted download: %d; successes must not count", w.Code)
			}
		}

		// A visitor who guesses at many accounts is slowed, even with the right password next.
		for i := range accounts.AddressFreeFailures {
			if w := do(h, "POST", "/studio/sign-in", signInForm("nobody"+strconv.Itoa(i)+"@x.example", "guess"), from("198.51.100.1:1")); w.Code != http.StatusUnauthorized {
				t.Fatalf("free failure #%d: %d, want 401", i+1, w.Code)
			}
		}
		w := do(h, "POST", "/studio/sign-in", signInForm(asha, ashaPassword), from("198.51.100.1:1"))
		if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "30" || len(w.Result().Cookies()) != 0 {
			t.Errorf("after %d failures: %d, Retry-After %q; want 429, 30", accounts.AddressFreeFailures, w.Code, w.Header().Get("Retry-After"))
		}
		if w := do(h, "GET", "/studio/enquiries.csv", nil, basic(asha, ashaPassword), from("198.51.100.1:1")); w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "30" {
			t.Errorf("basic auth from the same visitor: %d, want 429 with Retry-After", w.Code)
		}
		signIn(t, h, asha, ashaPassword, from("198.51.100.2:1")) // another visitor is not slowed

		// Guesses at one account from many visitors keep no one out.
		for i := range 2 * accounts.PairFreeFailures {
			do(h, "POST", "/studio/sign-in", signInForm(ravi, "guess"), from("192.0.2."+strconv.Itoa(i)+":1"))
		}
		signIn(t, h, ravi, raviPassword, from("192.0.2.200:1"))

		// A success clears the pair's count: a colleague who mistypes, then
		// types it right, starts afresh.
		for range 2 {
			for range accounts.PairFreeFailures - 1 {
				if w := do(h, "POST", "/studio/sign-in", signInForm(asha, "a typo"), from("198.51.100.3:1")); w.Code != http.StatusUnauthorized {
					t.Fatalf("a typo: %d, want 401", w.Code)
				}
			}
			signIn(t, h, asha, ashaPassword, from("198.51.100.3:1"))
		}
	})
}

func signInForm(email, password string) url.Values {
	return url.Values{"email": {email}, "password": {password}}
}

func basic(email, password string) func(*http.Request) {
	return func(r *http.Request) { r.SetBasicAuth(email, password) }
}

func TestCSVAuth(t *testing.T) {
	h, st := setup(t)
	secret := accounts.NewSecret()
	tokenID, err := st.CreateToken(context.Background(), ravi, accounts.SecretHash(secret), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	bearer := func(token string) func(*http.Request) {
		return func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+token) }
	}
	for _, c := range []struct {
		name string
		edit func(*http.Request)
		want int
	}{
		{"no auth", func(*http.Request) {}, 401},
		{"basic, the old shared user", func(r *http.Request) { r.SetBasicAuth("studio", ashaPassword) }, 401},
		{"basic, wrong password", func(r *http.Request) { r.SetBasicAuth(asha, raviPassword) }, 401},
		{"basic, an account", func(r *http.Request) { r.SetBasicAuth(asha, ashaPassword) }, 200},
		{"a token", bearer(secret), 200},
		{"a made-up token", bearer(accounts.NewSecret()), 401},
		{"a session", withCookie(signIn(t, h, ravi, raviPassword)), 200},
	} {
		for _, path := range []string{"/studio/enquiries.csv", "/studio/newsletter.csv"} {
			w := do(h, "GET", path, nil, c.edit)
			if w.Code != c.want {
				t.Errorf("%s, %s: %d, want %d", c.name, path, w.Code, c.want)
			}
			if c.want == 401 && !strings.HasPrefix(w.Header().Get("WWW-Authenticate"), "Basic ") {
				t.Errorf("%s: 401 without a Basic challenge", c.name)
			}
		}
	}
	if err := st.RevokeToken(context.Background(), tokenID); err != nil {
		t.Fatal(err)
	}
	if w := do(h, "GET", "/studio/enquiries.csv", nil, bearer(secret)); w.Code != 401 {
		t.Errorf("a revoked token: %d, want 401", w.Code)
	}
}

// names lists the enquiries a page of the list shows, in order.
func names(body string) []string {
	var list []string
	for _, m := range regexp.MustCompile(`<h2 id="enquiry-\d+"><a [^>]*>#\d+ · [^<]* · ([^<·]+)</a>`).FindAllStringSubmatch(body, -1) {
		list = append(list, html.UnescapeString(m[1]))
	}
	return list
}

func TestListFiltersAndSearch(t *testing.T) {
	h, st := setup(t)
	ctx := context.Background()
	// 22:00 on 1 March UTC is 03:30 on 2 March in Kolkata.
	march1 := time.Date(2026, 3, 1, 22, 0, 0, 0, time.UTC)
	add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Old", CreatedAt: march1.Add(-48 * time.Hour)})
	won := add(t, st, enquiry.Enquiry{Kind: enquiry.Quote, Name: "Won", ProductID: 1, ProductName: "Marwar chair", CreatedAt: march1})
	add(t, st, enquiry.Enquiry{Kind: enquiry.Quote, Name: "Mirror", ProductID: 2, ProductName: "Jharokha mirror", Phone: "+91 98290 41752", CreatedAt: march1.Add(time.Hour)})
	add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: `<script>alert("x")</script>`, Message: "<b>Walnut</b> please", CreatedAt: march1.Add(2 * time.Hour)})
	add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Robot", Spam: true, CreatedAt: march1.Add(3 * time.Hour)})
	st.SetStatus(ctx, won, enquiry.Won, asha, time.Now())
	c := signIn(t, h, asha, ashaPassword)

	list := func(query string) (string, []string) {
		t.Helper()
		w := do(h, "GET", "/studio"+query, nil, withCookie(c))
		if w.Code != 200 {
			t.Fatalf("%s: %d", query, w.Code)
		}
		return w.Body.String(), names(w.Body.String())
	}
	body, got := list("")
	if want := `<script>alert("x")</script>,Mirror,Old`; strings.Join(got, ",") != want {
		t.Errorf("the default list = %q, want the open ones newest first, no spam: %s", got, want)
	}
	if strings.Contains(body, "<script>alert") || strings.Contains(body, "<b>Walnut") {
		t.Error("visitor text shown unescaped")
	}
	if !strings.Contains(body, "3 new") {
		t.Error("the count of new enquiries is missing")
	}
	if !strings.Contains(body, "Received 2 Mar 2026, 04:30 IST") {
		t.Error("times are not in the studio's time zone (Mirror: 23:00 UTC is 04:30 IST)")
	}
	for query, want := range map[string]string{
		"?q=walnut":                        `<script>alert("x")</script>`,
		"?q=98290":                         "Mirror",
		"?q=JHAROKHA":                      "Mirror",
		"?status=won":                      "Won",
		"?status=all":                      `<script>alert("x")</script>,Mirror,Won,Old`,
		"?status=spam":                     "Robot",
		"?kind=quote":                      "Mirror",
		"?status=all&product=1":            "Won",
		"?status=all&from=2026-03-02":      `<script>alert("x")</script>,Mirror,Won`, // Won came at 03:30 on 2 March, studio time
		"?status=all&to=2026-03-01":        "Old",
		"?status=all&kind=quote&q=mirror":  "Mirror",
		"?status=all&from=2026-03-03&q=zz": "",
	} {
		if _, got := list(query); strings.Join(got, ",") != want {
			t.Errorf("%s: %q, want %q", query, got, want)
		}
	}
	for query, problem := range map[string]string{
		"?status=maybe":   "There is no status “maybe”",
		"?from=yesterday": "is not a date like",
		"?product=chair":  "is not a product number",
	} {
		if body, _ := list(query); !strings.Contains(html.UnescapeString(body), problem) {
			t.Errorf("%s: no error saying %q", query, problem)
		}
	}
}

// The list pages both ways: older, then newer back to the same pages.
func TestListPagesBothWays(t *testing.T) {
	h, st := setup(t)
	for i := range 2*inbox.PageSize + 7 {
		add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Visitor " + strconv.Itoa(i)})
	}
	c := signIn(t, h, asha, ashaPassword)
	link := regexp.MustCompile(`<a href="([^"]+)">(Newer|Older) enquiries</a>`)
	type page struct {
		names        []string
		newer, older string
	}
	get := func(target string) page {
		body := do(h, "GET", html.UnescapeString(target), nil, withCookie(c)).Body.String()
		p := page{names: names(body)}
		for _, m := range link.FindAllStringSubmatch(body, -1) {
			if m[2] == "Newer" {
				p.newer = m[1]
			} else {
				p.older = m[1]
			}
		}
		return p
	}
	first := get("/studio")
	if len(first.names) != inbox.PageSize || first.names[0] != "Visitor 106" || first.newer != "" || first.older == "" {
		t.Fatalf("first page: %d names from %q, newer %q older %q", len(first.names), first.names[0], first.newer, first.older)
	}
	second := get(first.older)
	third := get(second.older)
	if second.names[0] != "Visitor 56" || second.newer == "" || len(third.names) != 7 || third.older != "" || third.newer == "" {
		t.Fatalf("second page from %q (newer %q), third has %d (older %q)", second.names[0], second.newer, len(third.names), third.older)
	}
	if back := get(third.newer); strings.Join(back.names, ",") != strings.Join(second.names, ",") {
		t.Errorf("newer from the third page = %q…, want the second page", back.names[0])
	}
	if back := get(second.newer); strings.Join(back.names, ",") != strings.Join(first.names, ",") || back.newer != "" {
		t.Errorf("newer from the second page = %q…, want the first page, without a newer link", back.names[0])
	}
}

// Two people work one enquiry from New to Won: statuses, a note, spam and
// not spam, undo; the page says who did what, when.
func TestWorkAnEnquiry(t *testing.T) {
	h, st := setup(t)
	id := add(t, st, enquiry.Enquiry{Kind: enquiry.Quote, Name: "Meera", ProductID: 1, ProductName: "Marwar chair", Phone: "98290 41752",
		Message: "Is it available in walnut?\nThanks", CreatedAt: time.Date(2026, 3, 2, 6, 0, 0, 0, time.UTC), Spam: true})
	a, r := signIn(t, h, asha, ashaPassword), signIn(t, h, ravi, raviPassword)
	page := "/studio/enquiries/" + itoa(id)
	back := url.Values{"return": {"/studio?status=spam"}}
	post := func(c *http.Cookie, action string, form url.Values) *httptest.ResponseRecorder {
		t.Helper()
		for k, v := range back {
			form[k] = v
		}
		return do(h, "POST", page+"/"+action, form, withCookie(c))
	}
	ok := func(w *httptest.ResponseRecorder) {
		t.Helper()
		if w.Code != http.StatusSeeOther || w.Header().Get("Location") != page+"?return=%2Fstudio%3Fstatus%3Dspam" {
			t.Fatalf("%d → %q, want 303 back to the enquiry (and its list)", w.Code, w.Header().Get("Location"))
		}
	}
	current := func() enquiry.Enquiry {
		e, err := st.Enquiry(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}

	ok(post(a, "spam", url.Values{"spam": {"false"}})) // a real customer, flagged
	if current().Spam {
		t.Fatal("not spam did not move it out of spam")
	}
	for _, status := range []string{"replied", "quoted", "won"} {
		ok(post(a, "status", url.Values{"status": {status}}))
	}
	ok(post(r, "notes", url.Values{"note": {"Called her: walnut, 2 chairs.\r\nDelivery in April."}}))
	if current().Status != enquiry.Won {
		t.Fatalf("status = %q, want won", current().Status)
	}

	body := html.UnescapeString(do(h, "GET", page+"?return=%2Fstudio%3Fstatus%3Dspam", nil, withCookie(r)).Body.String())
	for _, want := range []string{
		"Called her: walnut, 2 chairs.\nDelivery in April.",
		ravi + ", ",
		asha + " marked it as not spam",
		asha + " moved it from Quoted to Won",
		ravi + " added a note",
		"Last change: " + asha + " moved it from Quoted to Won",
		"Received 2 Mar 2026, 11:30 IST",
		`href="https://wa.me/919829041752"`,
		"Back to the list",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the enquiry's page lacks %q", want)
		}
	}
	if !strings.Contains(body, `href="/studio?status=spam"`) {
		t.Error("the way back does not lead to the list it was opened from")
	}

	undo := regexp.MustCompile(`name="change" value="(\d+)"`).FindStringSubmatch(body)
	if undo == nil {
		t.Fatal("no undo")
	}
	ok(post(r, "undo", url.Values{"change": {undo[1]}}))
	if current().Status != enquiry.Quoted {
		t.Errorf("after undo: %q, want quoted", current().Status)
	}
	if w := post(a, "undo", url.Values{"change": {undo[1]}}); w.Code != http.StatusConflict || current().Status != enquiry.Quoted {
		t.Errorf("undoing the same change twice: %d, %q", w.Code, current().Status)
	}
	if body := html.UnescapeString(do(h, "GET", page, nil, withCookie(a)).Body.String()); !strings.Contains(body, ravi+" undid the change to Won, back to Quoted") {
		t.Error("the undo is not in the history")
	}

	// Bad input: a clear error, and nothing changes.
	for _, c := range []struct {
		action string
		form   url.Values
		code   int
		says   string
	}{
		{"status", url.Values{"status": {"maybe"}}, 400, "There is no status “maybe”"},
		{"spam", url.Values{"spam": {"perhaps"}}, 400, "spam=true or spam=false"},
		{"notes", url.Values{"note": {"  \r\n "}}, 400, "The note is empty"},
		{"notes", url.Values{"note": {strings.Repeat("न", 5000+1)}}, 400, "keep it to 5000"},
	} {
		w := post(a, c.action, c.form)
		if w.Code != c.code || !strings.Contains(html.UnescapeString(w.Body.String()), c.says) {
			t.Errorf("%s %v: %d, want %d saying %q", c.action, c.form, w.Code, c.code, c.says)
		}
	}
	if notes, _ := st.Notes(context.Background(), id); len(notes) != 1 || current().Status != enquiry.Quoted || current().Spam {
		t.Errorf("bad input changed something: %d notes, %q", len(notes), current().Status)
	}

	// Without a session, or from another site, nothing happens.
	if w := do(h, "POST", page+"/status", url.Values{"status": {"lost"}}); w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/studio" {
		t.Errorf("without a session: %d → %s", w.Code, w.Header().Get("Location"))
	}
	if w := do(h, "POST", page+"/status", url.Values{"status": {"lost"}}, withCookie(a), func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }); w.Code != http.StatusForbidden {
		t.Errorf("cross-site: %d, want 403", w.Code)
	}
	if current().Status != enquiry.Quoted {
		t.Error("changed without a session or from another site")
	}
	if w := do(h, "POST", "/studio/enquiries/9999/status", url.Values{"status": {"won"}}, withCookie(a)); w.Code != http.StatusNotFound {
		t.Errorf("an unknown enquiry: %d", w.Code)
	}
	if w := do(h, "POST", page+"/status", url.Values{"status": {"won"}, "return": {"/studio/../\\evil.example"}}, withCookie(a)); w.Header().Get("Location") != page {
		t.Errorf("redirected to %q", w.Header().Get("Location"))
	}
}

func TestDeleteWithConfirmation(t *testing.T) {
	h, st := setup(t)
	id := add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Forget me", Message: "my private words"})
	st.AddNote(context.Background(), id, ravi, "she asked to be forgotten", time.Now())
	c := signIn(t, h, asha, ashaPassword)
	page := "/studio/enquiries/" + itoa(id)

	w := do(h, "GET", page+"/delete?return=%2Fstudio%3Fq%3Dforget", nil, withCookie(c))
	if w.Code != 200 || !strings.Contains(w.Body.String(), "Delete enquiry #"+itoa(id)+"?") || !strings.Contains(w.Body.String(), `value="/studio?q=forget"`) {
		t.Fatalf("the question: %d", w.Code)
	}
	if _, err := st.Enquiry(context.Background(), id); err != nil {
		t.Fatal("asking deleted it")
	}
	w = do(h, "POST", page+"/delete", url.Values{"return": {"/studio?q=forget"}}, withCookie(c))
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/studio?deleted="+itoa(id)+"&q=forget" {
		t.Errorf("delete: %d → %s", w.Code, w.Header().Get("Location"))
	}
	if _, err := st.Enquiry(context.Background(), id); err == nil {
		t.Error("not deleted")
	}
	if body := do(h, "GET", w.Header().Get("Location"), nil, withCookie(c)).Body.String(); !strings.Contains(body, "Enquiry #"+itoa(id)+" was deleted.") {
		t.Error("the list does not say it was deleted")
	}
	history, _ := st.History(context.Background(), id)
	last := history[len(history)-1]
	if last.Action != store.ActionDelete || last.Actor != asha {
		t.Errorf("the deletion is not recorded with who did it: %+v", last)
	}
	w = do(h, "GET", page, nil, withCookie(c))
	if w.Code != http.StatusNotFound {
		t.Errorf("the deleted enquiry's page: %d", w.Code)
	}
	// It says what is wrong and the way back, not an empty list.
	if body := w.Body.String(); !strings.Contains(body, "<h1>Not found</h1>") || !strings.Contains(body, "There is no enquiry #"+itoa(id)) || strings.Contains(body, "No enquiries match") {
		t.Errorf("the deleted enquiry's page does not say it is gone:\n%s", body)
	}
}

func TestCSV(t *testing.T) {
	h, st := setup(t)
	add(t, st, enquiry.Enquiry{Kind: enquiry.Quote, Name: "=HYPERLINK(\"http://evil\")", Phone: "+91 98290 41752", ProductID: 1, ProductName: "Marwar chair",
		Material: "Wood", Finish: "Walnut", Message: "Bob;=1+1\nline two, with \"quotes\"", CreatedAt: time.Date(2026, 3, 2, 6, 0, 0, 0, time.UTC)})
	add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Robot", Phone: "-1+2", Spam: true})
	st.Subscribe(context.Background(), "@attacker@example.com", false, time.Now())
	st.Subscribe(context.Background(), "ravi@example.com", false, time.Now())
	auth := func(r *http.Request) { r.SetBasicAuth(asha, ashaPassword) }

	w := do(h, "GET", "/studio/enquiries.csv", nil, auth)
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
	if !strings.HasPrefix(body, `"id","received"`) {
		t.Errorf("header line %q: fields not quoted", body[:20])
	}
	if len(rows) != 3 || rows[0][0] != "id" {
		t.Fatalf("rows = %v", rows)
	}
	quote := rows[2] // oldest last
	if quote[1] != "2026-03-02T11:30:00+05:30" || quote[7] != "'=HYPERLINK(\"http://evil\")" || quote[9] != `="+91 98290 41752"` || quote[4] != "Marwar chair" ||
		quote[10] != "Bob;=1+1\nline two, with \"quotes\"" || quote[11] != "new" {
		t.Errorf("quote row = %q", quote)
	}
	if rows[1][7] != "Robot" || rows[1][12] != "true" || rows[1][9] != `="-1+2"` {
		t.Errorf("spam row = %q", rows[1])
	}

	w = do(h, "GET", "/studio/newsletter.csv", nil, auth)
	subs, _ := csv.NewReader(strings.NewReader(strings.TrimPrefix(w.Body.String(), "\uFEFF"))).ReadAll()
	if len(subs) != 3 || subs[1][0] != "'@attacker@example.com" || subs[2][0] != "ravi@example.com" {
		t.Errorf("newsletter rows = %q", subs)
	}
}

// The inbox's CSV link exports what the inbox lists with its filter and
// search, every page, with each enquiry's status and notes.
func TestTheCSVFollowsTheInboxsFilter(t *testing.T) {
	h, st := setup(t)
	ctx := context.Background()
	at := time.Date(2026, 11, 20, 8, 33, 0, 0, time.UTC)
	meera := add(t, st, enquiry.Enquiry{Kind: enquiry.Quote, Name: "Meera Joshi", ProductID: 1, ProductName: "Marwar chair"})
	won := add(t, st, enquiry.Enquiry{Kind: enquiry.Quote, Name: "Meera Won", ProductID: 1, ProductName: "Marwar chair"})
	add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Meera Contact"})
	add(t, st, enquiry.Enquiry{Kind: enquiry.Quote, Name: "Meera Spam", Spam: true})
	add(t, st, enquiry.Enquiry{Kind: enquiry.Quote, Name: "Ravi", ProductID: 1, ProductName: "Marwar chair"})
	if err := st.SetStatus(ctx, won, enquiry.Won, asha, at); err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{"Called her; teak, not walnut", "Quote sent"} {
		if err := st.AddNote(ctx, meera, asha, body, at); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.AddReply(ctx, store.Reply{EnquiryID: won, Author: ravi, To: "meera@example.com", Subject: "Re: Marwar chair",
		Body: "Dear Meera,\nthe quote is attached.", AttachmentName: "Quote.pdf", Attachment: []byte("%PDF-"), FormKey: "k"}, at); err != nil {
		t.Fatal(err)
	}
	cookie := signIn(t, h, asha, ashaPassword)
	replies := map[string]string{}
	names := func(link string) (names []string, notes map[string]string) {
		t.Helper()
		w := do(h, "GET", link, nil, withCookie(cookie))
		rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(w.Body.String(), "\uFEFF"))).ReadAll()
		if w.Code != http.StatusOK || err != nil {
			t.Fatalf("%s: %d %v\n%s", link, w.Code, err, w.Body)
		}
		notes = map[string]string{}
		for _, row := range rows[1:] {
			names = append(names, row[7]+" ("+row[11]+")")
			notes[row[7]] = row[15]
			replies[row[7]] = row[16]
		}
		return names, notes
	}
	link := func(query string) string {
		t.Helper()
		page := do(h, "GET", "/studio?"+query, nil, withCookie(cookie)).Body.String()
		_, rest, ok := strings.Cut(page, `<a href="/studio/enquiries.csv?`)
		href, _, _ := strings.Cut(rest, `"`)
		if !ok {
			t.Fatalf("the inbox has no CSV link:\n%s", page)
		}
		return "/studio/enquiries.csv?" + html.UnescapeString(href)
	}

	// Open (the default), quotes, "meera": neither the won one nor the spam.
	got, notes := names(link("q=meera&kind=quote"))
	if want := []string{"Meera Joshi (new)"}; !slices.Equal(got, want) {
		t.Errorf("open quotes of meera: %q, want %q", got, want)
	}
	if want := "2026-11-20 14:03 " + asha + ": Called her; teak, not walnut\n2026-11-20 14:03 " + asha + ": Quote sent"; notes["Meera Joshi"] != want {
		t.Errorf("notes = %q, want %q", notes["Meera Joshi"], want)
	}
	if got, _ := names(link("q=meera&status=all")); !slices.Equal(got, []string{"Meera Contact (new)", "Meera Won (won)", "Meera Joshi (new)"}) {
		t.Errorf("any status of meera: %q", got)
	}
	if want := "2026-11-20 14:03 " + ravi + " to meera@example.com: Re: Marwar chair (attached: Quote.pdf)\nDear Meera,\nthe quote is attached."; replies["Meera Won"] != want {
		t.Errorf("replies = %q, want %q", replies["Meera Won"], want)
	}
	if got, _ := names(link("status=spam")); !slices.Equal(got, []string{"Meera Spam (new)"}) {
		t.Errorf("spam: %q", got)
	}
	// Without a filter (a script's export): everything, spam too.
	if got, _ := names("/studio/enquiries.csv"); len(got) != 5 {
		t.Errorf("everything: %q", got)
	}
	// A part of the filter that cannot be used is left out, as the inbox
	// leaves it; a query that is no filter is none.
	if got, _ := names(link("q=meera&kind=quote&product=chair")); !slices.Equal(got, []string{"Meera Joshi (new)"}) {
		t.Errorf("with a product that is not one: %q", got)
	}
	if got, _ := names("/studio/enquiries.csv?download=1"); len(got) != 5 {
		t.Errorf("a query without a filter: %q, want everything", got)
	}
}

func TestInboxPolicyAllowsOnlyItsOwnStylesheetAndScript(t *testing.T) {
	style := page.LayoutHTML[strings.Index(page.LayoutHTML, "<style>")+len("<style>") : strings.Index(page.LayoutHTML, "</style>")]
	sum := sha256.Sum256([]byte(style))
	want := "style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	var hashes []string
	for _, s := range []string{page.FollowJS, page.BusyJS, editor.UploadJS, inbox.ReplyJS} {
		sum := sha256.Sum256([]byte(s))
		hashes = append(hashes, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
	}
	script := "script-src " + strings.Join(hashes, " ") + ";"
	if !strings.Contains(inboxPolicy, want) || !strings.Contains(inboxPolicy, script) || strings.Contains(inboxPolicy, "unsafe") {
		t.Errorf("inbox CSP = %q, want only %s for styles and %s for scripts", inboxPolicy, want, script)
	}
}

// After an action the inbox goes back to the page it was on, never to
// another site.
// Each mail about an enquiry shows whether it reached the mail server.
func TestMailDeliveryStates(t *testing.T) {
	h, st := setup(t)
	ctx := context.Background()
	id, err := st.CreateEnquiry(ctx, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Meera", Email: "meera@example.com", CreatedAt: time.Now()}, true)
	if err != nil {
		t.Fatal(err)
	}
	due, err := st.DueMails(ctx, time.Now().Add(time.Minute), 10)
	if err != nil || len(due) != 2 {
		t.Fatalf("due mails = %d, %v", len(due), err)
	}
	for _, m := range due {
		if m.Recipient == store.RecipientStudio {
			st.MailSent(ctx, m.ID, time.Date(2026, 3, 2, 6, 0, 0, 0, time.UTC))
		} else {
			st.MailFailed(ctx, m.ID, "550 5.1.1 mailbox unknown", time.Date(2026, 3, 2, 6, 30, 0, 0, time.UTC), false, time.Now())
		}
	}
	c := signIn(t, h, asha, ashaPassword)
	body := html.UnescapeString(do(h, "GET", "/studio/enquiries/"+itoa(id), nil, withCookie(c)).Body.String())
	for _, want := range []string{
		"Copy to the studio: sent 2 Mar 2026, 11:30 IST",
		"Acknowledgement to the visitor: <strong>not delivered yet</strong>: 1 attempt failed, the next at 2 Mar 2026, 12:00 IST. The mail server said: 550 5.1.1 mailbox unknown",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the enquiry's page lacks %q", want)
		}
	}
}

// With Facts, the inbox's product filter names the live release's products
// at each request: a product published is there without a restart.
func TestTheInboxFollowsTheLiveReleasesProducts(t *testing.T) {
	var live atomic.Pointer[page.Facts]
	live.Store(&page.Facts{Products: []page.Product{{ID: 1, Name: "Marwar chair"}}})
	h := setupOn(t, testdb.SQLite(t), func(o *Options) { o.Facts = func() page.Facts { return *live.Load() } })
	c := signIn(t, h, asha, ashaPassword)
	if body := do(h, "GET", "/studio", nil, withCookie(c)).Body.String(); !strings.Contains(body, "Marwar chair") {
		t.Fatal("the inbox's filter lacks the product")
	}
	live.Store(&page.Facts{Products: []page.Product{{ID: 1, Name: "Marwar chair"}, {ID: 11, Name: "Jali lamp"}}})
	if body := do(h, "GET", "/studio", nil, withCookie(c)).Body.String(); !strings.Contains(body, "Jali lamp") {
		t.Error("a product published is not in the inbox's filter")
	}
}
