package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"studio/internal/sitecontent"
	"studio/internal/store/testdb"
)

// markedBuild is testBuild with the release's name ("release A") in its
// home page, product 1's page and the not-found pages, and a page of its own
// (/release-a), which its sitemap lists. Build B also has product 3's page.
func markedBuild(name string) fstest.MapFS {
	build := testBuild()
	marker := "release " + strings.ToUpper(name)
	page := func(text string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("<h1>" + text + ", " + marker + "</h1>")}
	}
	build["index.html"] = page("home")
	delete(build, "index.html.gz")
	delete(build, "index.html.br")
	build["product/1/index.html"] = page("product 1")
	build["__not-found/index.html"] = &fstest.MapFile{Data: []byte(notFoundHTML("/__not-found") + "<h1>not found, " + marker + "</h1>")}
	build["product/__not-found/index.html"] = &fstest.MapFile{Data: []byte(unknownProductHTML("/product/__not-found") + "<h1>products, " + marker + "</h1>")}
	build["release-"+name+"/index.html"] = page("about")
	if name == "b" {
		build["product/3/index.html"] = page("product 3")
	}
	return build
}

// twoReleases is a server serving release "a" (products 1 and 2), and
// what Switch needs to serve either: release "b" has product 3 as well.
func twoReleases(t *testing.T, options ...Option) (*Server, map[string]func() error) {
	t.Helper()
	buildA, buildB := markedBuild("a"), markedBuild("b")
	catalogueA, catalogueB := testCatalogue(t, 1, 2), testCatalogue(t, 1, 2, 3)
	s, err := New(discardLog(), buildA, catalogueA, options...)
	if err != nil {
		t.Fatal(err)
	}
	switchTo := map[string]func() error{
		"a": func() error { return s.Switch("a", buildA, catalogueA) },
		"b": func() error { return s.Switch("b", buildB, catalogueB) },
	}
	if err := switchTo["a"](); err != nil {
		t.Fatal(err)
	}
	return s, switchTo
}

// Requests answered while releases are switched back and forth are each
// wholly of one release, the one their Studio-Release header names: its
// pages, its catalogue (product 3 is B's alone), its sitemap. Run with
// -race, this also checks that nothing a request reads is written by a
// switch.
func TestSwitchIsAtomicUnderRequests(t *testing.T) {
	s, switchTo := twoReleases(t)
	h := s.Handler()
	const switches = 20
	done := make(chan struct{})
	var switchErr error
	var answered atomic.Int64
	go func() {
		defer close(done)
		for i := range switches {
			if err := switchTo[[]string{"b", "a"}[i%2]](); err != nil {
				switchErr = err
				return
			}
			// A few requests answered before the next switch (a switch back
			// to a release made before takes no time), for at most a second.
			for next, wait := answered.Load()+8, time.Now().Add(time.Second); answered.Load() < next && time.Now().Before(wait); {
				runtime.Gosched()
			}
		}
	}()

	paths := []string{"/", "/product/1", "/product/3", "/sitemap.xml", "/nowhere"}
	var seen [2]atomic.Int64 // responses of release a, b
	var wg sync.WaitGroup
	failures := make(chan string, 16)
	for worker := range 4 {
		wg.Go(func() {
			for i := worker; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				path := paths[i%len(paths)]
				rec := do(h, "GET", path, nil)
				answered.Add(1)
				id := rec.Header().Get("Studio-Release")
				if problem := releaseProblem(path, id, rec.Code, rec.Header().Get("Location"), rec.Body.String()); problem != "" {
					select {
					case failures <- fmt.Sprintf("GET %s: %s", path, problem):
					default:
					}
					return
				}
				if id == "a" {
					seen[0].Add(1)
				} else {
					seen[1].Add(1)
				}
			}
		})
	}
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
	if switchErr != nil {
		t.Fatal(switchErr)
	}
	if seen[0].Load() == 0 || seen[1].Load() == 0 {
		t.Errorf("responses of release a: %d, b: %d; want both answering while switched", seen[0].Load(), seen[1].Load())
	}
}

