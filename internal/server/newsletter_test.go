package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"studio/internal/newsletter"
	"studio/internal/store"
	"studio/internal/store/testdb"
)

const newsletterShell = `<!DOCTYPE html><html><head><title>Thank you for signing up | Studio</title><script>hydrate()</script></head>` +
	`<body><header>Studio</header><main id="main"><div class="page-intro"><h1>Thank you</h1></div></main><footer>Foot</footer></body></html>`

var newsletterTestKey = []byte("the newsletter's key of 32 bytes")

// newNewsletterServer is a server whose sign-ups are mailed (a
// confirmation is queued) with the newsletter's links on.
func newNewsletterServer(t *testing.T) (http.Handler, *store.Store) {
	t.Helper()
	st := testdb.SQLite(t)
	build := testBuild()
	build["thank-you/newsletter/index.html"] = &fstest.MapFile{Data: []byte(newsletterShell)}
	s, err := New(discardLog(), build, testCatalogue(t, 1, 2), WithStore(st), WithMail(func() {}), WithNewsletter(st, newsletterTestKey))
	if err != nil {
		t.Fatal(err)
	}
	return s.Handler(), st
}

func getPage(h http.Handler, target string) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", target, nil))
	return w
}

func subscribed(t *testing.T, st *store.Store, email string) bool {
	t.Helper()
	ok, err := st.IsSubscribed(context.Background(), email)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func linkQuery(purpose, email string) string {
	return newsletter.Path(purpose) + "?" + url.Values{"e": {email}, "s": {newsletter.Sign(newsletterTestKey, purpose, email)}}.Encode()
}

func TestNewsletterConfirmAndUnsubscribe(t *testing.T) {
	h, st := newNewsletterServer(t)
	// With mail, a sign-up is accepted and waits for its confirmation.
	if w := post(h, "/api/newsletter", `{"email":"Mira@example.com"}`); w.Code != http.StatusAccepted || !strings.Contains(w.Body.String(), `"confirm"`) {
		t.Fatalf("sign-up: %d %s", w.Code, w.Body)
	}
	if subscribed(t, st, "mira@example.com") {
		t.Fatal("subscribed before confirming")
	}
	confirm := linkQuery(newsletter.Confirm, "Mira@example.com")
	// Following the link (as a mail scanner does) shows a button, and changes nothing.
	w := getPage(h, confirm)
	body := w.Body.String()
	if w.Code != http.StatusOK || !strings.Contains(body, `<button type="submit" class="button">Confirm my subscription</button>`) ||
		!strings.Contains(body, `<form method="post" action="/newsletter/confirm">`) || strings.Contains(body, "hydrate()") ||
		!strings.Contains(body, "<title>Confirm your subscription | ") || !strings.Contains(body, "<footer>Foot</footer>") {
		t.Errorf("GET confirm: %d\n%s", w.Code, body)
	}
	if w.Header().Get("Cache-Control") != "no-store" || w.Header().Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("GET confirm headers: %v", w.Header())
	}
	if subscribed(t, st, "mira@example.com") {
		t.Fatal("a GET confirmed")
	}
	u, _ := url.Parse(confirm)
	if w := postForm(h, newsletter.Path(newsletter.Confirm), u.Query()); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "You are on the list") {
		t.Fatalf("POST confirm: %d %s", w.Code, w.Body)
	}
	if !subscribed(t, st, "mira@example.com") {
		t.Fatal("not subscribed after confirming")
	}

	unsubscribe := linkQuery(newsletter.Unsubscribe, "mira@example.com")
	w = getPage(h, unsubscribe)
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "Unsubscribe mira@example.com</button>") || !subscribed(t, st, "mira@example.com") {
		t.Fatalf("GET unsubscribe: %d, subscribed %v\n%s", w.Code, subscribed(t, st, "mira@example.com"), w.Body)
	}
	// RFC 8058's one-click POST, as a mail provider's server sends it: to
	// the link, from another site, with no cookie and no token.
	w = post(h, unsubscribe, "List-Unsubscribe=One-Click", func(r *http.Request) {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.Header.Set("Origin", "https://mail.example.net")
		r.Header.Set("Sec-Fetch-Site", "cross-site")
	})
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "You are unsubscribed") {
		t.Fatalf("one-click unsubscribe: %d %s", w.Code, w.Body)
	}
	if subscribed(t, st, "mira@example.com") {
		t.Fatal("still subscribed after the one-click POST")
	}
	if subs, _ := st.Subscribers(context.Background()); len(subs) != 0 {
		t.Errorf("listed after unsubscribing: %+v", subs)
	}
	// The confirmation link does not bring the address back.
	if w := postForm(h, newsletter.Path(newsletter.Confirm), u.Query()); w.Code != http.StatusGone || subscribed(t, st, "mira@example.com") {
		t.Errorf("old confirmation: %d %s", w.Code, w.Body)
	}
}

