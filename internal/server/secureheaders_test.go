package server

import (
	"crypto/sha256"
	"crypto/tls"
	"encoding/base64"
	"strings"
	"testing"
	"testing/fstest"

	"studio/internal/sitecontent"
)

func hashOf(script string) string {
	sum := sha256.Sum256([]byte(script))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

func TestInlineHashes(t *testing.T) {
	html := `<head><script type="module" src="/assets/a.js"></script><script>window.a=1</script>
<script id="_R_">b()</script><script>window.a=1</script><script type="application/ld+json">{"@type":"Store"}</script></head>
<scripts>not a script</scripts><script>
c()
</script><script></script><script>never closed`
	got := inlineHashes([]byte(html), "script")
	want := []string{hashOf("window.a=1"), hashOf("b()"), hashOf(`{"@type":"Store"}`), hashOf("\nc()\n")}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("script hashes = %v, want %v (external, empty and unclosed scripts skipped, duplicates once)", got, want)
	}

	styled := `<head><style data-href="/assets/root-1.css">a{color:red}</style><link rel="stylesheet" href="/assets/root-1.css" disabled=""/>
<style>p{margin:0}</style><script>x()</script></head><body><svg><style>.s{fill:red}</style></svg></body>`
	got = inlineHashes([]byte(styled), "style")
	want = []string{hashOf("a{color:red}"), hashOf("p{margin:0}"), hashOf(".s{fill:red}")}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("style hashes = %v, want %v", got, want)
	}
}

func cspServer(t *testing.T, site sitecontent.Site) *Server {
	t.Helper()
	cat, err := sitecontent.New(site, []sitecontent.Product{{ID: 1, Name: "P", Material: []string{"Wood"}, Finish: []string{"Oak"}, Images: []sitecontent.Image{{Src: "p1.jpg", Alt: "P"}}}})
	if err != nil {
		t.Fatal(err)
	}
	build := fstest.MapFS{
		"index.html":                      {Data: []byte(`<style data-href="/assets/a-1.css">h1{margin:0}</style><script>boot()</script><h1>home</h1>`)},
		"product/1/index.html":            {Data: []byte(`<script>one()</script>`)},
		"__not-found/index.html":          {Data: []byte(`<script>boot()</script>` + notFoundHTML("/__not-found"))},
		"product/__not-found/index.html":  {Data: []byte(`<script>boot()</script>` + unknownProductHTML("/product/__not-found"))},
		"thank-you/index.html":            {Data: []byte(thanksPage)},
		"thank-you/newsletter/index.html": {Data: []byte(thanksPage)},
		"assets/a-1.js":                   {Data: []byte(`x`)},
	}
	s, err := New(discardLog(), build, cat)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSecurityHeaders(t *testing.T) {
	h := cspServer(t, siteWithMap("https://maps.example.org/embed?x=1")).Handler()

	home := do(h, "GET", "/", nil)
	csp := home.Header().Get("Content-Security-Policy")
	for _, want := range []string{
		"script-src 'self' " + hashOf("boot()") + ";",
		"style-src 'self' " + hashOf("h1{margin:0}") + ";", // the page's inlined stylesheet
		"object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'",
		"frame-src https://maps.example.org",
		"img-src 'self';", // pictures are the build's own files
		"connect-src 'self';",
	} {
		if !strings.Contains(csp, want) {
			t.Errorf("home CSP lacks %q:\n%s", want, csp)
		}
	}
	for _, banned := range []string{"unsafe-inline", "unsafe-eval", "googletagmanager", hashOf("one()")} {
		if strings.Contains(csp, banned) {
			t.Errorf("home CSP contains %q:\n%s", banned, csp)
		}
	}
	if product := do(h, "GET", "/product/1", nil).Header().Get("Content-Security-Policy"); !strings.Contains(product, hashOf("one()")) {
		t.Errorf("each page allows its own scripts: %s", product)
	}
	if notFound := do(h, "GET", "/nowhere", nil).Header().Get("Content-Security-Policy"); !strings.Contains(notFound, hashOf("boot()")) {
		t.Errorf("the 404 page allows its scripts: %s", notFound)
	}

	for _, target := range []string{"/", "/assets/a-1.js", "/product/99", "/healthz", "/nowhere"} {
		rec := do(h, "GET", target, nil)
		for header, want := range map[string]string{
			"X-Content-Type-Options":       "nosniff",
			"Referrer-Policy":              "strict-origin-when-cross-origin",
			"Cross-Origin-Opener-Policy":   "same-origin",
			"Cross-Origin-Resource-Policy": "same-origin",
		} {
			if got := rec.Header().Get(header); got != want {
				t.Errorf("%s: %s = %q, want %q", target, header, got, want)
			}
		}
		if rec.Header().Get("Permissions-Policy") == "" || rec.Header().Get("Content-Security-Policy") == "" {
			t.Errorf("%s: no Permissions-Policy or CSP", target)
		}
		if rec.Header().Get("Strict-Transport-Security") != "" {
			t.Errorf("%s: HSTS over plain HTTP", target)
		}
	}
	if asset := do(h, "GET", "/assets/a-1.js", nil).Header().Get("Content-Security-Policy"); asset != defaultPolicy {
		t.Errorf("asset CSP = %q, want the default", asset)
	}

	req := newRequest("GET", "/")
	req.TLS = &tls.ConnectionState{}
	rec := serve(h, req)
	if !strings.HasPrefix(rec.Header().Get("Strict-Transport-Security"), "max-age=") {
		t.Errorf("HSTS over TLS = %q", rec.Header().Get("Strict-Transport-Security"))
	}
}

func TestAnalyticsHostsOnlyWithAMeasurementID(t *testing.T) {
	h := cspServer(t, sitecontent.Site{Name: "S", GA4MeasurementID: "G-TEST123"}).Handler()
	csp := do(h, "GET", "/", nil).Header().Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self' https://www.googletagmanager.com") || !strings.Contains(csp, "https://*.google-analytics.com") {
		t.Errorf("with a GA4 id the tag's hosts are allowed: %s", csp)
	}
	if !strings.Contains(csp, "frame-src 'none'") {
		t.Errorf("no map configured, no frames: %s", csp)
	}
}