// releaseProblem says how a response fails to be wholly of the release
// its header names, or "" when it is.
func releaseProblem(path, id string, status int, location, body string) string {
	if id != "a" && id != "b" {
		return fmt.Sprintf("Studio-Release %q", id)
	}
	marker, other := "release "+strings.ToUpper(id), "release-a"
	if id == "a" {
		other = "release-b"
	}
	switch {
	case path == "/product/3" && id == "a":
		// Its list of products, saying there is no such piece.
		if status != http.StatusNotFound || location != "" {
			return fmt.Sprintf("release a, which has no product 3: status %d, Location %q; want 404 and no redirect", status, location)
		}
	case path == "/sitemap.xml":
		if status != http.StatusOK || !strings.Contains(body, "/release-"+id+"<") || strings.Contains(body, other) {
			return fmt.Sprintf("release %s: status %d, sitemap %q", id, status, body)
		}
		return ""
	case path == "/nowhere":
		if status != http.StatusNotFound {
			return fmt.Sprintf("status %d, want 404", status)
		}
	case status != http.StatusOK:
		return fmt.Sprintf("release %s: status %d", id, status)
	}
	if !strings.Contains(body, marker) {
		return fmt.Sprintf("Studio-Release %s, body %q", id, body)
	}
	return ""
}

// A release that fails its checks is refused whole: the live one keeps
// answering, as it did.
func TestSwitchRefusesABadRelease(t *testing.T) {
	s, _ := twoReleases(t)
	h := s.Handler()
	before := do(h, "GET", "/", nil)

	noProductPage := markedBuild("b")
	delete(noProductPage, "product/3/index.html")
	noHome := markedBuild("b")
	delete(noHome, "index.html")
	for _, tt := range []struct {
		name, id string
		build    fstest.MapFS
		content  *sitecontent.Content
		wantErr  string
	}{
		{"a product with no page", "b", noProductPage, testCatalogue(t, 1, 2, 3), "product 3"},
		{"no home page", "b", noHome, testCatalogue(t, 1, 2), "no home page"},
		{"an id unfit for a header", "b\r\nSet-Cookie: x", markedBuild("b"), testCatalogue(t, 1, 2, 3), "release id"},
		{"no id", "", markedBuild("b"), testCatalogue(t, 1, 2, 3), "release id"},
	} {
		err := s.Switch(tt.id, tt.build, tt.content)
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: err = %v, want one saying %q", tt.name, err, tt.wantErr)
		}
		after := do(h, "GET", "/", nil)
		if id := after.Header().Get("Studio-Release"); id != "a" || after.Body.String() != before.Body.String() {
			t.Errorf("%s: after the refusal, release %q answers %q; want a's %q", tt.name, id, after.Body.String(), before.Body.String())
		}
		if rec := do(h, "GET", "/product/3", nil); rec.Code != http.StatusNotFound {
			t.Errorf("%s: after the refusal, /product/3 is %d; want 404, release a's catalogue", tt.name, rec.Code)
		}
	}
}

// Every kind of response names the release that answered it, the
// embedded one until a switch.
func TestEveryResponseNamesItsRelease(t *testing.T) {
	st := testdb.SQLite(t)
	s, err := New(discardLog(), testBuild(), testCatalogue(t, 1, 2), WithStore(st))
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	requests := []struct{ name, method, target string }{
		{"page", "GET", "/"},
		{"product page", "GET", "/product/1"},
		{"page data", "GET", "/product/1.data"},
		{"asset", "GET", "/assets/app-abc123.js"},
		{"photograph", "GET", "/images/products/chair.0123456789ab.640w.avif"},
		{"sitemap", "GET", "/sitemap.xml"},
		{"not-found page", "GET", "/nowhere"},
		{"missing asset", "GET", "/assets/gone-000000.js"},
		{"redirect", "GET", "/products/"},
		{"method not allowed", "DELETE", "/"},
		{"API JSON 404", "GET", "/api/nothing"},
		{"health", "GET", "/healthz"},
		{"workspace off", "GET", "/studio"},
	}
	check := func(want string) {
		t.Helper()
		for _, r := range requests {
			if got := do(h, r.method, r.target, nil).Header().Get("Studio-Release"); got != want {
				t.Errorf("%s (%s %s): Studio-Release %q, want %q", r.name, r.method, r.target, got, want)
			}
		}
		rec := post(h, "/api/enquiries", goodContact)
		if got := rec.Header().Get("Studio-Release"); rec.Code != http.StatusCreated || got != want {
			t.Errorf("API JSON 201: status %d, Studio-Release %q, want %q", rec.Code, got, want)
		}
	}
	check(embeddedRelease)
	if err := s.Switch("2026-05-01.1", testBuild(), testCatalogue(t, 1, 2)); err != nil {
		t.Fatal(err)
	}
	check("2026-05-01.1")
}

