package server

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"studio/internal/publish/repo"
	"studio/internal/sitecontent"
	"studio/internal/store/testdb"
	"studio/internal/workspace"
	"studio/internal/workspace/accounts"
	"studio/internal/workspace/page"
)

// fakePreviews is the publisher as the workspace's previews see it: a
// draft whose tree the test sets (a save).
type fakePreviews struct {
	mu   sync.Mutex
	tree string
}

func (f *fakePreviews) Draft() (repo.Commit, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return repo.Commit{Hash: "c0ffee", Tree: f.tree}, true, nil
}

func (f *fakePreviews) CanPreview() error { return nil }

func (f *fakePreviews) save(tree string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tree = tree
}

// fakeDrafts renders the draft as the publisher would: each page of
// draftPaths says its tree and path; any other path is the not-found
// page. The tree "broken" fails the content check; a render fails while
// the test says crash.
type fakeDrafts struct {
	mu      sync.Mutex
	renders map[string]int // by "tree path"
	crash   int            // renders still to fail
	images  []string       // the images made, by name
	dir     string         // where they are made
}

// draftPaths are the draft's pages: /product/3 is new in it.
var draftPaths = map[string]bool{"/": true, "/products": true, "/product/1": true, "/product/3": true}

// draftProblem is the content check's line for the tree "broken", with
// markup that must be shown as text.
const draftProblem = "content/catalogue.json: products[0].name: <b>empty</b>"

func draftHTML(tree, path string) string {
	return `<!DOCTYPE html><html lang="en"><head><title>Draft</title></head><body><a class="skip-link" href="#main">Skip to content</a><main id="main"><h1>draft ` +
		tree + " " + path + `</h1></main><script>hydrate()</script></body></html>`
}

func draftData(tree, path string) string { return fmt.Sprintf(`[{"tree":%q,"path":%q}]`, tree, path) }

func (f *fakeDrafts) Page(ctx context.Context, tree, path string) (Page, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.renders[tree+" "+path]++
	switch {
	case tree == "broken":
		return Page{}, &DraftProblems{Problems: []string{draftProblem, "content/site.json: tagline: is empty"}}
	case f.crash > 0:
		f.crash--
		return Page{}, errors.New("the renderer stopped: it ran out of memory")
	case path == "/search-index.json":
		return Page{Status: 200, Type: "application/json", Body: []byte(`["` + tree + `"]`)}, nil
	case !draftPaths[path]:
		return Page{Status: 404, Type: "text/html; charset=utf-8", Body: []byte(draftHTML(tree, "not found") + notFoundHTML("/__not-found"))}, nil
	}
	return Page{Status: 200, Type: "text/html; charset=utf-8", Body: []byte(draftHTML(tree, path)), Data: []byte(draftData(tree, path))}, nil
}

func (f *fakeDrafts) Image(ctx context.Context, tree, name string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.images = append(f.images, name)
	file := filepath.Join(f.dir, filepath.Base(name))
	return file, os.WriteFile(file, []byte("WEBP of "+tree), 0o644)
}

// Asset is the renderer's bundle: it holds only assets/entry.client-new.js.
func (f *fakeDrafts) Asset(name string) (string, error) {
	if name != "assets/entry.client-new.js" {
		return "", os.ErrNotExist
	}
	file := filepath.Join(f.dir, "entry.client-new.js")
	return file, os.WriteFile(file, []byte("the renderer's code"), 0o644)
}

func (f *fakeDrafts) Content(tree string) (*sitecontent.Content, error) {
	return sitecontent.New(testSite, nil)
}

// rendered is how many times tree's path was rendered.
func (f *fakeDrafts) rendered(tree, path string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.renders[tree+" "+path]
}

type previewSite struct {
	h        http.Handler
	session  *http.Cookie
	previews *fakePreviews
	drafts   *fakeDrafts
}

// previewing is the cookies of a signed-in browser that asked for the preview.
func (s previewSite) previewing() []*http.Cookie {
	return []*http.Cookie{s.session, previewCookie("draft")}
}

