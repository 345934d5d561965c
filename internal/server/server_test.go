package server

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"studio/internal/sitecontent"
)

var testSite = sitecontent.Site{Name: "Test Studio", BaseURL: "https://studio.example"}

func testCatalogue(t testing.TB, ids ...int) *sitecontent.Content {
	t.Helper()
	var products []sitecontent.Product
	for _, id := range ids {
		products = append(products, sitecontent.Product{
			ID: id, Name: "P", Type: "chair", Category: "Seatings", Material: []string{"Wood"}, Finish: []string{"Walnut"},
			Images: []sitecontent.Image{{Src: "p.jpg", Alt: "P"}},
		})
	}
	cat, err := sitecontent.New(testSite, products)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// thanksPage is a thank-you page, which is not for the sitemap.
const thanksPage = `<meta name="robots" content="noindex"/><h1>Thank you</h1>`

// testBuild is a client build as the front end writes it, with
// precompressed variants beside the home page and the script.
func testBuild() fstest.MapFS {
	return fstest.MapFS{
		"index.html":                      {Data: []byte("<h1>home</h1>")},
		"index.html.gz":                   {Data: gzipped("<h1>home</h1>")},
		"index.html.br":                   {Data: []byte("BR-home")},
		"products/index.html":             {Data: []byte("<h1>products</h1>")},
		"product/1/index.html":            {Data: []byte("<h1>product 1</h1>")},
		"product/2/index.html":            {Data: []byte("<h1>product 2</h1>")},
		"__not-found/index.html":          {Data: []byte(notFoundHTML("/__not-found"))},
		"product/__not-found/index.html":  {Data: []byte(unknownProductHTML("/product/__not-found"))},
		"thank-you/index.html":            {Data: []byte(thanksPage)},
		"thank-you/newsletter/index.html": {Data: []byte(thanksPage)},
		"__spa-fallback.html":             {Data: []byte("<h1>fallback</h1>")},
		"assets/app-abc123.js":            {Data: []byte("console.log(1)")},
		"assets/app-abc123.js.gz":         {Data: []byte("GZ-js")},
		"images/hero.svg":                 {Data: []byte("<svg/>")},
		"_root.data":                      {Data: []byte(`[{"root":1}]`)},
		"product/1.data":                  {Data: []byte(`[{"product":1}]`)},
		"search-index.json":               {Data: []byte(`[]`)},
		// The image pipeline's files: the original's hash, then the variant.
		"images/products/chair.0123456789ab.640w.avif": {Data: []byte(photoBytes)},
		"images/products/chair.0123456789ab.svg":       {Data: []byte("<svg/>")},
		"images/og/site.jpg":                           {Data: []byte("JPEG")},
	}
}

// notFoundHTML and unknownProductHTML are the not-found pages as the build
// renders them at their own paths (web/app/components/NotFoundNotice.tsx),
// and as the server sends them for path.
func notFoundHTML(path string) string {
	return "<p role=\"status\">There is no page at <span>" + path + "</span>: here is the home page</p><h1>home</h1>"
}

func unknownProductHTML(path string) string {
	return "<p role=\"status\">There is no piece at <span>" + path + "</span>: here are all our pieces</p><h1>All Products</h1>"
}

// gzipped is text as the build compresses it (a page's gzip variant is
// unpacked at start-up to hash its scripts).
func gzipped(text string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(text))
	zw.Close()
	return b.Bytes()
}

// A stand-in for a photograph's bytes, long enough to ask for a range of.
const photoBytes = "AVIF-0123456789abcdefghijklmnopqrstuvwxyz"

func newTestServer(t *testing.T) http.Handler {
	t.Helper()
	s, err := New(discardLog(), testBuild(), testCatalogue(t, 1, 2))
	if err != nil {
		t.Fatal(err)
	}
	return s.Handler()
}

func do(h http.Handler, method, target string, header map[string]string) *httptest.ResponseRecorder {
	req := newRequest(method, target)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return serve(h, req)
}

func newRequest(method, target string) *http.Request {
	return httptest.NewRequest(method, target, nil)
}

