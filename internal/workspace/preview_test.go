package workspace

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"studio/internal/publish"
	"studio/internal/publish/repo"
	"studio/internal/store/testdb"
	"studio/internal/workspace/releases"
)

// The publisher is what cmd/studio gives the workspace as its previews.
var _ releases.Previews = (*publish.Publisher)(nil)

// fakePreviews is a publisher with a draft, which renders previews unless
// elsewhere says why not.
type fakePreviews struct {
	mu        sync.Mutex
	draft     repo.Commit
	isDraft   bool
	elsewhere error
}

func (f *fakePreviews) Draft() (repo.Commit, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.draft, f.isDraft, nil
}

func (f *fakePreviews) CanPreview() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.elsewhere
}

func setupPreviews(t *testing.T) (*Handler, *http.Cookie, *fakePreviews) {
	t.Helper()
	f := &fakePreviews{draft: commit("d1d1d1d1d1d1", "Summer tagline", "Asha"), isDraft: true}
	f.draft.Tree = "7e7e7e7e7e7e"
	h := setupOn(t, testdb.SQLite(t), func(o *Options) { o.Previews = f })
	return h, signIn(t, h, asha, ashaPassword), f
}

// previewing is h.Previewing of a request with cookies.
func previewing(h *Handler, cookies ...*http.Cookie) string {
	r, _ := http.NewRequest("GET", "/products", nil)
	for _, c := range cookies {
		r.AddCookie(c)
	}
	return h.Previewing(r)
}

func previewCookieOf(w *http.Response) *http.Cookie {
	for _, c := range w.Cookies() {
		if strings.HasSuffix(c.Name, "studio-preview") {
			return c
		}
	}
	return nil
}

func TestPreviewOpensThePageBeingEditedAtOnce(t *testing.T) {
	h, session, f := setupPreviews(t)
	w := do(h, "POST", "/studio/content/preview", url.Values{"page": {"/product/7"}}, withCookie(session))
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/product/7" {
		t.Fatalf("POST preview = %d to %q, want 303 to the page being edited", w.Code, w.Header().Get("Location"))
	}
	c := previewCookieOf(w.Result())
	if c == nil || c.Name != "studio-preview" || c.Value != "draft" || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.Secure {
		t.Fatalf("the preview cookie = %+v, want studio-preview=draft, HttpOnly, SameSite=Lax, Path=/, not Secure over HTTP", c)
	}
	if got := previewing(h, session, c); got != "7e7e7e7e7e7e" {
		t.Errorf("signed in with the cookie, Previewing = %q, want the draft's tree", got)
	}
	// A save moves the draft on: the same cookie shows the new tree.
	f.mu.Lock()
	f.draft = commit("e2e2e2e2e2e2", "Autumn tagline", "Asha")
	f.draft.Tree = "8f8f8f8f8f8f"
	f.mu.Unlock()
	if got := previewing(h, session, c); got != "8f8f8f8f8f8f" {
		t.Errorf("after a save, Previewing = %q, want the new tree", got)
	}
	secure := previewCookieOf(do(h, "POST", "/studio/content/preview", url.Values{}, withCookie(signIn(t, h, asha, ashaPassword, overTLS)), overTLS).Result())
	if secure == nil || secure.Name != "__Host-studio-preview" || !secure.Secure {
		t.Errorf("over HTTPS the cookie = %+v, want __Host-studio-preview, Secure", secure)
	}
}

func TestPreviewOpensOnlyAPageOfTheSite(t *testing.T) {
	h, session, _ := setupPreviews(t)
	for page, want := range map[string]string{
		"":                            "/",
		"/":                           "/",
		"/products":                   "/products",
		"/product/7/quote":            "/product/7/quote",
		"https://evil.example/":       "/",
		"//evil.example/product/7":    "/",
		"/\\evil.example":             "/",
		"product/7":                   "/",
		"/product/7?x=1":              "/",
		"/product/../studio/accounts": "/",
		"/studio/accounts":            "/",
		"/studio":                     "/",
		"/api/enquiries":              "/",
		"/products/":                  "/",
		"javascript:alert(1)":         "/",
	} {
		w := do(h, "POST", "/studio/content/preview", url.Values{"page": {page}}, withCookie(session))
		if got := w.Header().Get("Location"); w.Code != http.StatusSeeOther || got != want {
			t.Errorf("page %q: %d to %q, want %q", page, w.Code, got, want)
		}
	}
}

