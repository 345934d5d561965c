package workspace

import (
	"errors"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"studio/internal/publish"
	published "studio/internal/publish/releases"
	"studio/internal/publish/repo"
	"studio/internal/store/testdb"
	"studio/internal/workspace/releases"
)

// The publisher is what cmd/studio gives the workspace as its published.
var _ releases.Releases = (*publish.Publisher)(nil)

// fakeReleases is a publisher with releases of every status, which
// records what it is asked to do.
type fakeReleases struct {
	mu        sync.Mutex
	list      []published.Release
	live      string
	canBuild  bool
	madeLive  []string
	by        []repo.Signature // who each Rollback was by
	published int
	fail      error // Rollback's and Publish's answer
	unmoved   error // Rollback's answer after it switched: the content was not set back
	previews  []published.Release
	problem   string // Problem's answer
	held      bool
}

func (f *fakeReleases) List() ([]published.Release, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]published.Release(nil), f.list...), nil
}

func (f *fakeReleases) Live() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.live
}

func (f *fakeReleases) CanBuild() bool { return f.canBuild }

func (f *fakeReleases) Problem() (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.problem, f.held
}

func (f *fakeReleases) Rollback(id string, who repo.Signature) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.madeLive, f.by = append(f.madeLive, id), append(f.by, who)
	if f.fail != nil {
		return "", f.fail
	}
	f.live = id
	if f.unmoved != nil {
		return "", f.unmoved
	}
	return "back" + id, nil
}

func (f *fakeReleases) Release(id string) (published.Release, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range append(f.previews, f.list...) {
		if r.ID == id {
			return r, nil
		}
	}
	return published.Release{}, errors.New("no such release")
}

func (f *fakeReleases) PublishNew() (string, error) { return f.Publish() }

func (f *fakeReleases) Publish() (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.published++
	if f.fail != nil {
		return "", f.fail
	}
	r := published.Release{ID: "20260302-090000-9999999", Commit: repo.Commit{Hash: "9999999aaaa", Message: "Main again", Author: "Asha"}, Status: published.Queued}
	f.list = append([]published.Release{r}, f.list...)
	return r.ID, nil
}

// calls is what the page asked the publisher to do.
func (f *fakeReleases) calls() ([]string, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.madeLive...), f.published
}

// The commits of the fake releases: 08:30 UTC is 14:00 in Kolkata.
var releasedAt = time.Date(2026, 3, 2, 8, 30, 0, 0, time.UTC)

func commit(hash, message, author string) repo.Commit {
	return repo.Commit{Hash: hash, Tree: "t" + hash, Message: message, Author: author, When: releasedAt}
}

// newFakeReleases: one building, one failed, one live, one ready, and the
// embedded build (ready).
func newFakeReleases() *fakeReleases {
	return &fakeReleases{canBuild: true, live: "20260302-083000-bbbbbbb", list: []published.Release{
		{ID: "20260302-084000-aaaaaaa", Commit: commit("aaaaaaa1111", "Summer prices\n\nAll of them.", "Ravi"), Status: published.Building, Stage: "optimising the images"},
		{ID: "20260302-083500-fffffff", Commit: commit("fffffff2222", "Broken photo", "Asha"), Status: published.Failed,
			Problems: []string{"catalogue.json: products[0].images[0].src: no file /images/nowhere.jpg", "site.json: tagline: empty"}, BuildSeconds: 12.4},
		{ID: "20260302-083000-bbbbbbb", Commit: commit("bbbbbbb3333", "New tagline", "Asha"), Status: published.Ready, BuildSeconds: 34.2, Size: 12_345_678},
		{ID: "20260302-082000-ccccccc", Commit: commit("ccccccc4444", "Old tagline", "Meera <meera@example.com>"), Status: published.Ready, BuildSeconds: 95, Size: 740_000},
		{ID: publish.EmbeddedID, Commit: repo.Commit{Message: "The site as built into bin/studio"}, Status: published.Ready},
	}}
}

func setupReleases(t *testing.T, f *fakeReleases) (*Handler, *http.Cookie) {
	t.Helper()
	h := setupOn(t, testdb.SQLite(t), func(o *Options) { o.Releases = f })
	return h, signIn(t, h, asha, ashaPassword)
}