func serve(h http.Handler, req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestRoutes(t *testing.T) {
	h := newTestServer(t)
	tests := []struct {
		name         string
		method       string
		target       string
		header       map[string]string
		wantStatus   int
		wantBody     string
		wantLocation string
		wantCache    string
		wantType     string
	}{
		{name: "home", target: "/", wantStatus: 200, wantBody: "<h1>home</h1>", wantCache: "no-cache", wantType: "text/html; charset=utf-8"},
		{name: "page with a query is still the page", target: "/products?category=Tables&page=2", wantStatus: 200, wantBody: "<h1>products</h1>", wantCache: "no-cache"},
		{name: "product of the catalogue", target: "/product/2", wantStatus: 200, wantBody: "<h1>product 2</h1>", wantCache: "no-cache"},
		{name: "product not in the catalogue", target: "/product/99", wantStatus: 404, wantBody: unknownProductHTML("/product/99"), wantType: "text/html; charset=utf-8"},
		{name: "product id not a number", target: "/product/chair", wantStatus: 404, wantBody: unknownProductHTML("/product/chair")},
		{name: "product id with a leading zero", target: "/product/01", wantStatus: 404, wantBody: unknownProductHTML("/product/01")},
		{name: "the unknown product's page has no URL of its own", target: "/product/__not-found", wantStatus: 404, wantBody: unknownProductHTML("/product/__not-found")},
		{name: "trailing slash", target: "/products/?page=2", wantStatus: 301, wantLocation: "/products?page=2"},
		{name: "hashed asset", target: "/assets/app-abc123.js", wantStatus: 200, wantBody: "console.log(1)", wantCache: "public, max-age=31536000, immutable", wantType: "text/javascript; charset=utf-8"},
		{name: "unhashed image", target: "/images/hero.svg", wantStatus: 200, wantCache: "public, max-age=86400", wantType: "image/svg+xml"},
		{name: "a photograph's variant, streamed", target: "/images/products/chair.0123456789ab.640w.avif", wantStatus: 200, wantBody: photoBytes, wantCache: "public, max-age=31536000, immutable", wantType: "image/avif"},
		{name: "a range of a photograph", target: "/images/products/chair.0123456789ab.640w.avif", header: map[string]string{"Range": "bytes=0-3"}, wantStatus: 206, wantBody: "AVIF", wantType: "image/avif"},
		{name: "a drawing from the pipeline", target: "/images/products/chair.0123456789ab.svg", wantStatus: 200, wantBody: "<svg/>", wantCache: "public, max-age=31536000, immutable", wantType: "image/svg+xml"},
		{name: "an image without a hash is kept a day", target: "/images/og/site.jpg", wantStatus: 200, wantBody: "JPEG", wantCache: "public, max-age=86400", wantType: "image/jpeg"},
		{name: "a missing pipeline image", target: "/images/products/chair.ffffffffffff.640w.avif", wantStatus: 404, wantBody: "404 page not found\n"},
		{name: "the root's route data", target: "/_root.data", wantStatus: 200, wantBody: `[{"root":1}]`, wantCache: "no-cache", wantType: "text/x-script"},
		{name: "a product page's route data", target: "/product/1.data", wantStatus: 200, wantBody: `[{"product":1}]`, wantCache: "no-cache", wantType: "text/x-script"},
		{name: "missing route data", target: "/product/99.data", wantStatus: 404, wantBody: "404 page not found\n"},
		{name: "the search index", target: "/search-index.json", wantStatus: 200, wantBody: `[]`, wantType: "application/json"},
		{name: "unknown path shows home with 404", target: "/no/such/page", wantStatus: 404, wantBody: notFoundHTML("/no/such/page"), wantType: "text/html; charset=utf-8"},
		{name: "build internals are not served", target: "/__spa-fallback.html", wantStatus: 404, wantBody: notFoundHTML("/__spa-fallback.html")},
		{name: "the not-found page has no URL of its own", target: "/__not-found", wantStatus: 404, wantBody: notFoundHTML("/__not-found")},
		{name: "missing asset", target: "/assets/gone-123.js", wantStatus: 404, wantBody: "404 page not found\n"},
		{name: "healthz", target: "/healthz", wantStatus: 200, wantBody: `{"status":"ok"}` + "\n", wantType: "application/json"},
		{name: "HEAD has no body", method: "HEAD", target: "/", wantStatus: 200, wantBody: ""},
		{name: "POST to a page", method: "POST", target: "/", wantStatus: 405},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			method := tt.method
			if method == "" {
				method = "GET"
			}
			rec := do(h, method, tt.target, tt.header)
			if rec.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d", rec.Code, tt.wantStatus)
			}
			if tt.wantBody != "" || method == "HEAD" {
				if got := rec.Body.String(); got != tt.wantBody {
					t.Errorf("body = %q, want %q", got, tt.wantBody)
				}
			}
			if got := rec.Header().Get("Location"); got != tt.wantLocation {
				t.Errorf("Location = %q, want %q", got, tt.wantLocation)
			}
			if tt.wantCache != "" {
				if got := rec.Header().Get("Cache-Control"); got != tt.wantCache {
					t.Errorf("Cache-Control = %q, want %q", got, tt.wantCache)
				}
			}
			if tt.wantType != "" {
				if got := rec.Header().Get("Content-Type"); got != tt.wantType {
					t.Errorf("Content-Type = %q, want %q", got, tt.wantType)
				}
			}
		})
	}
}