func TestACopyThatDoesNotBuildSaysSoAndSetsNoCookie(t *testing.T) {
	h, session, f := setupPreviews(t)
	f.elsewhere = publish.ErrPreviewElsewhere
	w := do(h, "POST", "/studio/content/preview", url.Values{"page": {"/product/7"}}, withCookie(session))
	body := html.UnescapeString(w.Body.String())
	if w.Code != http.StatusConflict || !strings.Contains(body, publish.ErrPreviewElsewhere.Error()) || previewCookieOf(w.Result()) != nil {
		t.Errorf("on a copy that does not build: %d %s %v; want 409 saying why, no cookie", w.Code, body, previewCookieOf(w.Result()))
	}
}

func TestPreviewingNeedsASessionAndTheDraftCookie(t *testing.T) {
	h, session, _ := setupPreviews(t)
	cookie := func(value string) *http.Cookie { return &http.Cookie{Name: "studio-preview", Value: value} }
	for name, cookies := range map[string][]*http.Cookie{
		"a forged cookie without a session":       {cookie("draft")},
		"a session without the cookie":            {session},
		"a cookie of an older server (a release)": {session, cookie("20260302-080000-aaaaaaa")},
		"a session that was signed out":           {signedOut(t, h), cookie("draft")},
	} {
		if got := previewing(h, cookies...); got != "" {
			t.Errorf("%s: Previewing = %q, want none", name, got)
		}
	}
	if w := do(h, "POST", "/studio/content/preview", url.Values{}); w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/studio" || previewCookieOf(w.Result()) != nil {
		t.Errorf("POST preview without a session = %d to %q; want the sign-in and no cookie", w.Code, w.Header().Get("Location"))
	}
}

// signedOut is the cookie of a session that has ended.
func signedOut(t *testing.T, h *Handler) *http.Cookie {
	t.Helper()
	c := signIn(t, h, ravi, raviPassword)
	do(h, "POST", "/studio/sign-out", url.Values{}, withCookie(c))
	return c
}

func TestLeavingThePreviewForgetsItsCookie(t *testing.T) {
	h, session, _ := setupPreviews(t)
	for _, method := range []string{"POST", "GET"} {
		w := do(h, method, "/studio/preview/leave", url.Values{}, withCookie(session), withCookie(&http.Cookie{Name: "studio-preview", Value: "ready"}))
		c := previewCookieOf(w.Result())
		if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/studio/content" || c == nil || c.MaxAge >= 0 || c.Value != "" {
			t.Errorf("%s leave = %d to %q, cookie %+v; want the cookie cleared and back to the content", method, w.Code, w.Header().Get("Location"), c)
		}
	}
}

// SignedIn is true of a live session only: the analytics leave out what
// it is true of.
func TestSignedInIsALiveSessionOnly(t *testing.T) {
	h, session, _ := setupPreviews(t)
	signedIn := func(cookies ...*http.Cookie) bool {
		r, _ := http.NewRequest("POST", "/api/events", nil)
		for _, c := range cookies {
			r.AddCookie(c)
		}
		return h.SignedIn(r)
	}
	if !signedIn(session) {
		t.Error("a live session: SignedIn = false")
	}
	for name, cookies := range map[string][]*http.Cookie{
		"no cookie":            nil,
		"a forged cookie":      {{Name: session.Name, Value: "forged"}},
		"a signed-out session": {signedOut(t, h)},
	} {
		if signedIn(cookies...) {
			t.Errorf("%s: SignedIn = true", name)
		}
	}
}

func TestAProductsFormPreviewsItsPage(t *testing.T) {
	f := &fakePreviews{draft: commit("d1d1d1d1d1d1", "Summer tagline", "Asha"), isDraft: true}
	rig := setupEditorOn(t, editorContent, func(o *Options) { o.Previews = f })
	body := do(rig.h, "GET", "/studio/content/products/2", nil, withCookie(rig.asha)).Body.String()
	form := `<form method="post" action="/studio/content/preview" class="actions"><input type="hidden" name="page" value="/product/2"><button class="quiet">Preview the saved product</button></form>`
	if !strings.Contains(body, form) {
		t.Fatalf("a product's form has no preview of its page:\n%s", body)
	}
	w := do(rig.h, "POST", "/studio/content/preview", url.Values{"page": {"/product/2"}}, withCookie(rig.asha))
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/product/2" {
		t.Errorf("its button = %d to %q, want the product's page", w.Code, w.Header().Get("Location"))
	}
	// Without previews, no button.
	without := setupEditor(t)
	if w := do(without.h, "GET", "/studio/content/products/2", nil, withCookie(without.asha)); w.Code != 200 || strings.Contains(w.Body.String(), "Preview the saved product") {
		t.Errorf("a server without previews: %d, offering one: %t", w.Code, strings.Contains(w.Body.String(), "Preview the saved product"))
	}
}