// release is the article of the release whose h2 has id version-id.
func release(t *testing.T, body, id string) string {
	t.Helper()
	start := strings.Index(body, `<article aria-labelledby="version-`+id+`"`)
	if start < 0 {
		t.Fatalf("no article for release %s in:\n%s", id, body)
	}
	end := strings.Index(body[start:], "</article>")
	return html.UnescapeString(body[start : start+end])
}

func makeLiveButtons(body string) []string {
	var names []string
	for _, m := range regexp.MustCompile(`<button aria-label="([^"]*)">Go back to this version</button>`).FindAllStringSubmatch(body, -1) {
		names = append(names, html.UnescapeString(m[1]))
	}
	return names
}

func TestReleasesPage(t *testing.T) {
	f := newFakeReleases()
	h, c := setupReleases(t, f)
	w := do(h, "GET", "/studio/releases", nil, withCookie(c))
	body := w.Body.String()
	if w.Code != http.StatusOK {
		t.Fatalf("releases: %d %s", w.Code, body)
	}
	if !strings.Contains(body, `href="/studio/releases" aria-current="page">Versions of the site</a>`) {
		t.Error("the navigation does not mark Versions of the site as the current page")
	}
	for id, want := range map[string][]string{
		"20260302-084000-aaaaaaa": {"2 Mar 2026, 14:00 IST</h2>", ">Being built: optimising the images<"},
		"20260302-083500-fffffff": {"2 Mar 2026, 14:00 IST</h2>", `class="status failed">Not published<`, "<details open>", "2 problems stopped the build",
			"<li>catalogue.json: products[0].images[0].src: no file /images/nowhere.jpg</li><li>site.json: tagline: empty</li>"},
		"20260302-083000-bbbbbbb": {"2 Mar 2026, 14:00 IST</h2>", `class="status live">Live now<`},
		"20260302-082000-ccccccc": {"2 Mar 2026, 14:00 IST</h2>", "Built in 1 min 35 s"},
		publish.EmbeddedID:        {"The site as it was installed</h2>", "before any change made here"},
	} {
		article := release(t, body, id)
		for _, w := range want {
			if !strings.Contains(article, w) {
				t.Errorf("release %s does not show %q:\n%s", id, w, article)
			}
		}
	}
	if strings.Contains(release(t, body, "20260302-083000-bbbbbbb"), "Go back") {
		t.Error("the live version has a Go back button")
	}
	want := []string{"Go back to this version: 2 Mar 2026, 14:00 IST", "Go back to this version: the site as it was installed"}
	if got := makeLiveButtons(body); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Go back buttons %q, want one on each ready version but the live one: %q", got, want)
	}
	if !strings.Contains(body, `<button>Build the site again</button>`) || strings.Contains(body, "cannot build new versions") {
		t.Error("a server with a builder does not offer to build the site again")
	}
	// Only the newest failure shows its problems open; older ones, and any
	// older than a ready release, are folded.
	older := func(id string) published.Release {
		return published.Release{ID: id, Commit: commit(id[16:], "Older mistake", "Asha"), Status: published.Failed, Problems: []string{"x: y: z"}}
	}
	f.list = append([]published.Release{f.list[0], f.list[1], older("20260302-083400-eeeeeee")}, f.list[2], f.list[3], older("20260302-070000-ddddddd"), f.list[4])
	body = do(h, "GET", "/studio/releases", nil, withCookie(c)).Body.String()
	if !strings.Contains(release(t, body, "20260302-083500-fffffff"), "<details open>") {
		t.Error("the newest failure's problems are folded")
	}
	for _, id := range []string{"20260302-083400-eeeeeee", "20260302-070000-ddddddd"} {
		if article := release(t, body, id); !strings.Contains(article, "<details>") || !strings.Contains(article, "1 problem stopped the build") {
			t.Errorf("an older failure's problems are not folded:\n%s", article)
		}
	}

	// A ready version newer than the live one (PUBLISH=manual) is made
	// live, not gone back to.
	f.list[0].Status, f.list[0].Stage = published.Ready, ""
	body = html.UnescapeString(do(h, "GET", "/studio/releases", nil, withCookie(c)).Body.String())
	if !strings.Contains(release(t, body, "20260302-084000-aaaaaaa"), `<button aria-label="Make this version live: 2 Mar 2026, 14:00 IST">Make this version live</button>`) {
		t.Errorf("a version newer than the live one is not offered to be made live:\n%s", release(t, body, "20260302-084000-aaaaaaa"))
	}
	ask := html.UnescapeString(do(h, "GET", "/studio/releases/20260302-084000-aaaaaaa/make-live", nil, withCookie(c)).Body.String())
	if !strings.Contains(ask, "<h1>Make the version of 2 Mar 2026, 14:00 IST live?</h1>") || !strings.Contains(ask, "<button>Make the version of 2 Mar 2026, 14:00 IST live</button>") || strings.Contains(ask, "Go back") {
		t.Errorf("the question for a newer version:\n%s", ask)
	}

	// Two ready versions of one minute are told apart by their places in the list.
	f = newFakeReleases()
	again := f.list[3]
	again.ID = "20260302-082500-ccccccc"
	f.list = slices.Insert(f.list, 3, again)
	h, c = setupReleases(t, f)
	want = []string{"Go back to this version: 2 Mar 2026, 14:00 IST (number 4 in the list)", "Go back to this version: 2 Mar 2026, 14:00 IST (number 5 in the list)", "Go back to this version: the site as it was installed"}
	if got := makeLiveButtons(do(h, "GET", "/studio/releases", nil, withCookie(c)).Body.String()); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Go back buttons %q, want %q", got, want)
	}
}