func TestCompressionNegotiation(t *testing.T) {
	h := newTestServer(t)
	tests := []struct {
		acceptEncoding string
		wantEncoding   string
		wantBody       string
	}{
		{"", "", "<h1>home</h1>"},
		{"gzip", "gzip", string(gzipped("<h1>home</h1>"))},
		{"br", "br", "BR-home"},
		{"gzip, deflate, br", "br", "BR-home"},
		{"br;q=0, gzip", "gzip", string(gzipped("<h1>home</h1>"))},
		{"br;q=0, gzip;q=0", "", "<h1>home</h1>"},
		{"*", "br", "BR-home"},
		{"identity", "", "<h1>home</h1>"},
	}
	for _, tt := range tests {
		t.Run(tt.acceptEncoding, func(t *testing.T) {
			rec := do(h, "GET", "/", map[string]string{"Accept-Encoding": tt.acceptEncoding})
			if got := rec.Header().Get("Content-Encoding"); got != tt.wantEncoding {
				t.Errorf("Content-Encoding = %q, want %q", got, tt.wantEncoding)
			}
			if got := rec.Body.String(); got != tt.wantBody {
				t.Errorf("body = %q, want %q", got, tt.wantBody)
			}
			if got := rec.Header().Get("Content-Length"); got != strconv.Itoa(len(tt.wantBody)) {
				t.Errorf("Content-Length = %q, want %d", got, len(tt.wantBody))
			}
			if got := rec.Header().Get("Vary"); got != "Accept-Encoding" {
				t.Errorf("Vary = %q, want Accept-Encoding", got)
			}
		})
	}
	// A file built without a .br variant falls back to gzip.
	rec := do(h, "GET", "/assets/app-abc123.js", map[string]string{"Accept-Encoding": "br, gzip"})
	if rec.Header().Get("Content-Encoding") != "gzip" || rec.Body.String() != "GZ-js" {
		t.Errorf("asset without .br: encoding %q body %q, want gzip", rec.Header().Get("Content-Encoding"), rec.Body.String())
	}
	// A file with no variant at all says nothing of Vary.
	if rec := do(h, "GET", "/images/hero.svg", map[string]string{"Accept-Encoding": "br"}); rec.Header().Get("Vary") != "" || rec.Header().Get("Content-Encoding") != "" {
		t.Errorf("uncompressed file: Vary %q Content-Encoding %q", rec.Header().Get("Vary"), rec.Header().Get("Content-Encoding"))
	}
}

func TestETagAndNotModified(t *testing.T) {
	h := newTestServer(t)
	for _, enc := range []string{"", "gzip", "br"} {
		t.Run("encoding "+enc, func(t *testing.T) {
			first := do(h, "GET", "/", map[string]string{"Accept-Encoding": enc})
			etag := first.Header().Get("ETag")
			if etag == "" || !strings.HasPrefix(etag, `"`) || !strings.HasSuffix(etag, `"`) {
				t.Fatalf("ETag = %q, want a quoted validator", etag)
			}
			again := do(h, "GET", "/", map[string]string{"Accept-Encoding": enc, "If-None-Match": etag})
			if again.Code != http.StatusNotModified || again.Body.Len() != 0 {
				t.Fatalf("If-None-Match with the ETag: status %d, %d bytes; want 304 and no body", again.Code, again.Body.Len())
			}
			if again.Header().Get("ETag") != etag || again.Header().Get("Cache-Control") != "no-cache" {
				t.Errorf("304 headers: ETag %q Cache-Control %q", again.Header().Get("ETag"), again.Header().Get("Cache-Control"))
			}
			other := do(h, "GET", "/", map[string]string{"Accept-Encoding": enc, "If-None-Match": `"something-else"`})
			if other.Code != http.StatusOK {
				t.Errorf("a different ETag: status %d, want 200", other.Code)
			}
			weak := do(h, "GET", "/", map[string]string{"Accept-Encoding": enc, "If-None-Match": `"x", W/` + etag})
			if weak.Code != http.StatusNotModified {
				t.Errorf("weak ETag in a list: status %d, want 304", weak.Code)
			}
		})
	}
	// Each encoding is its own representation with its own validator.
	plain := do(h, "GET", "/", nil).Header().Get("ETag")
	br := do(h, "GET", "/", map[string]string{"Accept-Encoding": "br"}).Header().Get("ETag")
	if plain == br {
		t.Errorf("identity and brotli share the ETag %q", plain)
	}
	if rec := do(h, "GET", "/", map[string]string{"Accept-Encoding": "br", "If-None-Match": plain}); rec.Code != http.StatusOK {
		t.Errorf("the identity ETag answered a brotli request with %d, want 200", rec.Code)
	}
	// The 404 page is never answered with 304.
	notFound := do(h, "GET", "/missing", nil)
	if notFound.Header().Get("ETag") != "" {
		t.Errorf("404 page has ETag %q", notFound.Header().Get("ETag"))
	}
}

