package workspace

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The trial's payload, typed into the Home page's hero: a path out of
// content/images/ to a file of the server's, which the build read (and
// wrote resized copies beside) once.
func TestTheHomePageRefusesAHeroOutsideTheContent(t *testing.T) {
	rig := setupPages(t)
	main, _ := rig.repo.Main()
	before := rig.draftFile(t, "pages.json")
	trial := "x/" + strings.Repeat("../", 20) + "tmp/secret/secret-plan.jpg"

	w := do(rig.h, "POST", "/studio/content/home", url.Values{"_version": {main.Hash}, "/home/hero/src": {trial}}, withCookie(rig.asha))
	body := w.Body.String()
	if w.Code != http.StatusUnprocessableEntity {
		t.Fatalf("the trial's hero: %d, want 422\n%s", w.Code, body)
	}
	want := `<ul id="f-home-hero-src-problems" class="problems field-problems"><li>&#34;` + trial + `&#34; has a . or .. folder in it: the path must stay inside content/images/, like products/chair.jpg</li>`
	if !strings.Contains(body, want) {
		t.Errorf("the hero's field does not say why:\n%s", body)
	}
	if summary := section(t, body, `class="error-summary"`); !strings.Contains(summary, `<a href="#f-home-hero-src">`) {
		t.Errorf("the summary does not link to the hero's field:\n%s", summary)
	}
	if _, draft, _ := rig.repo.Draft(); draft {
		t.Error("the refused save made a draft")
	}
	if got := rig.draftFile(t, "pages.json"); got != before {
		t.Errorf("the refused save changed pages.json:\n%s", got)
	}
	if len(rig.builder.checked) != 0 {
		t.Errorf("the build's tools were given the content %d times: the path must stop before them", len(rig.builder.checked))
	}
}