// While a release is queued or building the page says where it has come
// to, in the studio's words, and follows it by itself (a refresh without
// JavaScript); once nothing is under way it follows nothing.
func TestReleasesFollowABuildUnderWay(t *testing.T) {
	f := newFakeReleases()
	h, c := setupReleases(t, f)
	get := func(target string) string { return do(h, "GET", target, nil, withCookie(c)).Body.String() }
	const refresh = `<noscript><meta http-equiv="refresh" content="3"></noscript>`
	underWay := func(body string) string {
		_, line, _ := strings.Cut(body, `<div id="under-way" data-follow aria-live="polite">`)
		line, _, _ = strings.Cut(line, "</div>")
		return strings.TrimSuffix(strings.TrimPrefix(line, `<p class="meta">`), "</p>")
	}

	f.list[0].Stage = "making the images"
	body := get("/studio/releases")
	if !strings.HasPrefix(underWay(body), "Making the pictures: a new version is being built") || !strings.Contains(body, refresh) || !strings.Contains(body, "<body data-following>") {
		t.Errorf("building: the page does not say so, or does not follow it:\n%s", body)
	}
	// A refusal answers a POST: its page follows nothing (its address
	// cannot be asked for again).
	refused := do(h, "POST", "/studio/releases/"+f.list[0].ID+"/make-live", url.Values{"confirm": {"yes"}}, withCookie(c))
	if refused.Code != http.StatusConflict || strings.Contains(refused.Body.String(), "data-following") || strings.Contains(refused.Body.String(), refresh) {
		t.Errorf("a refusal (%d) follows its build", refused.Code)
	}
	f.list[0].Status = published.Queued
	if body := get("/studio/releases"); !strings.HasPrefix(underWay(body), "Checking: ") || !strings.Contains(body, refresh) {
		t.Errorf("queued: %q, or the page does not follow it", underWay(body))
	}
	f.list[0].Status, f.list[0].Stage = published.Ready, ""
	if body := get("/studio/releases"); underWay(body) != "" || strings.Contains(body, refresh) || strings.Contains(body, "data-following") {
		t.Errorf("nothing building, and the page says %q or follows it", underWay(body))
	}
	if strings.Contains(body, "Check again") {
		t.Error("the page asks to check again")
	}
}

