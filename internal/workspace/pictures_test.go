package workspace

import (
	"encoding/json"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"studio/content"
	"studio/internal/contentform"
	"studio/internal/workspace/edit"
	"studio/internal/workspace/editor"
)

// setupPages is the editor on the fixtures with the content's own pages,
// their schema (or schema, when given) and the hero they name.
func setupPages(t *testing.T, schema ...[]byte) *editorRig {
	t.Helper()
	seed := maps.Clone(editorContent)
	for _, name := range []string{"pages.json", "schema/pages.schema.json"} {
		b, err := fs.ReadFile(content.Files, name)
		if err != nil {
			t.Fatal(err)
		}
		seed[name] = &fstest.MapFile{Data: b}
	}
	if len(schema) > 0 {
		seed["schema/pages.schema.json"] = &fstest.MapFile{Data: schema[0]}
	}
	doc := pagesOf(t, string(seed["pages.json"].Data))
	hero := "images/" + doc.At("/home/hero/src").Text()
	b, err := fs.ReadFile(content.Files, hero)
	if err != nil {
		t.Fatal(err)
	}
	seed[hero] = &fstest.MapFile{Data: b}
	return setupEditorOn(t, seed)
}

func pagesOf(t *testing.T, raw string) *contentform.Value {
	t.Helper()
	doc, err := contentform.Parse([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// postWithFile posts a form of the Content section with one file in the
// field fileField, as a browser does without the script.
func postWithFile(rig *editorRig, path string, fields url.Values, fileField, filename string, data []byte) *httptest.ResponseRecorder {
	return postFiles(rig, path, fields, fileField, map[string][]byte{filename: data})
}

// The Home page's form shows the hero as its picture, with a file input to
// replace it, and each drawing as its picture, chosen from the site's
// drawings by what they show: no file name, no path, no "Src".
func TestTheHomePageShowsItsPicturesNotTheirFiles(t *testing.T) {
	t.Parallel()
	rig := setupPages(t)
	w := do(rig.h, "GET", "/studio/content/home", nil, withCookie(rig.asha))
	body := bodyText(w)
	doc := pagesOf(t, rig.draftFile(t, "pages.json"))
	for _, want := range []string{
		`<legend>Picture</legend>`,
		`<img src="/studio/content/thumbnail?src=` + doc.At("/home/hero/src").Text() + `"`,
		`<label for="f-home-hero-src-file">Choose a new picture</label>`,
		`name="_picture/home/hero/src"`,
		"shown across the top of the home page; a wide landscape photograph works best",
		`<input type="radio" name="/home/craft/image" value="` + doc.At("/home/craft/image").Text() + `" checked>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the form lacks %s", want)
		}
	}
	drawings := edit.Drawings()
	if len(drawings) < 10 {
		t.Fatalf("the site's drawings: %v, want those of web/public/images", drawings)
	}
	for _, d := range drawings {
		if !strings.Contains(body, `value="`+d.Src+`"`) || !strings.Contains(body, "> "+d.Name+"</label>") {
			t.Errorf("the drawing %s (%s) is not a choice of the form", d.Src, d.Name)
		}
	}
	for _, word := range []string{"Src", "content/images", "web/public", ".svg,", "/images/name"} {
		if strings.Contains(visibleText(body), word) {
			t.Errorf("the form says %q", word)
		}
	}
	if !strings.Contains(w.Body.String(), `enctype="multipart/form-data"`) || !strings.Contains(w.Body.String(), "<script>") {
		t.Error("the Home page's form cannot send a picture (no multipart form, or no upload script)")
	}
}

var tags = regexp.MustCompile(`(?s)<script>.*?</script>|<[^>]*>`)

// visibleText is a page's text without its tags and script.
func visibleText(body string) string { return tags.ReplaceAllString(body, " ") }

// A picture chosen without the script replaces the hero at Save: it is
// committed into the content's images, named after its place, and the
// form shows it next.
func TestAPictureUploadedBecomesTheHero(t *testing.T) {
	t.Parallel()
	rig := setupPages(t)
	main, _ := rig.repo.Main()
	old := pagesOf(t, rig.draftFile(t, "pages.json")).At("/home/hero/src").Text()
	picture := photo(t, 2400, 1200)
	w := postWithFile(rig, "/studio/content/home", url.Values{"_version": {main.Hash}, "_action": {"save"}, "/home/hero/src": {old}},
		edit.PictureFilePrefix+"/home/hero/src", "terrace.png", picture)
	if w.Code != http.StatusSeeOther {
		t.Fatalf("save: %d, want a redirect\n%s", w.Code, w.Body)
	}
	src := pagesOf(t, rig.draftFile(t, "pages.json")).At("/home/hero/src").Text()
	if !regexp.MustCompile(`^pages/home-hero-[0-9a-f]{6}\.png$`).MatchString(src) {
		t.Fatalf("the hero is %q, want the picture uploaded, as pages/home-hero-….png", src)
	}
	if got := rig.draftFile(t, "images/"+src); got != string(picture) {
		t.Error("the hero's file is not the picture uploaded")
	}
	page := do(rig.h, "GET", "/studio/content/home", nil, withCookie(rig.asha)).Body.String()
	if !strings.Contains(page, `<img src="/studio/content/thumbnail?src=`+src+`"`) {
		t.Error("the form does not show the new hero")
	}
}

// The script sends the picture ahead, then the form with its name: the
// same save.
func TestAPictureSentAheadBecomesTheHero(t *testing.T) {
	t.Parallel()
	rig := setupPages(t)
	main, _ := rig.repo.Main()
	sent := postWithFile(rig, editor.PhotosPath, nil, editor.PhotoField, "terrace.png", photo(t, 2400, 1200))
	var a photoAnswer
	if err := json.Unmarshal(sent.Body.Bytes(), &a); err != nil || sent.Code != http.StatusOK {
		t.Fatalf("send: %d %s", sent.Code, sent.Body)
	}
	old := pagesOf(t, rig.draftFile(t, "pages.json")).At("/home/hero/src").Text()
	form := url.Values{"_version": {main.Hash}, "_action": {"save"}, "/home/hero/src": {old}, edit.PictureSentPrefix + "/home/hero/src": {"gone.png/old.png", a.Upload}}
	if w := do(rig.h, "POST", "/studio/content/home", form, withCookie(rig.asha)); w.Code != http.StatusSeeOther {
		t.Fatalf("save: %d, want a redirect\n%s", w.Code, w.Body)
	}
	name, _, _ := strings.Cut(a.Upload, "/")
	if src := pagesOf(t, rig.draftFile(t, "pages.json")).At("/home/hero/src").Text(); src != "pages/home-hero-"+name[:6]+".png" {
		t.Errorf("the hero is %q, want the last picture sent", src)
	}
}

// A file that is no picture the site can show is refused beside the
// hero's field, in its own words, and nothing is saved: an SVG (it can
// carry a script), an empty file, a HEIC photograph.
func TestAHeroThatIsNoPictureIsRefusedInItsOwnWords(t *testing.T) {
	t.Parallel()
	rig := setupPages(t)
	main, _ := rig.repo.Main()
	before := rig.draftFile(t, "pages.json")
	for _, c := range []struct {
		filename string
		data     []byte
		want     string
	}{
		{"logo.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), "“logo.svg” is an SVG drawing, which cannot be uploaded"},
		{"renamed.jpg", []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>`), "“renamed.jpg” is an SVG drawing, which cannot be uploaded"},
		{"empty.jpg", nil, edit.SayPhoto("empty", "empty.jpg", "")},
		{"IMG_0001.HEIC", heic, edit.SayPhoto("heic", "IMG_0001.HEIC", "")},
	} {
		w := postWithFile(rig, "/studio/content/home", url.Values{"_version": {main.Hash}, "_action": {"save"}},
			edit.PictureFilePrefix+"/home/hero/src", c.filename, c.data)
		body := bodyText(w)
		if w.Code != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d, want 422", c.filename, w.Code)
		}
		if !strings.Contains(body, `<ul id="f-home-hero-src-problems" class="problems field-problems"><li>`+c.want) {
			t.Errorf("%s: the hero's field does not say %q:\n%s", c.filename, c.want, body)
		}
		if summary := section(t, body, `class="error-summary"`); !strings.Contains(summary, `<a href="#f-home-hero-src">Hero › Picture</a>`) {
			t.Errorf("%s: the summary does not name the hero's picture:\n%s", c.filename, summary)
		}
	}
	if got := rig.draftFile(t, "pages.json"); got != before {
		t.Error("a refused picture changed pages.json")
	}
	code, a := 0, photoAnswer{}
	sent := postWithFile(rig, editor.PhotosPath, nil, editor.PhotoField, "logo.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`))
	code = sent.Code
	json.Unmarshal(sent.Body.Bytes(), &a)
	if code != http.StatusUnprocessableEntity || !strings.Contains(a.Problem, "is an SVG drawing, which cannot be uploaded") {
		t.Errorf("an SVG sent ahead: %d %+v", code, a)
	}
}

// A drawing chosen among the site's is saved as the site names it.
func TestADrawingIsChosenFromTheSites(t *testing.T) {
	t.Parallel()
	rig := setupPages(t)
	main, _ := rig.repo.Main()
	doc := pagesOf(t, rig.draftFile(t, "pages.json"))
	var other edit.Drawing
	for _, d := range edit.Drawings() {
		if d.Src != doc.At("/home/craft/image").Text() {
			other = d
			break
		}
	}
	form := url.Values{"_version": {main.Hash}, "_action": {"save"}, "/home/craft/image": {other.Src}}
	if w := do(rig.h, "POST", "/studio/content/home", form, withCookie(rig.asha)); w.Code != http.StatusSeeOther {
		t.Fatalf("save: %d, want a redirect\n%s", w.Code, w.Body)
	}
	if got := pagesOf(t, rig.draftFile(t, "pages.json")).At("/home/craft/image").Text(); got != other.Src {
		t.Errorf("the craft drawing is %q, want %q", got, other.Src)
	}
	page := do(rig.h, "GET", "/studio/content/home", nil, withCookie(rig.asha)).Body.String()
	if !strings.Contains(page, `<input type="radio" name="/home/craft/image" value="`+other.Src+`" checked>`) {
		t.Error("the form does not show the drawing chosen")
	}
}

// A picture of her own takes a drawing's place at Save, named after its
// place, and the form shows it as the drawing chosen; an SVG is refused
// beside the drawing's field.
func TestAPictureUploadedTakesADrawingsPlace(t *testing.T) {
	t.Parallel()
	rig := setupPages(t)
	main, _ := rig.repo.Main()
	refused := postWithFile(rig, "/studio/content/home", url.Values{"_version": {main.Hash}, "_action": {"save"}},
		edit.PictureFilePrefix+"/home/craft/image", "craft.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`))
	if want := `<ul id="f-home-craft-image-problems" class="problems field-problems"><li>“craft.svg” is an SVG drawing, which cannot be uploaded`; refused.Code != http.StatusUnprocessableEntity || !strings.Contains(bodyText(refused), want) {
		t.Errorf("an SVG in the drawing's place: %d, want 422 saying %s", refused.Code, want)
	}

	picture := photo(t, 1500, 1000)
	w := postWithFile(rig, "/studio/content/home", url.Values{"_version": {main.Hash}, "_action": {"save"}},
		edit.PictureFilePrefix+"/home/craft/image", "workbench.png", picture)
	if w.Code != http.StatusSeeOther {
		t.Fatalf("save: %d, want a redirect\n%s", w.Code, w.Body)
	}
	src := pagesOf(t, rig.draftFile(t, "pages.json")).At("/home/craft/image").Text()
	if !regexp.MustCompile(`^pages/home-craft-[0-9a-f]{6}\.png$`).MatchString(src) {
		t.Fatalf("the craft drawing is %q, want the picture uploaded, as pages/home-craft-….png", src)
	}
	if got := rig.draftFile(t, "images/"+src); got != string(picture) {
		t.Error("the drawing's file is not the picture uploaded")
	}
	page := do(rig.h, "GET", "/studio/content/home", nil, withCookie(rig.asha)).Body.String()
	for _, want := range []string{
		`<input type="radio" name="/home/craft/image" value="` + src + `" checked> <img src="/studio/content/thumbnail?src=` + src + `"`,
		`Your own picture`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the form lacks %s", want)
		}
	}
}

// A content repository made by an earlier bin/studio keeps its schema
// (testdata/pages.schema.earlier.json, as shipped before): its hero has no
// title and its hints name folders, and its drawings take only the site's
// own. The form shows the same pictures, in her words, and offers no
// upload that a drawing's field would refuse.
func TestAnEarlierSchemaShowsThePicturesToo(t *testing.T) {
	t.Parallel()
	earlier, err := os.ReadFile("testdata/pages.schema.earlier.json")
	if err != nil {
		t.Fatal(err)
	}
	rig := setupPages(t, earlier)
	body := bodyText(do(rig.h, "GET", "/studio/content/home", nil, withCookie(rig.asha)))
	doc := pagesOf(t, rig.draftFile(t, "pages.json"))
	for _, want := range []string{
		`<legend>Picture</legend>`,
		`<label for="f-home-hero-src-file">Choose a new picture</label>`,
		`<input type="radio" name="/home/craft/image" value="` + doc.At("/home/craft/image").Text() + `" checked>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the form lacks %s", want)
		}
	}
	for _, word := range []string{"Src", "content/images", "web/public", "Or use a picture of your own"} {
		if strings.Contains(visibleText(body), word) {
			t.Errorf("the form says %q", word)
		}
	}
}
