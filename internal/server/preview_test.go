package server

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"studio/internal/publish/releases"
	"studio/internal/publish/repo"
	"studio/internal/sitecontent"
	"studio/internal/store/testdb"
	"studio/internal/workspace"
	"studio/internal/workspace/accounts"
	"studio/internal/workspace/page"
)

// fakePreviews is a publisher with one ready preview, one building, and a
// ready release of main.
type fakePreviews struct{}

var previewRecords = map[string]releases.Release{
	"preview-ready":    {ID: "preview-ready", Preview: true, Status: releases.Ready},
	"preview-building": {ID: "preview-building", Preview: true, Status: releases.Building},
	"main-ready":       {ID: "main-ready", Status: releases.Ready},
}

func (fakePreviews) Draft() (repo.Commit, bool, error) { return repo.Commit{}, true, nil }
func (fakePreviews) Preview(repo.Commit) (string, error) {
	return "", errors.New("not in these tests")
}
func (fakePreviews) Release(id string) (releases.Release, error) {
	if r, ok := previewRecords[id]; ok {
		return r, nil
	}
	return releases.Release{}, errors.New("no such release")
}

// draftPage is the preview's home page as the front end writes one: its
// body starts with the skip link, and an inline script needs its hash.
const draftPage = `<!DOCTYPE html><html lang="en"><head><title>Draft</title></head><body><a class="skip-link" href="#main">Skip to content</a><main id="main"><h1>draft home</h1></main><script>hydrate()</script></body></html>`

// previewBuild is the live test build with the draft's home page, and
// variants of it that would leave the banner out if they were sent.
func previewBuild() fstest.MapFS {
	build := maps.Clone(testBuild())
	build["index.html"] = &fstest.MapFile{Data: []byte(draftPage)}
	build["index.html.gz"] = &fstest.MapFile{Data: gzipped(draftPage)}
	build["index.html.br"] = &fstest.MapFile{Data: []byte("BR-draft")}
	build[notFoundPage] = &fstest.MapFile{Data: []byte(strings.Replace(draftPage, "draft home", "draft home, not found", 1))}
	return build
}

// newPreviewServer is the site with the workspace, one account, and
// previews whose releases are previewBuild; loads counts their loads.
func newPreviewServer(t *testing.T) (h http.Handler, session *http.Cookie, loads *atomic.Int32) {
	t.Helper()
	st := testdb.SQLite(t)
	hash, err := accounts.HashPassword(staffPassword)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateAccount(context.Background(), staffEmail, hash, time.Now()); err != nil {
		t.Fatal(err)
	}
	log := discardLog()
	ws := workspace.New(st, log, workspace.Options{Previews: fakePreviews{}, Visitor: page.Visitor{
		IP:      func(r *http.Request) string { return VisitorKey(r, nil) },
		IsHTTPS: func(r *http.Request) bool { return false },
	}})
	content := testCatalogue(t, 1, 2)
	loads = new(atomic.Int32)
	load := func(id string) (fs.FS, *sitecontent.Content, error) {
		loads.Add(1)
		return previewBuild(), content, nil
	}
	s, err := New(log, testBuild(), content, WithStore(st), WithWorkspace(ws), WithPreviews(load))
	if err != nil {
		t.Fatal(err)
	}
	h = s.Handler()
	return h, signIn(t, h), loads
}