// newPreviewServer is the site with the workspace, one account, and a
// draft of tree "t1" rendered by fakeDrafts.
func newPreviewServer(t *testing.T) previewSite {
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
	previews := &fakePreviews{tree: "t1"}
	ws := workspace.New(st, log, workspace.Options{Previews: previews, Visitor: page.Visitor{
		IP:      func(r *http.Request) string { return VisitorKey(r, nil) },
		IsHTTPS: func(r *http.Request) bool { return false },
	}})
	drafts := &fakeDrafts{renders: map[string]int{}, dir: t.TempDir()}
	s, err := New(log, testBuild(), testCatalogue(t, 1, 2), WithStore(st), WithWorkspace(ws), WithPreviews(drafts))
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	return previewSite{h: h, session: signIn(t, h), previews: previews, drafts: drafts}
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

func previewCookie(value string) *http.Cookie {
	return &http.Cookie{Name: "studio-preview", Value: value}
}

func TestOnlyASignedInPreviewSeesTheDraft(t *testing.T) {
	s := newPreviewServer(t)
	for _, path := range []string{"/", "/products", "/product/1", "/product/3", "/no-such-page", "/assets/app-abc123.js", "/_root.data"} {
		live := get(s.h, "GET", path)
		for name, cookies := range map[string][]*http.Cookie{
			"a forged preview cookie without a session":         {previewCookie("draft")},
			"a session without a preview cookie":                {s.session},
			"a cookie of an older server, naming a release":     {s.session, previewCookie("20260302-080000-aaaaaaa")},
			"a cookie naming something else":                    {s.session, previewCookie("../../etc")},
			"a session cookie that names no session, and draft": {{Name: s.session.Name, Value: "forged"}, previewCookie("draft")},
		} {
			w := get(s.h, "GET", path, cookies...)
			if w.Code != live.Code || w.Body.String() != live.Body.String() || !equalHeaders(w.Header(), live.Header()) {
				t.Errorf("%s, GET %s: %d %v %q; want the live answer, byte for byte: %d %v %q",
					name, path, w.Code, w.Header(), w.Body, live.Code, live.Header(), live.Body)
			}
		}
	}
	if n := len(s.drafts.renders); n != 0 {
		t.Errorf("%d pages of the draft rendered for those who do not preview it", n)
	}
}

func equalHeaders(a, b http.Header) bool {
	return maps.EqualFunc(a, b, func(x, y []string) bool { return strings.Join(x, "\n") == strings.Join(y, "\n") })
}

func TestADraftPageIsRenderedOnRequestUnderTheBanner(t *testing.T) {
	s := newPreviewServer(t)
	live := get(s.h, "GET", "/product/1")
	w := get(s.h, "GET", "/product/1", s.previewing()...)
	body := w.Body.String()
	if w.Code != 200 || !strings.Contains(body, "<body>"+string(banner)+`<a class="skip-link"`) || !strings.Contains(body, "draft t1 /product/1") {
		t.Fatalf("previewing GET /product/1 = %d %q, want the draft's page with the banner first in its body", w.Code, body)
	}
	for _, text := range []string{"Preview of unpublished changes", `<a href="/studio/content">Back to the workspace</a>`, `action="/studio/preview/leave"`, "Leave preview"} {
		if !strings.Contains(body, text) {
			t.Errorf("the banner has no %s", text)
		}
	}
	hd := w.Header()
	if hd.Get("Cache-Control") != "no-store" || hd.Get("X-Robots-Tag") != "noindex" || hd.Get("Etag") != "" || hd.Get("Content-Encoding") != "" ||
		hd.Get("Content-Length") != strconv.Itoa(len(body)) || hd.Get("Studio-Release") != "draft-t1" || hd.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("preview headers: %v; want no-store, noindex, no ETag, not compressed, its length, the draft's tree, HTML", hd)
	}
	csp := hd.Get("Content-Security-Policy")
	if !strings.Contains(csp, "style-src 'self' "+bannerStyle+";") || !strings.Contains(csp, "script-src 'self' "+inlineHashes([]byte(draftHTML("t1", "/product/1")), "script")[0]) {
		t.Errorf("preview CSP %q: want the banner's style and the page's script allowed", csp)
	}
	if strings.Contains(live.Header().Get("Content-Security-Policy"), bannerStyle) || strings.Contains(live.Body.String(), "draft") {
		t.Error("the live page has the draft's policy or text")
	}
	// A product that is new in the draft has its page.
	if w := get(s.h, "GET", "/product/3", s.previewing()...); w.Code != 200 || !strings.Contains(w.Body.String(), "draft t1 /product/3") {
		t.Errorf("a product new in the draft: %d %q", w.Code, w.Body)
	}
	if head := get(s.h, "HEAD", "/product/1", s.previewing()...); head.Header().Get("Content-Length") != hd.Get("Content-Length") {
		t.Errorf("HEAD's length %s, GET's %s", head.Header().Get("Content-Length"), hd.Get("Content-Length"))
	}
	// A resource route the content makes is the draft's too, with no banner.
	if w := get(s.h, "GET", "/search-index.json", s.previewing()...); w.Body.String() != `["t1"]` || w.Header().Get("Content-Type") != "application/json" {
		t.Errorf("the draft's search index: %q %v", w.Body, w.Header())
	}
	// The code's files, the sitemap and robots.txt are the live release's.
	asset := get(s.h, "GET", "/assets/app-abc123.js", s.previewing()...)
	if asset.Body.String() != "console.log(1)" || asset.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("previewing an asset: %q, %v; want it as it is, not stored", asset.Body, asset.Header())
	}
	for _, path := range []string{"/sitemap.xml", "/robots.txt", "/images/hero.svg"} {
		live := httptest.NewRecorder()
		s.h.ServeHTTP(live, httptest.NewRequest("GET", path, nil)) // not compressed, as a preview's
		if w := get(s.h, "GET", path, s.previewing()...); w.Code != 200 || w.Body.String() != live.Body.String() {
			t.Errorf("previewing %s: %d %q, want the live file %q", path, w.Code, w.Body, live.Body)
		}
	}
	if studio := get(s.h, "GET", "/studio", s.previewing()...); strings.Contains(studio.Body.String(), "Preview of unpublished changes") || strings.HasPrefix(studio.Header().Get("Studio-Release"), "draft") {
		t.Error("the workspace is answered from the preview")
	}
}

