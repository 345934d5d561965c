package workspace

import (
	"errors"
	"html"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"studio/internal/publish"
	published "studio/internal/publish/releases"
	"studio/internal/publish/repo"
	"studio/internal/store/testdb"
	"studio/internal/workspace/releases"
)

// The publisher is what cmd/studio gives the workspace as its previews.
var _ releases.Previews = (*publish.Publisher)(nil)

// fakePreviews is a publisher whose previews build when the test says.
type fakePreviews struct {
	mu       sync.Mutex
	draft    repo.Commit
	isDraft  bool
	releases map[string]published.Release
	asked    int
}

func (f *fakePreviews) Draft() (repo.Commit, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.draft, f.isDraft, nil
}

func (f *fakePreviews) Preview(c repo.Commit) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked++
	id := "20260302-090000-" + c.Hash[:7]
	f.releases[id] = published.Release{ID: id, Commit: c, Preview: true, Status: published.Building, Stage: "prerendering the pages"}
	return id, nil
}

func (f *fakePreviews) Release(id string) (published.Release, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r, ok := f.releases[id]; ok {
		return r, nil
	}
	return published.Release{}, errors.New("no such release")
}

// set changes release id as its build would.
func (f *fakePreviews) set(id string, change func(*published.Release)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := f.releases[id]
	change(&r)
	f.releases[id] = r
}

func setupPreviews(t *testing.T) (*Handler, *http.Cookie, *fakePreviews) {
	t.Helper()
	f := &fakePreviews{draft: commit("d1d1d1d1d1d1", "Summer tagline", "Asha"), isDraft: true, releases: map[string]published.Release{
		"20260302-080000-aaaaaaa": {ID: "20260302-080000-aaaaaaa", Commit: commit("aaaaaaa1111", "Main", "Asha"), Status: published.Ready},
	}}
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

func TestAPreviewOfTheDraftOpensOnceBuilt(t *testing.T) {
	h, session, f := setupPreviews(t)
	w := do(h, "POST", "/studio/content/preview", url.Values{}, withCookie(session))
	id := "20260302-090000-d1d1d1d"
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/studio/content/preview?id="+id {
		t.Fatalf("POST preview = %d to %q", w.Code, w.Header().Get("Location"))
	}
	page := do(h, "GET", w.Header().Get("Location"), nil, withCookie(session))
	body := html.UnescapeString(page.Body.String())
	if page.Code != 200 || !strings.Contains(body, "Building the preview — prerendering the pages.") ||
		!strings.Contains(body, `<a href="/studio/content/preview?id=`+id+`">Check again</a>`) || strings.Contains(body, "Open the preview") {
		t.Errorf("while it builds: %d %s", page.Code, body)
	}
	if c := previewCookieOf(page.Result()); c != nil {
		t.Errorf("a preview still building set the cookie %v", c)
	}

	f.set(id, func(r *published.Release) { r.Status, r.Stage = published.Ready, "" })
	page = do(h, "GET", "/studio/content/preview?id="+id, nil, withCookie(session))
	if !strings.Contains(page.Body.String(), `<a class="button" href="/">Open the preview</a>`) {
		t.Errorf("ready: %s", page.Body)
	}
	c := previewCookieOf(page.Result())
	if c == nil || c.Name != "studio-preview" || c.Value != id || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.Secure {
		t.Fatalf("the preview cookie = %+v, want studio-preview=%s, HttpOnly, SameSite=Lax, Path=/, not Secure over HTTP", c, id)
	}
	if got := previewing(h, session, c); got != id {
		t.Errorf("signed in with the cookie, Previewing = %q, want %q", got, id)
	}
	secure := previewCookieOf(do(h, "GET", "/studio/content/preview?id="+id, nil, withCookie(signIn(t, h, asha, ashaPassword, overTLS)), overTLS).Result())
	if secure == nil || secure.Name != "__Host-studio-preview" || !secure.Secure {
		t.Errorf("over HTTPS the cookie = %+v, want __Host-studio-preview, Secure", secure)
	}

	// The draft moves on: the page says so and offers a new preview.
	f.mu.Lock()
	f.draft = commit("e2e2e2e2e2e2", "Autumn tagline", "Asha")
	f.mu.Unlock()
	body = do(h, "GET", "/studio/content/preview?id="+id, nil, withCookie(session)).Body.String()
	if !strings.Contains(body, "The draft has changed since this preview was made.") || !strings.Contains(body, `action="/studio/content/preview"`) {
		t.Errorf("after the draft changed: %s", body)
	}
}

func TestPreviewingNeedsASessionAndAReadyPreview(t *testing.T) {
	h, session, f := setupPreviews(t)
	f.releases["ready"] = published.Release{ID: "ready", Preview: true, Status: published.Ready}
	f.releases["failed"] = published.Release{ID: "failed", Preview: true, Status: published.Failed}
	cookie := func(id string) *http.Cookie { return &http.Cookie{Name: "studio-preview", Value: id} }
	for name, cookies := range map[string][]*http.Cookie{
		"a forged cookie without a session": {cookie("ready")},
		"a session without the cookie":      {session},
		"a failed preview":                  {session, cookie("failed")},
		"a release of main":                 {session, cookie("20260302-080000-aaaaaaa")},
		"no such release":                   {session, cookie("gone")},
		"a session that was signed out":     {signedOut(t, h), cookie("ready")},
	} {
		if got := previewing(h, cookies...); got != "" {
			t.Errorf("%s: Previewing = %q, want none", name, got)
		}
	}
	if w := do(h, "POST", "/studio/content/preview", url.Values{}); w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/studio" || f.asked != 0 {
		t.Errorf("POST preview without a session = %d to %q, %d builds; want the sign-in and none", w.Code, w.Header().Get("Location"), f.asked)
	}
}

// signedOut is the cookie of a session that has ended.
func signedOut(t *testing.T, h *Handler) *http.Cookie {
	t.Helper()
	c := signIn(t, h, ravi, raviPassword)
	do(h, "POST", "/studio/sign-out", url.Values{}, withCookie(c))
	return c
}

func TestAPreviewPageSaysWhatItShows(t *testing.T) {
	h, session, f := setupPreviews(t)
	f.releases["failed"] = published.Release{ID: "failed", Commit: f.draft, Preview: true, Status: published.Failed,
		Problems: []string{"site.json: tagline: empty"}}
	body := do(h, "GET", "/studio/content/preview?id=failed", nil, withCookie(session)).Body.String()
	if !strings.Contains(body, "The preview could not be built: 1 problem in the draft.") || !strings.Contains(body, "<li>site.json: tagline: empty</li>") ||
		!strings.Contains(body, "Preview the draft as it is now") {
		t.Errorf("a failed preview: %s", body)
	}
	w := do(h, "GET", "/studio/content/preview?id=gone", nil, withCookie(session))
	if w.Code != http.StatusNotFound || !strings.Contains(html.UnescapeString(w.Body.String()), "There is no preview “gone”") {
		t.Errorf("a preview that is gone: %d %s", w.Code, w.Body)
	}
	// Nothing unpublished: the preview is of main.
	f.isDraft = false
	f.draft = commit("aaaaaaa1111", "Main", "Asha")
	id := strings.TrimPrefix(do(h, "POST", "/studio/content/preview", url.Values{}, withCookie(session)).Header().Get("Location"), "/studio/content/preview?id=")
	if body := do(h, "GET", "/studio/content/preview?id="+id, nil, withCookie(session)).Body.String(); !strings.Contains(body, "Nothing unpublished: this is the live content.") {
		t.Errorf("a preview of main: %s", body)
	}
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