func get(h http.Handler, method, path string, cookies ...*http.Cookie) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, nil)
	r.Header.Set("Accept-Encoding", "br, gzip")
	for _, c := range cookies {
		r.AddCookie(c)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func previewCookie(id string) *http.Cookie { return &http.Cookie{Name: "studio-preview", Value: id} }

func TestOnlyASignedInPreviewSeesThePreview(t *testing.T) {
	h, session, _ := newPreviewServer(t)
	for _, path := range []string{"/", "/products", "/product/1", "/no-such-page", "/assets/app-abc123.js", "/_root.data"} {
		live := get(h, "GET", path)
		for name, cookies := range map[string][]*http.Cookie{
			"a forged preview cookie without a session": {previewCookie("preview-ready")},
			"a session without a preview cookie":        {session},
			"a cookie naming a preview still building":  {session, previewCookie("preview-building")},
			"a cookie naming a release of main":         {session, previewCookie("main-ready")},
			"a cookie naming no release":                {session, previewCookie("../../etc")},
		} {
			w := get(h, "GET", path, cookies...)
			if w.Code != live.Code || w.Body.String() != live.Body.String() || !equalHeaders(w.Header(), live.Header()) {
				t.Errorf("%s, GET %s: %d %v %q; want the live answer, byte for byte: %d %v %q",
					name, path, w.Code, w.Header(), w.Body, live.Code, live.Header(), live.Body)
			}
		}
	}
}

func equalHeaders(a, b http.Header) bool {
	return maps.EqualFunc(a, b, func(x, y []string) bool { return strings.Join(x, "\n") == strings.Join(y, "\n") })
}

func TestAPreviewPageHasTheBanner(t *testing.T) {
	h, session, loads := newPreviewServer(t)
	cookies := []*http.Cookie{session, previewCookie("preview-ready")}
	live := get(h, "GET", "/")
	w := get(h, "GET", "/", cookies...)
	body := w.Body.String()
	if w.Code != 200 || !strings.Contains(body, "<body>"+string(banner)+`<a class="skip-link"`) || !strings.Contains(body, "draft home") {
		t.Fatalf("previewing GET / = %d %q, want the draft's page with the banner first in its body", w.Code, body)
	}
	for _, text := range []string{"Preview of unpublished changes", `<a href="/studio/content">Back to the workspace</a>`, `action="/studio/preview/leave"`, "Leave preview"} {
		if !strings.Contains(body, text) {
			t.Errorf("the banner has no %s", text)
		}
	}
	hd := w.Header()
	if hd.Get("Cache-Control") != "no-store" || hd.Get("X-Robots-Tag") != "noindex" || hd.Get("Etag") != "" || hd.Get("Content-Encoding") != "" ||
		hd.Get("Content-Length") != strconv.Itoa(len(body)) || hd.Get("Studio-Release") != "preview-ready" {
		t.Errorf("preview headers: %v; want no-store, noindex, no ETag, not compressed, its length, the preview's id", hd)
	}
	csp := hd.Get("Content-Security-Policy")
	if !strings.Contains(csp, "style-src 'self' "+bannerStyle+";") || !strings.Contains(csp, "script-src 'self' 'sha256-") {
		t.Errorf("preview CSP %q: want the banner's style and the page's script allowed", csp)
	}
	if strings.Contains(live.Header().Get("Content-Security-Policy"), bannerStyle) {
		t.Error("the live page's policy allows the banner's style")
	}

	// The browser's copy of a live page the draft left unchanged is not
	// what it is shown: that has no banner.
	unchanged := get(h, "GET", "/products")
	withETag := httptest.NewRequest("GET", "/products", nil)
	withETag.Header.Set("Accept-Encoding", "br, gzip")
	withETag.Header.Set("If-None-Match", unchanged.Header().Get("Etag"))
	for _, c := range cookies {
		withETag.AddCookie(c)
	}
	revalidated := httptest.NewRecorder()
	h.ServeHTTP(revalidated, withETag)
	if revalidated.Code != 200 {
		t.Errorf("previewing with the live page's ETag: %d, want the preview's page", revalidated.Code)
	}
	if head := get(h, "HEAD", "/", cookies...); head.Header().Get("Content-Length") != hd.Get("Content-Length") {
		t.Errorf("HEAD's length %s, GET's %s", head.Header().Get("Content-Length"), hd.Get("Content-Length"))
	}
	if w := get(h, "GET", "/no-such-page", cookies...); w.Code != 404 || !strings.Contains(w.Body.String(), "Preview of unpublished changes") {
		t.Errorf("previewing a page that does not exist: %d, want the not-found page with the banner", w.Code)
	}
	asset := get(h, "GET", "/assets/app-abc123.js", cookies...)
	if asset.Body.String() != "console.log(1)" || asset.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("previewing an asset: %q, %v; want it as it is, not stored", asset.Body, asset.Header())
	}
	if studio := get(h, "GET", "/studio", cookies...); strings.Contains(studio.Body.String(), "Preview of unpublished changes") || studio.Header().Get("Studio-Release") == "preview-ready" {
		t.Error("the workspace is answered from the preview")
	}
	if n := loads.Load(); n != 1 {
		t.Errorf("the preview was loaded %d times, want once", n)
	}
}

func TestLeavingThePreviewShowsTheLiveSite(t *testing.T) {
	h, session, _ := newPreviewServer(t)
	w := postForm(h, "/studio/preview/leave", url.Values{}, func(r *http.Request) {
		r.AddCookie(session)
		r.AddCookie(previewCookie("preview-ready"))
	})
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/studio/content" {
		t.Errorf("leave = %d to %q, want 303 to /studio/content", w.Code, w.Header().Get("Location"))
	}
	var cleared bool
	for _, c := range w.Result().Cookies() {
		cleared = cleared || c.Name == "studio-preview" && c.MaxAge < 0
	}
	if !cleared {
		t.Fatalf("leave set %v, want the preview cookie cleared", w.Result().Cookies())
	}
	// The browser no longer sends it.
	if body := get(h, "GET", "/", session).Body.String(); strings.Contains(body, "Preview of unpublished changes") {
		t.Error("after leaving, the preview is still shown")
	}
}