func TestADraftPageIsKeptByTreeAndPath(t *testing.T) {
	s := newPreviewServer(t)
	first := get(s.h, "GET", "/product/1", s.previewing()...)
	again := get(s.h, "GET", "/product/1", s.previewing()...)
	data := get(s.h, "GET", "/product/1.data", s.previewing()...)
	if first.Body.String() != again.Body.String() || data.Body.String() != draftData("t1", "/product/1") {
		t.Fatalf("the page again: %q, its data %q", again.Body, data.Body)
	}
	if n := s.drafts.rendered("t1", "/product/1"); n != 1 {
		t.Errorf("the page, again and its data: rendered %d times, want once", n)
	}
	// A save: the same path of the new tree is rendered again.
	s.previews.save("t2")
	if w := get(s.h, "GET", "/product/1", s.previewing()...); !strings.Contains(w.Body.String(), "draft t2 /product/1") || w.Header().Get("Studio-Release") != "draft-t2" {
		t.Errorf("after a save: %q, want the new tree's page", w.Body)
	}
	if n := s.drafts.rendered("t2", "/product/1"); n != 1 {
		t.Errorf("the new tree's page rendered %d times, want once", n)
	}
}

func TestTheRouteDataIsTheDrafts(t *testing.T) {
	s := newPreviewServer(t)
	for path, want := range map[string]string{
		"/_root.data":    draftData("t1", "/"),
		"/products.data": draftData("t1", "/products"),
		"/product/1.data?_routes=routes%2Fproduct": draftData("t1", "/product/1"),
		"/product/3.data?_routes=root":             draftData("t1", "/product/3"),
	} {
		w := get(s.h, "GET", path, s.previewing()...)
		if w.Code != 200 || w.Body.String() != want || w.Header().Get("Content-Type") != contentTypes[".data"] || w.Header().Get("Cache-Control") != "no-store" {
			t.Errorf("previewing %s: %d %q %v, want the draft's data %q", path, w.Code, w.Body, w.Header(), want)
		}
	}
}

func TestAPathThatIsNoDraftPageIsTheNotFoundPage(t *testing.T) {
	s := newPreviewServer(t)
	w := get(s.h, "GET", "/no-such-page", s.previewing()...)
	if w.Code != 404 || !strings.Contains(w.Body.String(), "draft t1 not found") || !strings.Contains(w.Body.String(), "Preview of unpublished changes") {
		t.Errorf("previewing a page that does not exist: %d %q, want the draft's not-found page with the banner", w.Code, w.Body)
	}
	if w := get(s.h, "GET", "/no-such-page.data", s.previewing()...); w.Code != 404 || strings.Contains(w.Body.String(), "<html") {
		t.Errorf("its data: %d %q, want a short 404", w.Code, w.Body)
	}
	if w := get(s.h, "GET", "/products/?page=2", s.previewing()...); w.Code != http.StatusMovedPermanently || w.Header().Get("Location") != "/products?page=2" {
		t.Errorf("a path with a trailing slash: %d to %q, want the page's one URL", w.Code, w.Header().Get("Location"))
	}
}

func TestADraftThatFailsTheCheckShowsItsProblems(t *testing.T) {
	s := newPreviewServer(t)
	s.previews.save("broken")
	w := get(s.h, "GET", "/product/1", s.previewing()...)
	body := w.Body.String()
	if w.Code != 200 || !strings.Contains(body, "<body>"+string(banner)) || !strings.Contains(body, "The draft has 2 problems") ||
		!strings.Contains(body, "<li>content/catalogue.json: products[0].name: &lt;b&gt;empty&lt;/b&gt;</li>") || !strings.Contains(body, "<li>content/site.json: tagline: is empty</li>") {
		t.Fatalf("a draft that fails the check: %d %q, want its problems where the page would be, under the banner", w.Code, body)
	}
	csp := w.Header().Get("Content-Security-Policy")
	for _, style := range inlineHashes(w.Body.Bytes(), "style") {
		if !strings.Contains(csp, style) {
			t.Errorf("the problems page's CSP %q does not allow its style %s", csp, style)
		}
	}
	if live := get(s.h, "GET", "/product/1"); live.Code != 200 || strings.Contains(live.Body.String(), "problem") {
		t.Errorf("the live page with a broken draft: %d %q", live.Code, live.Body)
	}
}