func TestSitemapAndRobots(t *testing.T) {
	h := newTestServer(t)
	rec := do(h, "GET", "/sitemap.xml", nil)
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/xml" {
		t.Fatalf("sitemap: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	body := rec.Body.String()
	want := []string{"https://studio.example/", "https://studio.example/product/1", "https://studio.example/product/2", "https://studio.example/products"}
	var got []string
	for _, line := range strings.Split(body, "\n") {
		if loc, ok := strings.CutPrefix(strings.TrimSpace(line), "<loc>"); ok {
			got = append(got, strings.TrimSuffix(loc, "</loc>"))
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("sitemap URLs = %v, want %v", got, want)
	}
	if strings.Contains(body, "not-found") {
		t.Error("the not-found page is in the sitemap")
	}

	robots := do(h, "GET", "/robots.txt", map[string]string{"Accept-Encoding": "gzip"})
	if robots.Code != 200 || !strings.HasPrefix(robots.Header().Get("Content-Type"), "text/plain") {
		t.Fatalf("robots: %d %q", robots.Code, robots.Header().Get("Content-Type"))
	}
	plain := do(h, "GET", "/robots.txt", nil).Body.String()
	if !strings.Contains(plain, "Sitemap: https://studio.example/sitemap.xml") || !strings.Contains(plain, "Disallow: /studio") {
		t.Errorf("robots.txt = %q", plain)
	}
}

func TestComparePathsOrdersProductsByNumber(t *testing.T) {
	if comparePaths("/product/2", "/product/10") >= 0 || comparePaths("/", "/about") >= 0 {
		t.Error("want / first and /product/2 before /product/10")
	}
}

func siteWithMap(embedURL string) sitecontent.Site {
	s := sitecontent.Site{Name: "S", BaseURL: "https://studio.example"}
	s.Map.EmbedURL = embedURL
	return s
}