// The API checks an enquiry's product against the catalogue of the release
// that answers: a product added by a release can be asked about from it on.
func TestEnquiryProductIsTheRelease(t *testing.T) {
	s, switchTo := twoReleases(t, WithStore(testdb.SQLite(t)))
	h := s.Handler()
	quote := `{"kind":"quote","name":"A","email":"a@b.in","productId":3,"fillMs":4000}`
	if rec := post(h, "/api/enquiries", quote); rec.Code != http.StatusUnprocessableEntity || rec.Header().Get("Studio-Release") != "a" {
		t.Errorf("release a, product 3: %d %s; want 422 from release a", rec.Code, rec.Header().Get("Studio-Release"))
	}
	if err := switchTo["b"](); err != nil {
		t.Fatal(err)
	}
	if rec := post(h, "/api/enquiries", quote); rec.Code != http.StatusCreated || rec.Header().Get("Studio-Release") != "b" {
		t.Errorf("release b, product 3: %d %s %s; want 201 from release b", rec.Code, rec.Header().Get("Studio-Release"), rec.Body)
	}
}

// /readyz names the live release, and /metrics has it, the builds' results
// and the stage of the one under way.
func TestTheLiveReleaseIsObservable(t *testing.T) {
	s, switchTo := twoReleases(t)
	h := s.Handler()
	if err := switchTo["b"](); err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/readyz", nil))
	var ready map[string]string
	if err := json.Unmarshal(w.Body.Bytes(), &ready); err != nil || ready["release"] != "b" {
		t.Errorf("/readyz = %s, want the live release b named", w.Body)
	}
	s.ObserveBuild("prerendering the pages", 0, "")
	scrape := func() string {
		w := httptest.NewRecorder()
		r := httptest.NewRequest("GET", "/metrics", nil)
		r.RemoteAddr = "127.0.0.1:1234"
		h.ServeHTTP(w, r)
		return w.Body.String()
	}
	body := scrape()
	for _, want := range []string{`studio_release_live{release="b"} 1`, `studio_release_build_stage{stage="prerendering the pages"} 1`} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if strings.Contains(body, `studio_release_live{release="a"}`) {
		t.Error("/metrics still names release a live")
	}
	s.ObserveBuild("", 12, "ready")
	body = scrape()
	if strings.Contains(body, "studio_release_build_stage{") || !strings.Contains(body, `studio_release_build_duration_seconds_count{result="ready"} 1`) {
		t.Errorf("after a build, /metrics should have its duration and no stage under way:\n%s", grepLines(body, "studio_release"))
	}
}

func grepLines(s, prefix string) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, prefix) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// A release checked, or served before, is switched to without reading its
// build again (a release is never changed once made): the check of a new
// build then its switch read it once, and an undo is instant.
func TestSwitchReusesARecentRelease(t *testing.T) {
	s, switchTo := twoReleases(t)
	h := s.Handler()
	if err := s.Check("c", markedBuild("c"), testCatalogue(t, 1, 2)); err != nil {
		t.Fatal(err)
	}
	gone := fstest.MapFS{} // what Switch would read, were it to read
	if err := s.Switch("c", gone, testCatalogue(t, 1, 2)); err != nil {
		t.Fatalf("switch to the release checked: %v", err)
	}
	if body := do(h, "GET", "/", nil).Body.String(); !strings.Contains(body, "release C") {
		t.Errorf("after the switch to c, / is %q; want release C's home", body)
	}
	if err := switchTo["b"](); err != nil {
		t.Fatal(err)
	}
	if err := s.Switch("a", gone, testCatalogue(t, 1, 2)); err != nil {
		t.Fatalf("switch back to a, served before: %v", err)
	}
	if body := do(h, "GET", "/", nil).Body.String(); !strings.Contains(body, "release A") {
		t.Errorf("after the switch back to a, / is %q; want release A's home", body)
	}
	// Only the last few are held: the fourth release back is read again.
	for _, id := range []string{"d", "e", "f"} {
		if err := s.Switch(id, markedBuild(id), testCatalogue(t, 1, 2)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Switch("a", gone, testCatalogue(t, 1, 2)); err == nil {
		t.Error("a switch to a release no longer held read nothing and succeeded; want its build read (and refused here)")
	}
}