func TestAFailedRenderIs503AndTheNextRequestRendersAgain(t *testing.T) {
	s := newPreviewServer(t)
	s.drafts.crash = 1
	w := get(s.h, "GET", "/product/1", s.previewing()...)
	body := w.Body.String()
	if w.Code != http.StatusServiceUnavailable || !strings.Contains(body, "<body>"+string(banner)) ||
		!strings.Contains(body, "The preview could not be made: the renderer stopped: it ran out of memory") || w.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("a failed render: %d %v %q, want 503 saying why under the banner, not stored", w.Code, w.Header(), body)
	}
	if live := get(s.h, "GET", "/product/1"); live.Code != 200 || live.Body.String() != "<h1>product 1</h1>" {
		t.Errorf("the live page after a failed render: %d %q", live.Code, live.Body)
	}
	if w := get(s.h, "GET", "/product/1", s.previewing()...); w.Code != 200 || !strings.Contains(w.Body.String(), "draft t1 /product/1") {
		t.Errorf("the next request: %d %q, want the page rendered", w.Code, w.Body)
	}
	if n := s.drafts.rendered("t1", "/product/1"); n != 2 {
		t.Errorf("rendered %d times, want twice: a failure is not kept", n)
	}
}

func TestADraftsNewImageIsMadeOnRequest(t *testing.T) {
	s := newPreviewServer(t)
	live := "/images/products/chair.0123456789ab.640w.avif"
	if w := get(s.h, "GET", live, s.previewing()...); w.Body.String() != photoBytes {
		t.Errorf("an image the live release has: %q, want it", w.Body)
	}
	made := "/images/products/stool.fedcba987654.640w.webp"
	w := get(s.h, "GET", made, s.previewing()...)
	if w.Code != 200 || w.Body.String() != "WEBP of t1" || w.Header().Get("Content-Type") != "image/webp" || w.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("an image new in the draft: %d %q %v", w.Code, w.Body, w.Header())
	}
	if w := get(s.h, "GET", "/images/../studio/x.fedcba987654.webp", s.previewing()...); w.Code == 200 {
		t.Errorf("an image path out of images/: %d", w.Code)
	}
	if got := strings.Join(s.drafts.images, ","); got != strings.TrimPrefix(made, "/") {
		t.Errorf("images made: %s, want only the new one", got)
	}
	if w := get(s.h, "GET", made); w.Code != 404 {
		t.Errorf("the draft's image without the preview: %d, want 404", w.Code)
	}
}

// The draft's pages are rendered with the renderer's bundle, whose code
// files a live release built by other code has not: they come from it.
func TestACodeFileTheLiveReleaseHasNotComesFromTheRenderer(t *testing.T) {
	s := newPreviewServer(t)
	w := get(s.h, "GET", "/assets/entry.client-new.js", s.previewing()...)
	if w.Code != 200 || w.Body.String() != "the renderer's code" || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/javascript") {
		t.Errorf("the renderer's code file: %d %q %v", w.Code, w.Body, w.Header())
	}
	if w := get(s.h, "GET", "/assets/entry.client-gone.js", s.previewing()...); w.Code != 404 {
		t.Errorf("a code file neither has: %d, want 404", w.Code)
	}
	if w := get(s.h, "GET", "/assets/entry.client-new.js"); w.Code != 404 {
		t.Errorf("the renderer's code file without the preview: %d, want 404", w.Code)
	}
}

func TestLeavingThePreviewShowsTheLiveSite(t *testing.T) {
	s := newPreviewServer(t)
	w := postForm(s.h, "/studio/preview/leave", url.Values{}, func(r *http.Request) {
		r.AddCookie(s.session)
		r.AddCookie(previewCookie("draft"))
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
	if body := get(s.h, "GET", "/", s.session).Body.String(); strings.Contains(body, "Preview of unpublished changes") {
		t.Error("after leaving, the preview is still shown")
	}
}

// A draft's not-found page names the path asked for, as the live one does.
func TestAPreviewsNotFoundPageNamesThePath(t *testing.T) {
	s := newPreviewServer(t)
	w := get(s.h, "GET", "/no/such-page", s.previewing()...)
	if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), notFoundHTML("/no/such-page")) {
		t.Errorf("GET /no/such-page, previewing: %d %q, want 404 naming the path", w.Code, w.Body)
	}
}