func TestNewRejectsABuildThatDoesNotMatchTheCatalogue(t *testing.T) {
	log := discardLog()
	if _, err := New(log, testBuild(), testCatalogue(t, 1, 2, 3)); err == nil || !strings.Contains(err.Error(), "product 3") {
		t.Errorf("a product without a page: err = %v, want it named", err)
	}
	build := testBuild()
	delete(build, "__not-found/index.html")
	if _, err := New(log, build, testCatalogue(t, 1)); err == nil || !strings.Contains(err.Error(), "make build") {
		t.Errorf("a build without the not-found page: err = %v", err)
	}
	build = testBuild()
	delete(build, "thank-you/newsletter/index.html")
	if _, err := New(log, build, testCatalogue(t, 1)); err == nil || !strings.Contains(err.Error(), newsletterThanksPath) {
		t.Errorf("a build without a thank-you page: err = %v", err)
	}
}

// A photograph's variant is answered 304 when the browser has it, and is
// never read into the server's memory at start-up.
func TestPhotographsAreStreamed(t *testing.T) {
	s, err := New(discardLog(), testBuild(), testCatalogue(t, 1, 2))
	if err != nil {
		t.Fatal(err)
	}
	const name = "images/products/chair.0123456789ab.640w.avif"
	if _, inMemory := s.live.Load().files[name]; inMemory {
		t.Errorf("%s is held in memory", name)
	}
	h := s.Handler()
	first := do(h, "GET", "/"+name, nil)
	etag := first.Header().Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	if again := do(h, "GET", "/"+name, map[string]string{"If-None-Match": etag}); again.Code != http.StatusNotModified || again.Body.Len() != 0 {
		t.Errorf("If-None-Match: status %d, %d bytes; want 304 and none", again.Code, again.Body.Len())
	}
}

// A page with a brotli variant is held in memory as that variant alone; its
// other variants are read from the build when asked for, and its scripts'
// hashes come from its gzip variant.
func TestPagesHoldOneCopy(t *testing.T) {
	build := testBuild()
	page := `<script>boot()</script><h1>home</h1>`
	build["index.html"] = &fstest.MapFile{Data: []byte(page)}
	build["index.html.gz"] = &fstest.MapFile{Data: gzipped(page)}
	s, err := New(discardLog(), build, testCatalogue(t, 1, 2))
	if err != nil {
		t.Fatal(err)
	}
	home := s.live.Load().files["index.html"]
	if home.brotli.body == nil || home.identity.body != nil || home.gzip.body != nil {
		t.Errorf("in memory: br %t, identity %t, gzip %t; want only br", home.brotli.body != nil, home.identity.body != nil, home.gzip.body != nil)
	}
	if csp := home.csp[0]; !strings.Contains(csp, hashOf("boot()")) {
		t.Errorf("the page's CSP lacks its script's hash: %s", csp)
	}
	h := s.Handler()
	for _, tt := range []struct{ accept, body string }{{"", page}, {"gzip", string(gzipped(page))}, {"br", "BR-home"}} {
		rec := do(h, "GET", "/", map[string]string{"Accept-Encoding": tt.accept})
		if rec.Body.String() != tt.body || rec.Header().Get("Content-Length") != strconv.Itoa(len(tt.body)) {
			t.Errorf("Accept-Encoding %q: %q (Content-Length %s), want %q", tt.accept, rec.Body.String(), rec.Header().Get("Content-Length"), tt.body)
		}
	}
}

