package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"testing/fstest"

	"golang.org/x/net/html"

	"studio/internal/store"
	"studio/internal/store/testdb"
)

// contactPage is a page with a form as the front end renders it: the
// Field component's label, control and empty error slot, a hint, the
// form's empty problem slot (FormProblem), its status, and a script.
const contactPage = `<!DOCTYPE html><html><head><title>Contact us | Studio</title><link rel="modulepreload" href="/assets/a.js"></head><body>
<form method="post" action="/api/enquiries" data-form="contact" aria-label="Contact form">
<input type="hidden" name="kind" value="contact"><input type="hidden" name="page" value="/contact-us">
<div class="enquiry-problem" role="alert" hidden=""><p></p></div>
<div class="field"><label for="n">Your Name</label><input id="n" name="name" value="" aria-describedby="n-error"><p id="n-error" class="field__error" hidden=""></p></div>
<div class="field"><label for="e">Your Email</label><input id="e" type="email" name="email" aria-describedby="e-error"><p id="e-error" class="field__error" hidden=""></p></div>
<div class="field"><label for="m">Message</label><p id="m-hint">Say hello</p><textarea id="m" name="message" aria-describedby="m-hint m-error"></textarea><p id="m-error" class="field__error" hidden=""></p></div>
<div class="field"><label for="f">Finish</label><select id="f" name="finish" aria-describedby="f-error"><option selected="">Oak</option><option>Walnut</option><option value="t">Teak</option></select><p id="f-error" class="field__error" hidden=""></p></div>
<input type="text" name="website" value="">
<p class="enquiry-status" role="status"></p>
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
		`<input id="n" name="name" value="" aria-describedby="n-error" aria-invalid="true" autofocus=""/><p id="n-error" class="field__error">Please tell us your name.</p>`,
		`value="not-an-address" aria-invalid="true"/><p id="e-error" class="field__error">Please check`,
		`<textarea id="m" name="message" aria-describedby="m-hint m-error">Kept &lt;b&gt;text&lt;/b&gt; &amp; more</textarea><p id="m-error" class="field__error" hidden=""></p>`,
		// A contact has no finish.
		`<select id="f" name="finish" aria-describedby="f-error" aria-invalid="true"><option>Oak</option><option selected="">Walnut</option><option value="t">Teak</option></select><p id="f-error" class="field__error">`,
		// Every problem is a field's.
		`<div class="enquiry-problem" role="alert" hidden=""><p></p></div>`,
		`<p class="enquiry-status" role="status"></p>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	sameElements(t, contactPage, body)
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
	sameElements(t, contactPage, body)
	// A refusal of the whole form is said in the box's note too, as with
	// JavaScript; a character that cannot be kept, by its field's problem.
	w = postForm(h, "/api/newsletter", url.Values{"page": {"/contact-us"}, "email": {"ravi@example.com"}}, func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") })
	if body := w.Body.String(); w.Code != http.StatusForbidden || !strings.Contains(body, `<p id="nl-note" role="status">This form must be sent from the studio&#39;s own site.</p>`) {
		t.Errorf("cross-site: %d\n%s", w.Code, body)
	}
	w = postForm(h, "/api/newsletter", url.Values{"page": {"/contact-us"}, "email": {"ravi\x00@example.com"}})
	if body := w.Body.String(); w.Code != http.StatusBadRequest || !strings.Contains(body, `<p id="nl-note" role="status">This has a character that cannot be kept`) {
		t.Errorf("a NUL: %d\n%s", w.Code, body)
	}
}