func TestMakeLiveIsRefusedWithWhy(t *testing.T) {
	f := newFakeReleases()
	f.previews = []published.Release{{ID: "20260302-085000-ppppppp", Commit: commit("ppppppp5555", "Draft", "Asha"), Status: published.Ready, Preview: true}}
	h, c := setupReleases(t, f)
	for id, want := range map[string]struct {
		code    int
		problem string
	}{
		"20260302-083500-fffffff": {http.StatusConflict, "The version of 2 Mar 2026, 14:00 IST was never published: it has problems to fix, listed with it. Nothing was changed."},
		"20260302-084000-aaaaaaa": {http.StatusConflict, "The version of 2 Mar 2026, 14:00 IST is still being built"},
		"20260302-085000-ppppppp": {http.StatusConflict, "That is a preview of unpublished changes, not a version of the site"},
		"20260301-000000-0000000": {http.StatusNotFound, "That version is no longer kept"},
		"%3Cb%3Ebold":             {http.StatusNotFound, "That version is no longer kept"},
	} {
		// Asked (GET), or confirmed (POST): the same answer.
		for _, method := range []string{"GET", "POST"} {
			w := do(h, method, "/studio/releases/"+id+"/make-live", url.Values{"confirm": {"yes"}}, withCookie(c))
			if w.Code != want.code || !strings.Contains(html.UnescapeString(w.Body.String()), want.problem) {
				t.Errorf("%s make %s live: %d, want %d saying %q:\n%s", method, id, w.Code, want.code, want.problem, w.Body)
			}
			if !strings.Contains(w.Body.String(), `role="alert"`) || strings.Contains(w.Body.String(), "<b>bold") {
				t.Errorf("make %s live: the problem is not an alert, or the id is not escaped", id)
			}
		}
	}
	if made, _ := f.calls(); len(made) != 0 || f.Live() != "20260302-083000-bbbbbbb" {
		t.Fatalf("refused switches called Rollback%q", made)
	}

	// The publisher refuses (its smoke test fails): said, the live one serves on.
	f.fail = errors.New("publish: the home page is missing")
	w := do(h, "POST", "/studio/releases/20260302-082000-ccccccc/make-live", url.Values{"confirm": {"yes"}}, withCookie(c))
	if got := html.UnescapeString(w.Body.String()); w.Code != http.StatusUnprocessableEntity ||
		!strings.Contains(got, "The site could not go back to the version of 2 Mar 2026, 14:00 IST. Nothing was changed: the live version still serves the site.") {
		t.Errorf("a refused switch: %d\n%s", w.Code, got)
	}
	// It switched, but the content could not be set back: said, with what to do.
	f.fail, f.unmoved = nil, errors.New("publish: disk full")
	w = do(h, "POST", "/studio/releases/20260302-082000-ccccccc/make-live", url.Values{"confirm": {"yes"}}, withCookie(c))
	if got := html.UnescapeString(w.Body.String()); w.Code != http.StatusInternalServerError ||
		!strings.Contains(got, "The version of 2 Mar 2026, 14:00 IST is live now, but the Content page could not be set back to it, so the next publish would bring the later changes back.") {
		t.Errorf("a switch whose content was not set back: %d\n%s", w.Code, got)
	}
}

