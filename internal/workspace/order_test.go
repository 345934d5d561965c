package workspace

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"studio/internal/contentform"
)

// productOrder is the draft's catalogue's product ids, in order.
func productOrder(t *testing.T, rig *editorRig) string {
	t.Helper()
	doc, err := contentform.Parse([]byte(rig.draftFile(t, "catalogue.json")))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range doc.At("/products").List() {
		ids = append(ids, p.Get("id").Text())
	}
	return strings.Join(ids, ",")
}

// A new piece goes first in the catalogue, where the site shows it on the
// first page.
func TestANewProductGoesFirst(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	page := do(rig.h, "GET", "/studio/content/products/new", nil, withCookie(rig.asha)).Body.String()
	w := do(rig.h, "POST", "/studio/content/products/new", url.Values{"_version": {version(t, page)}, "/products/0/name": {"Jali lamp"}, "/products/0/category": {"Seatings"}}, withCookie(rig.asha))
	if w.Code != http.StatusSeeOther {
		t.Fatalf("save: %d\n%s", w.Code, w.Body)
	}
	if got := productOrder(t, rig); got != "3,1,2" {
		t.Errorf("the catalogue's order: %s, want the new product 3 first", got)
	}
}

// "Move earlier" and "Move later" in the products list set the catalogue's
// order, each a save to the draft; the list opens again at the button
// pressed (the other one of the piece once it is at that end), saying
// where the piece is now.
func TestMovingAProductSetsTheCataloguesOrder(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	list := bodyText(do(rig.h, "GET", "/studio/content/products", nil, withCookie(rig.asha)))
	for _, want := range []string{`id="move-later-1" aria-label="Move later: Marwar chair"`, `id="move-earlier-2" aria-label="Move earlier: Jali screen"`} {
		if !strings.Contains(list, want) {
			t.Errorf("the list lacks %s", want)
		}
	}
	if strings.Contains(list, `id="move-earlier-1"`) || strings.Contains(list, `id="move-later-2"`) {
		t.Error("the first can be moved earlier or the last later")
	}
	w := do(rig.h, "POST", "/studio/content/products/2/move", url.Values{"move": {"earlier"}}, withCookie(rig.asha))
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/studio/content/products?moved=2#move-later-2" {
		t.Fatalf("move earlier: %d %s\n%s", w.Code, w.Header().Get("Location"), w.Body)
	}
	if got := productOrder(t, rig); got != "2,1" {
		t.Errorf("the order after moving 2 earlier: %s", got)
	}
	if list, _ := rig.repo.Unpublished(); len(list) != 1 || list[0].Subject() != "Product 2: moved earlier, to number 1 of 2 (Jali screen)" || list[0].Author != "asha" {
		t.Errorf("unpublished = %+v", list)
	}
	page := bodyText(do(rig.h, "GET", "/studio/content/products?moved=2", nil, withCookie(rig.asha)))
	if !strings.Contains(page, "“Jali screen” is now number 1 of 2 in the catalogue. Saved to the unpublished changes.") {
		t.Errorf("the list does not say where it is now:\n%s", page)
	}
	// Pressed again (a stale page): nothing changes.
	if w := do(rig.h, "POST", "/studio/content/products/2/move", url.Values{"move": {"earlier"}}, withCookie(rig.asha)); w.Code != http.StatusSeeOther {
		t.Errorf("moving the first earlier: %d", w.Code)
	}
	if list, _ := rig.repo.Unpublished(); len(list) != 1 {
		t.Errorf("moving the first earlier saved: %+v", list)
	}
	w = do(rig.h, "POST", "/studio/content/products/2/move", url.Values{"move": {"later"}}, withCookie(rig.asha))
	if w.Header().Get("Location") != "/studio/content/products?moved=2#move-earlier-2" || productOrder(t, rig) != "1,2" {
		t.Errorf("move later: %s, order %s", w.Header().Get("Location"), productOrder(t, rig))
	}
	for _, bad := range []string{"/studio/content/products/9/move", "/studio/content/products/x/move"} {
		if w := do(rig.h, "POST", bad, url.Values{"move": {"later"}}, withCookie(rig.asha)); w.Code < 400 {
			t.Errorf("%s: %d", bad, w.Code)
		}
	}
	if w := do(rig.h, "POST", "/studio/content/products/1/move", url.Values{"move": {"sideways"}}, withCookie(rig.asha)); w.Code != http.StatusBadRequest {
		t.Errorf("move sideways: %d", w.Code)
	}
}

// A name another piece has already is saved, with a warning that links to
// the other piece's form.
func TestADuplicateNameWarnsWithALinkToTheOther(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	main, _ := rig.repo.Main()
	w := do(rig.h, "POST", "/studio/content/products/2", url.Values{"_version": {main.Hash}, "/products/1/name": {"marwar  Chair"}}, withCookie(rig.asha))
	if w.Code != http.StatusSeeOther {
		t.Fatalf("save: %d\n%s", w.Code, w.Body)
	}
	page := bodyText(do(rig.h, "GET", w.Header().Get("Location"), nil, withCookie(rig.asha)))
	if !strings.Contains(page, `Another piece is already called “Marwar chair”: <a href="/studio/content/products/1">Marwar chair (product 1)</a>.`) {
		t.Errorf("no warning of the other piece:\n%s", page)
	}
	if other := bodyText(do(rig.h, "GET", "/studio/content/products/1", nil, withCookie(rig.asha))); !strings.Contains(other, `<a href="/studio/content/products/2">marwar  Chair (product 2)</a>`) {
		t.Error("the other piece's form does not warn of this one")
	}
	fresh := setupEditor(t)
	if page := bodyText(do(fresh.h, "GET", "/studio/content/products/2", nil, withCookie(fresh.asha))); strings.Contains(page, "Another piece is already called") {
		t.Error("a name of its own is warned of")
	}
}
