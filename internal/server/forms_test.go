package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"testing/fstest"

	"studio/internal/store"
	"studio/internal/store/testdb"
)

// contactPage is a page with a form as the front end renders it: the
// Field component's label, control and error, a hint, and a script.
const contactPage = `<!DOCTYPE html><html><head><title>Contact us | Studio</title><link rel="modulepreload" href="/assets/a.js"></head><body>
<form method="post" action="/api/enquiries" data-form="contact" aria-label="Contact form">
<input type="hidden" name="kind" value="contact"><input type="hidden" name="page" value="/contact-us">
<div class="field"><label for="n">Your Name</label><input id="n" name="name" value=""></div>
<div class="field"><label for="e">Your Email</label><input id="e" type="email" name="email"></div>
<div class="field"><label for="m">Message</label><p id="m-hint">Say hello</p><textarea id="m" name="message" aria-describedby="m-hint"></textarea></div>
<select name="finish"><option selected="">Oak</option><option>Walnut</option><option value="t">Teak</option></select>
<input type="text" name="website" value="">
<button>Send Message</button></form>
<form method="post" action="/api/newsletter" data-form="newsletter"><input type="hidden" name="page" value="/contact-us">
<input id="nl" type="email" name="email" aria-describedby="nl-note"><button>Subscribe</button><p id="nl-note" role="status"></p></form>
<script type="module">import("/assets/a.js")</script></body></html>`

func newFormServer(t *testing.T) (http.Handler, *store.Store) {
	t.Helper()
	st := testdb.SQLite(t)
	build := testBuild()
	build["contact-us/index.html"] = &fstest.MapFile{Data: []byte(contactPage)}
	build["contact-us/index.html.gz"] = &fstest.MapFile{Data: gzipped(contactPage)}
	s, err := New(discardLog(), build, testCatalogue(t, 1, 2), WithStore(st))
	if err != nil {
		t.Fatal(err)
	}
	return s.Handler(), st
}

func postForm(h http.Handler, path string, form url.Values, edit ...func(*http.Request)) *httptest.ResponseRecorder {
	asForm := func(r *http.Request) { r.Header.Set("Content-Type", "application/x-www-form-urlencoded") }
	return post(h, path, form.Encode(), append([]func(*http.Request){asForm}, edit...)...)
}

func stored(t *testing.T, st *store.Store) int {
	t.Helper()
	list, err := st.Enquiries(context.Background(), store.EnquiryFilter{AllSpam: true})
	if err != nil {
		t.Fatal(err)
	}
	return len(list)
}

