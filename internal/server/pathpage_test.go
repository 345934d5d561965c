package server

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"studio/content"
	"studio/contracts/cases"
	"studio/internal/sitecontent"
	"studio/web"
)

// The front end's rule too (web/app/lib/notFound.test.ts runs the same cases).
func TestShownPathCases(t *testing.T) {
	var table struct {
		Cases []struct{ Case, Path, Shown string }
	}
	if err := json.Unmarshal(readCase(t, "shown-path.json"), &table); err != nil {
		t.Fatal(err)
	}
	for _, c := range table.Cases {
		if got := shownPath(c.Path); got != c.Shown {
			t.Errorf("%s: shownPath(%q) = %q, want %q", c.Case, c.Path, got, c.Shown)
		}
	}
}

// The path asked for is written into the page as text: a request that
// reaches the server with markup in its path (a browser encodes it; a
// script may not) has it escaped, and the gzip variant holds the same page.
func TestNotFoundPagesNameThePathAsText(t *testing.T) {
	h := newTestServer(t)
	req := newRequest("GET", "/x")
	req.URL.Path, req.URL.RawPath = `/a&b/<script>"`, ""
	rec := serve(h, req)
	if want := notFoundHTML(`/a&amp;b/%3Cscript%3E%22`); rec.Code != http.StatusNotFound || rec.Body.String() != want {
		t.Errorf("GET %s: %d %q, want 404 %q", req.URL.Path, rec.Code, rec.Body.String(), want)
	}

	rec = do(h, "GET", "/product/99", map[string]string{"Accept-Encoding": "br, gzip"})
	if rec.Header().Get("Content-Encoding") != "gzip" || rec.Header().Get("Vary") != "Accept-Encoding" {
		t.Fatalf("headers %v, want gzip, varying by Accept-Encoding", rec.Header())
	}
	if got := string(gunzip(t, rec.Body.Bytes())); got != unknownProductHTML("/product/99") {
		t.Errorf("the gzip variant unpacks to %q", got)
	}
	if rec.Header().Get("Content-Length") != strconv.Itoa(rec.Body.Len()) || rec.Header().Get("Cache-Control") != "no-cache" || rec.Header().Get("ETag") != "" {
		t.Errorf("headers %v, want the body's length, no-cache and no ETag", rec.Header())
	}
	if rec := do(h, "HEAD", "/product/99", nil); rec.Code != http.StatusNotFound || rec.Body.Len() != 0 {
		t.Errorf("HEAD: %d with %d bytes, want 404 and none", rec.Code, rec.Body.Len())
	}
}

// A build whose not-found page does not show its own path exactly once
// cannot be filled in: it is refused, as a stale build is.
func TestNewRefusesANotFoundPageWithoutItsPath(t *testing.T) {
	for name, html := range map[string]string{
		"none":  "<h1>home</h1>",
		"twice": notFoundHTML("/__not-found") + notFoundHTML("/__not-found"),
	} {
		build := testBuild()
		build["__not-found/index.html"].Data = []byte(html)
		if _, err := New(discardLog(), build, testCatalogue(t, 1, 2)); err == nil || !strings.Contains(err.Error(), "make build") {
			t.Errorf("%s: err = %v, want the build refused", name, err)
		}
	}
}

// The site as built (make build): an unknown address answers 404 with the
// home page under "There is no page at /xyz: here is the home page", first
// in main, titled "Page not found | {studio}"; an unknown product's with the
// list of products under its own line, and no redirect.
func TestTheBuiltNotFoundPages(t *testing.T) {
	cat, err := sitecontent.Load(content.Files)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(discardLog(), web.Client(), cat)
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	title := "<title>Page not found | " + cat.Site.Name + "</title>"
	for _, tt := range []struct{ path, notice, heading string }{
		{"/no/such-page", "There is no page at <span>/no/such-page</span>: here is the home page", ">" + cat.Site.Name + "</h1>"},
		{"/product/99999", "There is no piece at <span>/product/99999</span>: here are all our pieces", ">All Products</h1>"},
	} {
		rec := do(h, "GET", tt.path, nil)
		body := strings.ReplaceAll(rec.Body.String(), "<!-- -->", "") // React's marks between texts
		if rec.Code != http.StatusNotFound || rec.Header().Get("Location") != "" {
			t.Errorf("%s: %d to %q, want 404 and no redirect", tt.path, rec.Code, rec.Header().Get("Location"))
		}
		first := regexp.MustCompile(`<main[^>]*><p class="not-found-notice" role="status">([^\n]*?)</p>`).FindStringSubmatch(body)
		if first == nil || first[1] != tt.notice {
			t.Errorf("%s: main begins %q, want the notice %q", tt.path, first, tt.notice)
		}
		for _, want := range []string{title, tt.heading, `<meta name="robots" content="noindex"/>`} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: the page has no %q", tt.path, want)
			}
		}
	}
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// BenchmarkPathPage is the not-found page of the site as built, filled in
// and compressed for one request, against the home page, sent as built:
//
//	go test ./internal/server -run '^$' -bench 'PathPage|BuiltHomePage'
func BenchmarkPathPage(b *testing.B) {
	benchmarkBuilt(b, "/no/such-page")
}

func BenchmarkBuiltHomePage(b *testing.B) {
	benchmarkBuilt(b, "/")
}

func benchmarkBuilt(b *testing.B, path string) {
	cat, err := sitecontent.Load(content.Files)
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(discardLog(), web.Client(), cat)
	if err != nil {
		b.Fatal(err)
	}
	h := s.Handler()
	req := httptest.NewRequest("GET", path, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	w := &discardResponse{header: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		clear(w.header)
		h.ServeHTTP(w, req)
	}
}

func readCase(t *testing.T, name string) []byte {
	t.Helper()
	b, err := fs.ReadFile(cases.Files, name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
