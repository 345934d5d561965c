package page

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"studio/internal/store"
)

// withFiles is fsys's files, less left and with added.
func withFiles(t *testing.T, fsys fs.FS, left string, added map[string]string) fs.FS {
	t.Helper()
	files := fstest.MapFS{}
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || name == left {
			return err
		}
		b, err := fs.ReadFile(fsys, name)
		files[name] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range added {
		files[name] = &fstest.MapFile{Data: []byte(text)}
	}
	return files
}

// The layout and its pieces missing, or broken, stop start-up.
func TestABrokenLayoutStopsStartUp(t *testing.T) {
	if _, err := parse(layoutFiles, ownFiles, errorPages, time.UTC, nil); err != nil {
		t.Fatalf("the built-in templates: %v", err)
	}
	for name, shared := range map[string]fs.FS{
		"the layout missing":   withFiles(t, layoutFiles, "layout/layout.html", nil),
		"a partial missing":    withFiles(t, layoutFiles, "layout/flash.html", nil),
		"a broken partial":     withFiles(t, layoutFiles, "", map[string]string{"layout/flash.html": `{{define "flash"}}{{if .Notice}}{{end}}`}),
		"a header not defined": withFiles(t, layoutFiles, "", map[string]string{"layout/header.html": `<p>no header</p>`}),
	} {
		if _, err := parse(shared, ownFiles, errorPages, time.UTC, nil); err == nil {
			t.Errorf("%s: the templates parsed", name)
		}
	}
}

// A part's pages: a page without its template, a missing partial, a
// broken template, one that defines no content, and a template no page
// declares each stop start-up (every part parses its own with Parse).
func TestBrokenPagesStopStartUp(t *testing.T) {
	own := fstest.MapFS{
		"templates/list.html":           {Data: []byte(`{{define "content"}}{{template "title" .}}{{end}}`)},
		"templates/partials/title.html": {Data: []byte(`{{define "title"}}<h1>{{.Title}}</h1>{{end}}`)},
	}
	pages := Names{"list.html"}
	if _, err := Parse(own, pages, time.UTC, nil); err != nil {
		t.Fatalf("the fixture's templates: %v", err)
	}
	for name, fsys := range map[string]fs.FS{
		"a page's file missing":   withFiles(t, own, "templates/list.html", nil),
		"a partial missing":       withFiles(t, own, "templates/partials/title.html", nil),
		"a broken page":           withFiles(t, own, "", map[string]string{"templates/list.html": `{{define "content"}}{{if .Title}}{{end}}`}),
		"a page without content":  withFiles(t, own, "", map[string]string{"templates/list.html": `<p>no content defined</p>`}),
		"a page no handler shows": withFiles(t, own, "", map[string]string{"templates/stray.html": `{{define "content"}}{{end}}`}),
	} {
		if _, err := Parse(fsys, pages, time.UTC, nil); err == nil {
			t.Errorf("%s: the templates parsed", name)
		}
	}
}

// The error page renders, in the layout, with a zero view model and with a
// full one, and says who is signed in.
func TestTheErrorPageRenders(t *testing.T) {
	kit := NewKit(Kit{Visitor: Visitor{IsHTTPS: func(*http.Request) bool { return false }}})
	for i, v := range []View{&errorView{}, &errorView{Frame: Frame{Title: "Not found", Problem: "There is no enquiry #9."}, Back: "/studio?kind=quote"}} {
		var b strings.Builder
		if err := kit.errorPage.Template(errorPage).ExecuteTemplate(&b, layoutFile, v); err != nil {
			t.Errorf("view %d: %v", i, err)
			continue
		}
		if out := b.String(); !strings.Contains(out, "<main>") || !strings.HasSuffix(strings.TrimSpace(out), "</html>") {
			t.Errorf("view %d is not inside the layout:\n%s", i, out)
		}
	}
	w := httptest.NewRecorder()
	r := WithAccount(httptest.NewRequest("GET", "/studio/x", nil), store.Account{Email: "asha@studio.example", Role: store.RoleOwner})
	kit.Fail(w, r, http.StatusServiceUnavailable, "Not now", "The database did not answer.", "")
	if body := w.Body.String(); w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != RetryAfterSeconds ||
		!strings.Contains(body, "The database did not answer.") || !strings.Contains(body, "Signed in as asha@studio.example") {
		t.Errorf("Fail: %d, Retry-After %q:\n%s", w.Code, w.Header().Get("Retry-After"), body)
	}
}

// A page that follows something under way (Frame.Follow) carries the
// follow script, a refresh for a browser without JavaScript and the
// marker the script stops at; a page that follows nothing has none of
// them. Every page carries the "Saving…" script. Both are allowed by the
// policy's hashes.
func TestAPageThatFollowsCarriesItsScriptAndItsRefresh(t *testing.T) {
	kit := NewKit(Kit{Visitor: Visitor{IsHTTPS: func(*http.Request) bool { return false }}})
	render := func(follow bool) string {
		var b strings.Builder
		if err := kit.errorPage.Template(errorPage).ExecuteTemplate(&b, layoutFile, &errorView{Frame: Frame{Title: "T", Follow: follow}}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	const refresh = `<noscript><meta http-equiv="refresh" content="3"></noscript>`
	following := render(true)
	for _, want := range []string{refresh, "<body data-following>", "<script>" + FollowJS + "</script>", "<script>" + BusyJS + "</script>"} {
		if !strings.Contains(following, want) {
			t.Errorf("a page that follows has no %.60q", want)
		}
	}
	still := render(false)
	for _, unwanted := range []string{refresh, "data-following", FollowJS} {
		if strings.Contains(still, unwanted) {
			t.Errorf("a page that follows nothing has %.60q", unwanted)
		}
	}
	if !strings.Contains(still, "<script>"+BusyJS+"</script>") {
		t.Error("a page has no Saving… script")
	}
	policy := Policy()
	for _, script := range []string{FollowJS, BusyJS} {
		if !strings.Contains(policy, sourceHash(script)) {
			t.Errorf("the policy %q does not allow %.40q", policy, script)
		}
	}
}