// Without JavaScript the contact form posts itself: a valid one leads to
// the thank-you page, an invalid one comes back with the problems beside
// the fields and what was typed kept; never JSON.
func TestContactFormWithoutJavaScript(t *testing.T) {
	h, st := newFormServer(t)
	good := url.Values{"kind": {"contact"}, "page": {"/contact-us"}, "name": {"Asha"}, "email": {"asha@example.com"}, "message": {"Hello <there>"}, "website": {""}}
	w := postForm(h, "/api/enquiries", good)
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != thanksPath {
		t.Fatalf("a valid form: %d → %q, want 303 to %s", w.Code, w.Header().Get("Location"), thanksPath)
	}
	if n := stored(t, st); n != 1 {
		t.Fatalf("%d enquiries stored, want 1", n)
	}
	// Sent again (Back and a second click, a reload): the same thanks,
	// nothing stored twice.
	if w := postForm(h, "/api/enquiries", good); w.Code != http.StatusSeeOther || stored(t, st) != 1 {
		t.Errorf("the same form again: %d, %d stored, want 303 and still 1", w.Code, stored(t, st))
	}

	bad := url.Values{"kind": {"contact"}, "page": {"/contact-us"}, "name": {""}, "email": {"not-an-address"}, "message": {"Kept <b>text</b> & more"}, "finish": {"Walnut"}, "website": {""}}
	w = postForm(h, "/api/enquiries", bad)
	body := w.Body.String()
	if w.Code != http.StatusUnprocessableEntity || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("an invalid form: %d %s, want 422 HTML", w.Code, w.Header().Get("Content-Type"))
	}
	for _, want := range []string{
		"<title>Error: Contact us | Studio</title>",
		`<input id="n" name="name" value="" aria-invalid="true" autofocus="" aria-describedby="n-error"/><p id="n-error" class="field__error">Please tell us your name.</p>`,
		`value="not-an-address" aria-invalid="true" aria-describedby="e-error"/><p id="e-error" class="field__error">`,
		`<div class="field field--invalid"><label for="e">`,
		`<textarea id="m" name="message" aria-describedby="m-hint">Kept &lt;b&gt;text&lt;/b&gt; &amp; more</textarea>`,
		`aria-invalid="true" aria-describedby="field-finish-error"><option>Oak</option><option selected="">Walnut</option><option value="t">Teak</option></select><p id="field-finish-error" class="field__error">`, // a contact has no finish
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(body, "<script") || strings.Contains(body, "modulepreload") || strings.Contains(body, `"error"`) {
		t.Error("the page that comes back has scripts (it would hydrate over the problems) or JSON")
	}
	if strings.Contains(body, `id="nl" type="email" name="email" aria-describedby="nl-note" aria-invalid`) {
		t.Error("the newsletter box on the same page was marked too")
	}
	if n := stored(t, st); n != 1 {
		t.Errorf("an invalid form stored something: %d enquiries", n)
	}

	// From another site: refused, nothing stored.
	w = postForm(h, "/api/enquiries", good, func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") })
	if w.Code != http.StatusForbidden || stored(t, st) != 1 || !strings.Contains(w.Body.String(), "studio&#39;s own site") {
		t.Errorf("cross-site: %d, %d stored", w.Code, stored(t, st))
	}
	// Over the size cap: refused, nothing stored.
	huge := url.Values{"kind": {"contact"}, "page": {"/contact-us"}, "name": {"A"}, "email": {"a@example.com"}, "message": {strings.Repeat("x", maxBody)}}
	if w := postForm(h, "/api/enquiries", huge); w.Code != http.StatusRequestEntityTooLarge || stored(t, st) != 1 {
		t.Errorf("over 64 KiB: %d, %d stored", w.Code, stored(t, st))
	}
	// A page that is not the site's: the problem comes back as text on the
	// home page's terms, still not JSON.
	w = postForm(h, "/api/enquiries", url.Values{"kind": {"contact"}, "page": {"https://evil.example/"}, "name": {""}})
	if w.Code != http.StatusUnprocessableEntity || strings.Contains(w.Body.String(), "evil") || strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
		t.Errorf("an unknown page: %d %q", w.Code, w.Body.String())
	}
}

func TestNewsletterFormWithoutJavaScript(t *testing.T) {
	h, st := newFormServer(t)
	w := postForm(h, "/api/newsletter", url.Values{"page": {"/contact-us"}, "email": {"ravi@example.com"}})
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != newsletterThanksPath {
		t.Fatalf("sign-up: %d → %q", w.Code, w.Header().Get("Location"))
	}
	if subs, _ := st.Subscribers(context.Background()); len(subs) != 1 {
		t.Errorf("%d subscribers, want 1", len(subs))
	}
	w = postForm(h, "/api/newsletter", url.Values{"page": {"/contact-us"}, "email": {"ravi@"}})
	body := w.Body.String()
	if w.Code != http.StatusUnprocessableEntity || !strings.Contains(body, `<p id="nl-note" role="status">Please check your e-mail address`) ||
		!strings.Contains(body, `name="email" aria-describedby="nl-note" value="ravi@" aria-invalid="true" autofocus=""`) {
		t.Errorf("a bad address: %d\n%s", w.Code, body)
	}
}