func TestMakeLiveAsksFirst(t *testing.T) {
	f := newFakeReleases()
	h, c := setupReleases(t, f)
	const id = "20260302-082000-ccccccc"

	// The page's Go back opens the question, with no script.
	if body := do(h, "GET", "/studio/releases", nil, withCookie(c)).Body.String(); !strings.Contains(release(t, body, id), `<form action="/studio/releases/`+id+`/make-live" class="actions">`) {
		t.Errorf("Go back is not a link to the question:\n%s", release(t, body, id))
	}
	for _, ask := range []*httptest.ResponseRecorder{
		do(h, "GET", "/studio/releases/"+id+"/make-live", nil, withCookie(c)),
		do(h, "POST", "/studio/releases/"+id+"/make-live", url.Values{}, withCookie(c)), // a form without confirm
	} {
		body := html.UnescapeString(ask.Body.String())
		for _, want := range []string{
			"<h1>Go back to the version of 2 Mar 2026, 14:00 IST?</h1>",
			"Visitors see the version of 2 Mar 2026, 14:00 IST at once: nothing is built again.",
			"The Content page goes back to it too",
			`<form method="post" action="/studio/releases/` + id + `/make-live" class="actions">`,
			`<input type="hidden" name="confirm" value="yes">`,
			"<button>Go back to the version of 2 Mar 2026, 14:00 IST</button>",
			`<a class="button quiet" href="/studio/releases">Keep the version live now</a>`,
		} {
			if ask.Code != http.StatusOK || !strings.Contains(body, want) {
				t.Errorf("the question: %d, missing %q:\n%s", ask.Code, want, body)
			}
		}
		if strings.Contains(body, "unpublished") {
			t.Errorf("with nothing unpublished, the question speaks of unpublished changes:\n%s", body)
		}
	}
	if made, _ := f.calls(); len(made) != 0 {
		t.Fatalf("asking called Rollback%q", made)
	}

	res := do(h, "POST", "/studio/releases/"+id+"/make-live", url.Values{"confirm": {"yes"}}, withCookie(c)).Result()
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/studio/releases?content=back&live="+id {
		t.Fatalf("make live: %d to %q, want 303 back to the page", res.StatusCode, res.Header.Get("Location"))
	}
	if made, _ := f.calls(); strings.Join(made, ",") != id || f.by[0] != (repo.Signature{Name: "asha", Email: asha}) {
		t.Errorf("Rollback called with %q by %v, want %s by the signed-in account", made, f.by, id)
	}
	body := html.UnescapeString(do(h, "GET", res.Header.Get("Location"), nil, withCookie(c)).Body.String())
	if !strings.Contains(body, `<p class="notice" role="status">The version of 2 Mar 2026, 14:00 IST is live now. The Content page is back to this version too; the later changes stay in the history.</p>`) {
		t.Errorf("no confirmation after going back:\n%s", body)
	}
	if !strings.Contains(release(t, body, id), ">Live now<") || !strings.Contains(release(t, body, "20260302-083000-bbbbbbb"), "Make this version live") {
		t.Error("the page does not show the switch: Old tagline live, New tagline ready to be made live again")
	}

	// The live one again (a second click): back to the page, nothing done.
	for _, method := range []string{"GET", "POST"} {
		if res := do(h, method, "/studio/releases/"+id+"/make-live", url.Values{"confirm": {"yes"}}, withCookie(c)); res.Code != http.StatusSeeOther {
			t.Errorf("%s the live one again: %d, want 303", method, res.Code)
		}
	}
	if made, _ := f.calls(); len(made) != 1 {
		t.Errorf("Rollback calls %q, want the one switch", made)
	}
}

func TestPublishNow(t *testing.T) {
	f := newFakeReleases()
	h, c := setupReleases(t, f)
	res := do(h, "POST", "/studio/releases/publish", url.Values{}, withCookie(c)).Result()
	if _, published := f.calls(); res.StatusCode != http.StatusSeeOther || published != 1 {
		t.Fatalf("publish now: %d, %d calls of Publish", res.StatusCode, published)
	}
	body := html.UnescapeString(do(h, "GET", res.Header.Get("Location"), nil, withCookie(c)).Body.String())
	if !strings.Contains(body, "The site is being built again.") || !strings.Contains(release(t, body, "20260302-090000-9999999"), ">Waiting to be built<") {
		t.Errorf("after Build the site again, no confirmation or no queued version:\n%s", body)
	}

	// Without a builder: the notice, no button, and a POST changes nothing.
	noBuilder := newFakeReleases()
	noBuilder.canBuild = false
	h, c = setupReleases(t, noBuilder)
	body = html.UnescapeString(do(h, "GET", "/studio/releases", nil, withCookie(c)).Body.String())
	if strings.Contains(body, "Build the site again") || strings.Contains(body, "BUILDER_DIR") || !strings.Contains(body, `This server cannot build new versions of the site: ask whoever runs it to set up its builder.`) {
		t.Errorf("without a builder: want the notice in her words and no Build the site again:\n%s", body)
	}
	if w := do(h, "POST", "/studio/releases/publish", url.Values{}, withCookie(c)); w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), "Nothing was built") {
		t.Errorf("publish without a builder: %d", w.Code)
	}
	if _, published := noBuilder.calls(); published != 0 {
		t.Error("Publish was called on a server without a builder")
	}
}