// PageTitles names each page of the live release by its <title>, without
// the studio's name that ends it (Insights shows pages by them).
func TestPageTitlesAreThePagesTitles(t *testing.T) {
	build, cat := testBuild(), testCatalogue(t, 1, 2)
	build["product/1/index.html"] = &fstest.MapFile{Data: []byte("<title>Marwar chair, accent chair &amp; more | " + cat.Site.Name + "</title><h1>product 1</h1>")}
	build["index.html"] = &fstest.MapFile{Data: []byte("<title>" + cat.Site.Name + ": furniture</title>")}
	build["index.html.gz"] = &fstest.MapFile{Data: gzipped("<title>" + cat.Site.Name + ": furniture</title>")}
	s, err := New(discardLog(), build, cat)
	if err != nil {
		t.Fatal(err)
	}
	titles := s.PageTitles()
	if got := titles["/product/1"]; got != "Marwar chair, accent chair & more" {
		t.Errorf("/product/1: %q", got)
	}
	if got := titles["/"]; got != cat.Site.Name+": furniture" {
		t.Errorf("/: %q, want the home page's title whole", got)
	}
	if got, ok := titles["/product/2"]; !ok || got != "" {
		t.Errorf("a page without a title: %q, %v", got, ok)
	}
}

// goneProductPage is a removed product's page as the front end prerenders
// it (routes/product.tsx): the notice, its category's list and a similar piece.
const goneProductPage = `<meta name="robots" content="noindex"/><h1>This piece is no longer in the catalogue</h1>` +
	`<a href="/products/seatings">More Seatings</a><a href="/product/2">P</a>`

// A product taken out of the catalogue answers 410 Gone with its own page
// (and its quote page too), unlike an id that never was one, which still
// leads to the list; it is not in the sitemap.
func TestRemovedProductIsGone(t *testing.T) {
	build := testBuild()
	build["product/7/index.html"] = &fstest.MapFile{Data: []byte(goneProductPage)}
	// Without its noindex, still left out of the sitemap: it is gone.
	build["product/7/quote/index.html"] = &fstest.MapFile{Data: []byte(strings.TrimPrefix(goneProductPage, `<meta name="robots" content="noindex"/>`))}
	build["product/7.data"] = &fstest.MapFile{Data: []byte(`[{"gone":7}]`)}
	build["product/1/quote/index.html"] = &fstest.MapFile{Data: []byte("<h1>quote for product 1</h1>")}
	content := testCatalogue(t, 1, 2)
	content.Removed = []sitecontent.RemovedProduct{{ID: 7, Name: "Gone chair", Category: "Seatings"}}
	s, err := New(discardLog(), build, content)
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	for _, target := range []string{"/product/7", "/product/7/quote"} {
		rec := do(h, "GET", target, nil)
		if rec.Code != http.StatusGone {
			t.Fatalf("%s: status %d, want 410", target, rec.Code)
		}
		body := rec.Body.String()
		for _, want := range []string{"This piece is no longer in the catalogue", `href="/products/seatings"`, `href="/product/2"`} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: the body has no %q: %s", target, want, body)
			}
		}
		if rec.Header().Get("Content-Security-Policy") == "" || rec.Header().Get("Content-Type") != "text/html; charset=utf-8" {
			t.Errorf("%s: headers %v, want a page's", target, rec.Header())
		}
	}
	if rec := do(h, "HEAD", "/product/7", nil); rec.Code != http.StatusGone || rec.Body.Len() != 0 {
		t.Errorf("HEAD /product/7: %d with %d bytes, want 410 and none", rec.Code, rec.Body.Len())
	}
	// The client's navigation fetches the page's data, as for any page.
	if rec := do(h, "GET", "/product/7.data", nil); rec.Code != http.StatusOK {
		t.Errorf("/product/7.data: %d, want 200", rec.Code)
	}
	for target, want := range map[string]int{"/product/1": 200, "/product/1/quote": 200, "/product/99": 404} {
		if rec := do(h, "GET", target, nil); rec.Code != want {
			t.Errorf("%s: status %d, want %d", target, rec.Code, want)
		}
	}
	sitemap := do(h, "GET", "/sitemap.xml", nil).Body.String()
	if strings.Contains(sitemap, "/product/7") {
		t.Errorf("a removed product is in the sitemap: %s", sitemap)
	}

	// A build made before the product was removed has no page saying so.
	if _, err := New(discardLog(), testBuild(), content); err == nil || !strings.Contains(err.Error(), "product 7 was removed") {
		t.Errorf("a build without the removed product's page: err = %v", err)
	}
}