func TestNewsletterBadLinkChangesNothing(t *testing.T) {
	h, st := newNewsletterServer(t)
	ctx := context.Background()
	if _, err := st.Subscribe(ctx, "ravi@example.com", false, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Subscribe(ctx, "mira@example.com", true, time.Now()); err != nil {
		t.Fatal(err)
	}
	good := newsletter.Sign(newsletterTestKey, newsletter.Unsubscribe, "ravi@example.com")
	for name, q := range map[string]url.Values{
		"another address's signature": {"e": {"ravi@example.com"}, "s": {newsletter.Sign(newsletterTestKey, newsletter.Unsubscribe, "mira@example.com")}},
		"a changed signature":         {"e": {"ravi@example.com"}, "s": {good[:len(good)-2] + "AA"}},
		"the confirm link's":          {"e": {"ravi@example.com"}, "s": {newsletter.Sign(newsletterTestKey, newsletter.Confirm, "ravi@example.com")}},
		"another key's":               {"e": {"ravi@example.com"}, "s": {newsletter.Sign([]byte("not the server's key, 32 bytes.."), newsletter.Unsubscribe, "ravi@example.com")}},
		"no signature":                {"e": {"ravi@example.com"}},
	} {
		target := newsletter.Path(newsletter.Unsubscribe) + "?" + q.Encode()
		if w := getPage(h, target); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "This link does not work") || !strings.Contains(w.Body.String(), "This link is not valid") || strings.Contains(w.Body.String(), "<button") {
			t.Errorf("%s, GET: %d %s", name, w.Code, w.Body)
		}
		if w := post(h, target, "List-Unsubscribe=One-Click", func(r *http.Request) { r.Header.Set("Content-Type", "application/x-www-form-urlencoded") }); w.Code != http.StatusBadRequest {
			t.Errorf("%s, one-click POST: %d", name, w.Code)
		}
		if w := postForm(h, newsletter.Path(newsletter.Unsubscribe), q); w.Code != http.StatusBadRequest {
			t.Errorf("%s, the button's POST: %d", name, w.Code)
		}
		if !subscribed(t, st, "ravi@example.com") {
			t.Fatalf("%s unsubscribed", name)
		}
	}
	// Nor does a bad confirmation link confirm.
	bad := url.Values{"e": {"mira@example.com"}, "s": {newsletter.Sign(newsletterTestKey, newsletter.Unsubscribe, "mira@example.com")}}
	if w := postForm(h, newsletter.Path(newsletter.Confirm), bad); w.Code != http.StatusBadRequest || subscribed(t, st, "mira@example.com") {
		t.Errorf("a bad confirmation: %d, subscribed %v", w.Code, subscribed(t, st, "mira@example.com"))
	}
}

func TestNewsletterFormLeadsToCheckYourInbox(t *testing.T) {
	h, st := newNewsletterServer(t)
	w := postForm(h, "/api/newsletter", url.Values{"page": {"/"}, "email": {"ravi@example.com"}})
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != newsletterCheckInboxPath {
		t.Fatalf("sign-up without JavaScript: %d → %q", w.Code, w.Header().Get("Location"))
	}
	if w := getPage(h, newsletterCheckInboxPath); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "Check your inbox") {
		t.Errorf("check your inbox: %d %s", w.Code, w.Body)
	}
	if subscribed(t, st, "ravi@example.com") {
		t.Error("subscribed before confirming")
	}
}

func TestNewsletterLinksOffWithoutTheOption(t *testing.T) {
	s, err := New(discardLog(), testBuild(), testCatalogue(t, 1, 2))
	if err != nil {
		t.Fatal(err)
	}
	if w := getPage(s.Handler(), linkQuery(newsletter.Unsubscribe, "ravi@example.com")); w.Code != http.StatusNotFound {
		t.Errorf("without WithNewsletter: %d", w.Code)
	}
}
