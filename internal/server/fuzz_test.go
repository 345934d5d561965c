package server

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// FuzzPagePath: whatever the path, the server answers with a page or file
// of the build, a redirect that stays on the site, or the 404 page; it
// never panics and never serves anything else.
func FuzzPagePath(f *testing.F) {
	for _, seed := range []string{
		"/", "/products", "/products/", "/product/1", "/product/01", "/product/-1", "/product/1/",
		"/product/99999999999999999999", "/product/", "/assets/app-abc123.js", "/assets/../index.html",
		"/../etc/passwd", "//evil.example/", "///evil.example//", "/%2e%2e/", "/__spa-fallback.html",
		"/__not-found", "/index.html", "/images/hero.svg", "/healthz", "/sitemap.xml", "/a\x00b", "/ü",
	} {
		f.Add(seed)
	}
	build := testBuild()
	s, err := New(discardLog(), build, testCatalogue(f, 1, 2))
	if err != nil {
		f.Fatal(err)
	}
	h := s.Handler()
	bodies := map[string]bool{}
	for _, file := range build {
		bodies[string(file.Data)] = true
	}
	for _, generated := range []string{"sitemap.xml", "robots.txt"} {
		bodies[string(s.live.Load().files[generated].identity.body)] = true
	}

	f.Fuzz(func(t *testing.T, path string) {
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		req := &http.Request{Method: "GET", URL: &url.URL{Path: path}, Header: http.Header{}, RequestURI: path, Host: "studio.example"}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		switch rec.Code {
		case http.StatusOK:
			if !bodies[rec.Body.String()] && rec.Body.String() != `{"status":"ok"}`+"\n" {
				t.Fatalf("%q: 200 with a body that is no file of the build: %q", path, rec.Body.String())
			}
		case http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
			loc := rec.Header().Get("Location")
			if !strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "//") || strings.HasPrefix(loc, "/\\") {
				t.Fatalf("%q: redirect off the site to %q", path, loc)
			}
		case http.StatusNotFound:
		default:
			t.Fatalf("%q: status %d", path, rec.Code)
		}
	})
}