// Signed out, or from another site, nothing is shown or done.
func TestReleasesAreTheStudios(t *testing.T) {
	f := newFakeReleases()
	h, c := setupReleases(t, f)
	for _, r := range []struct{ method, target string }{
		{"GET", "/studio/releases"}, {"POST", "/studio/releases/20260302-082000-ccccccc/make-live"}, {"POST", "/studio/releases/publish"},
	} {
		want := "/studio" // a form's target is not opened after signing in; a page is
		if r.method == "GET" {
			want += "?next=" + url.QueryEscape(r.target)
		}
		if w := do(h, r.method, r.target, url.Values{}); w.Code != http.StatusSeeOther || w.Header().Get("Location") != want {
			t.Errorf("%s %s signed out: %d to %q, want 303 to the sign-in", r.method, r.target, w.Code, w.Header().Get("Location"))
		}
		if r.method == "POST" {
			crossSite := func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") }
			if w := do(h, r.method, r.target, url.Values{}, withCookie(c), crossSite); w.Code != http.StatusForbidden {
				t.Errorf("%s cross-site: %d, want 403", r.target, w.Code)
			}
			evil := func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }
			if w := do(h, r.method, r.target, url.Values{}, withCookie(c), evil); w.Code != http.StatusForbidden {
				t.Errorf("%s from another origin: %d, want 403", r.target, w.Code)
			}
		}
	}
	if made, published := f.calls(); len(made) != 0 || published != 0 {
		t.Errorf("refused requests called MakeLive %q, Publish %d times", made, published)
	}
}

// Without a publisher there is no releases page, and no link to one.
func TestNoReleasesWithoutAPublisher(t *testing.T) {
	h, _ := setup(t)
	c := signIn(t, h, asha, ashaPassword)
	if body := do(h, "GET", "/studio", nil, withCookie(c)).Body.String(); strings.Contains(body, "/studio/releases") {
		t.Error("the navigation links to a releases page that is not there")
	}
	for _, method := range []string{"GET", "POST"} {
		if w := do(h, method, "/studio/releases", url.Values{}, withCookie(c)); w.Code != http.StatusNotFound {
			t.Errorf("%s /studio/releases without a publisher: %d, want 404", method, w.Code)
		}
	}
}

// A damaged release is named with its files and offers no Go back; what
// the publisher did about it is said at the top of the page.
func TestReleasesSayWhatWasDamaged(t *testing.T) {
	f := newFakeReleases()
	f.list[3].Damage = []string{"content/catalogue.json (changed)"}
	f.problem = "the live release 20260302-082000-ccccccc was damaged (content/catalogue.json (changed)); serving 20260302-083000-bbbbbbb while main is rebuilt"
	h, c := setupReleases(t, f)
	body := html.UnescapeString(do(h, "GET", "/studio/releases", nil, withCookie(c)).Body.String())
	if !strings.Contains(body, `<p class="callout" role="alert">Something went wrong with the live site, and was dealt with: `+f.problem+".</p>") {
		t.Errorf("the page does not say what the publisher did:\n%s", body)
	}
	article := release(t, body, "20260302-082000-ccccccc")
	for _, want := range []string{`class="status failed">Damaged: never shown again<`, "never shown to visitors again"} {
		if !strings.Contains(article, want) {
			t.Errorf("the damaged release does not show %q:\n%s", want, article)
		}
	}
	if strings.Contains(article, "Go back") || strings.Contains(article, "catalogue.json") {
		t.Error("a damaged version offers Go back, or names its files")
	}
}

// While no release of the content can be served, the embedded build the
// server holds is not called Live: visitors get "Back in a minute".
func TestReleasesSayThePagesAreHeld(t *testing.T) {
	f := newFakeReleases()
	f.live, f.held = publish.EmbeddedID, true
	f.problem = "no release of the content has been built yet (a restore's first start, or the releases were deleted); no release of the content is intact, so the pages answer 503 while main is rebuilt"
	h, c := setupReleases(t, f)
	body := html.UnescapeString(do(h, "GET", "/studio/releases", nil, withCookie(c)).Body.String())
	article := release(t, body, publish.EmbeddedID)
	if strings.Contains(article, "Live now") || !strings.Contains(article, "Not shown: visitors get “Back in a minute” until the site is built again") {
		t.Errorf("the held embedded build is shown as:\n%s", article)
	}
	if !strings.Contains(body, f.problem) {
		t.Error("the page does not say why")
	}
}