// A problem of the whole form goes in the form's own slot, with those of
// fields the page has no slot for (a hidden one).
func TestFormProblemWithoutJavaScript(t *testing.T) {
	h, _ := newFormServer(t)
	w := postForm(h, "/api/enquiries", url.Values{"kind": {"contact"}, "page": {"/contact-us"}, "productId": {"x"}, "name": {"Asha"}, "email": {"asha@example.com"}, "message": {"Hello"}})
	body := w.Body.String()
	if w.Code != http.StatusUnprocessableEntity || !strings.Contains(body, `<div class="enquiry-problem" role="alert"><p>The product of this form is not one we know.`) {
		t.Errorf("an unknown product: %d\n%s", w.Code, body)
	}
	sameElements(t, contactPage, body)
	w = postForm(h, "/api/enquiries", url.Values{"kind": {"contact"}, "page": {"/contact-us"}, "name": {"Asha\x00"}, "email": {"asha@example.com"}, "message": {"Hello"}})
	body = w.Body.String()
	if w.Code != http.StatusBadRequest || !strings.Contains(body, `<div class="enquiry-problem" role="alert"><p>Some fields have a character that cannot be kept.`) ||
		!strings.Contains(body, `<p id="n-error" class="field__error">This has a character`) {
		t.Errorf("a NUL in the name: %d\n%s", w.Code, body)
	}
	sameElements(t, contactPage, body)
}

// A form whose page has no slot for a problem is answered with the
// problem as text, never with markup the front end did not make.
func TestFillFormWithoutSlot(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(`<form data-form="f"><input name="name"></form>`))
	if err != nil {
		t.Fatal(err)
	}
	if err := fillForm(findForm(doc, "f"), nil, map[string]string{"name": "Please tell us your name."}, ""); err == nil {
		t.Error("a problem with nowhere to go: no error")
	}
}

// sameElements fails unless the page that came back has the elements of
// the prerendered one, but its scripts: the problems went into slots the
// page had, and nothing was made.
func sameElements(t *testing.T, prerendered, got string) {
	t.Helper()
	elements := func(page string) []string {
		doc, err := html.Parse(strings.NewReader(page))
		if err != nil {
			t.Fatal(err)
		}
		withoutScripts(doc)
		var list []string
		var walk func(*html.Node)
		walk = func(n *html.Node) {
			if n.Type == html.ElementNode {
				list = append(list, n.Data+"#"+attr(n, "id"))
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(doc)
		return list
	}
	if want, have := elements(prerendered), elements(got); !slices.Equal(want, have) {
		t.Errorf("the page that came back has other elements than the prerendered one:\n%v\n%v", have, want)
	}
}

// An enquiry form sent without JavaScript to its page's own address (as the
// site's are): a refusal is that page again with the problems and what was
// typed, so the browser's address stays the page's, not the API's.
func TestEnquiryFormToItsOwnPage(t *testing.T) {
	h, st := newFormServer(t)
	bad := url.Values{"kind": {"contact"}, "name": {"Asha"}, "email": {"not-an-address"}, "message": {"Kept text"}, "website": {""}}
	w := postForm(h, "/contact-us", bad)
	body := w.Body.String()
	if w.Code != http.StatusUnprocessableEntity || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("an invalid form: %d %s, want 422 HTML", w.Code, w.Header().Get("Content-Type"))
	}
	for _, want := range []string{
		"<title>Error: Contact us | Studio</title>",
		`value="not-an-address" aria-invalid="true" autofocus=""/><p id="e-error" class="field__error">Please check`,
		`<input id="n" name="name" value="Asha" aria-describedby="n-error"/>`,
		`<textarea id="m" name="message" aria-describedby="m-hint m-error">Kept text</textarea>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if n := stored(t, st); n != 0 {
		t.Fatalf("an invalid form stored %d enquiries", n)
	}

	bad.Set("email", "asha@example.com")
	if w := postForm(h, "/contact-us", bad); w.Code != http.StatusSeeOther || w.Header().Get("Location") != thanksPath || stored(t, st) != 1 {
		t.Errorf("a valid form: %d → %q, %d stored; want 303 to %s and 1", w.Code, w.Header().Get("Location"), stored(t, st), thanksPath)
	}
	// From another site: refused on the page, nothing stored.
	w = postForm(h, "/contact-us", bad, func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") })
	if w.Code != http.StatusForbidden || stored(t, st) != 1 {
		t.Errorf("cross-site: %d, %d stored", w.Code, stored(t, st))
	}
	// No page, no form: a post to an address that is none is not taken.
	if w := postForm(h, "/no-such-page", bad); w.Code != http.StatusMethodNotAllowed || stored(t, st) != 1 {
		t.Errorf("a post to no page: %d, %d stored", w.Code, stored(t, st))
	}
}
