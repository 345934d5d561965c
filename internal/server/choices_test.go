package server

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"testing/fstest"
)

// quotePage is a product's request page as the front end prerenders it
// (routes/request.tsx): the first options selected, and a script.
const quotePage = `<!DOCTYPE html><html><head><title>Get a quote for Chair</title></head><body>
<form method="post" action="/product/1/quote" data-form="quote">
<div role="alert" hidden=""><p></p></div>
<select id="m" name="material"><option value="Teak" selected="">Teak</option><option value="Sheesham">Sheesham</option></select>
<select id="f" name="finish"><option value="Walnut" selected="">Walnut</option><option value="Light Oak">Light Oak</option></select>
<input type="radio" name="finish" value="Walnut" checked=""><input type="radio" name="finish" value="Light Oak">
<input id="n" name="name" aria-describedby="n-error"><p id="n-error" hidden=""></p>
</form><script>window.hydrate()</script></body></html>`

func newQuotePageServer(t *testing.T) http.Handler {
	t.Helper()
	build := testBuild()
	build["product/1/quote/index.html"] = &fstest.MapFile{Data: []byte(quotePage)}
	s, err := New(discardLog(), build, testCatalogue(t, 1, 2))
	if err != nil {
		t.Fatal(err)
	}
	return s.Handler()
}

func unzipped(t *testing.T, body io.Reader) string {
	t.Helper()
	zr, err := gzip.NewReader(body)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The options chosen on the product page reach its request page without
// JavaScript: the server marks them in the prerendered page it sends, the
// page otherwise as built (its script kept, to hydrate).
func TestRequestPageShowsTheChosenOptions(t *testing.T) {
	h := newQuotePageServer(t)
	w := get(h, http.MethodGet, "/product/1/quote?material=Sheesham&finish=Light+Oak")
	if w.Code != http.StatusOK || w.Header().Get("Content-Encoding") != "gzip" || w.Header().Get("Content-Security-Policy") == "" {
		t.Fatalf("%d, Content-Encoding %q, CSP %q; want 200, gzip and the page's policy", w.Code, w.Header().Get("Content-Encoding"), w.Header().Get("Content-Security-Policy"))
	}
	body := unzipped(t, w.Body)
	for _, want := range []string{
		`<option value="Teak">Teak</option><option value="Sheesham" selected="">Sheesham</option>`,
		`<option value="Walnut">Walnut</option><option value="Light Oak" selected="">Light Oak</option>`,
		`<input type="radio" name="finish" value="Walnut"/><input type="radio" name="finish" value="Light Oak" checked=""/>`,
		`<script>window.hydrate()</script>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s:\n%s", want, body)
		}
	}

	// One parameter: the other keeps the first option.
	body = unzipped(t, get(h, http.MethodGet, "/product/1/quote?finish=Light+Oak").Body)
	if !strings.Contains(body, `<option value="Teak" selected="">`) || !strings.Contains(body, `<option value="Light Oak" selected="">`) {
		t.Errorf("only the finish chosen: %s", body)
	}
}

// Anything but one of the page's own options, for these two parameters
// only, sends the page as it was built, byte for byte.
func TestRequestPageIgnoresOtherChoices(t *testing.T) {
	h := newQuotePageServer(t)
	for _, query := range []string{
		"finish=Gold",                        // not one of its finishes
		"finish=" + url.QueryEscape(`"><b>`), // markup
		"name=Asha&message=Light+Oak",        // other fields are not filled in
		"utm_source=whatsapp",                // a campaign's tag
		"finish=light+oak&material=teak",     // values are verbatim
	} {
		r := httptest.NewRequest(http.MethodGet, "/product/1/quote?"+query, nil)
		w := serve(h, r)
		if w.Code != http.StatusOK || w.Header().Get("Content-Encoding") != "" || w.Body.String() != quotePage {
			t.Errorf("?%s: %d %q, want the page as built", query, w.Code, w.Header().Get("Content-Encoding"))
		}
	}
}
