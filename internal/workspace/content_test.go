package workspace

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"html"
	"html/template"
	"image"
	"image/jpeg"
	"image/png"
	"io/fs"
	"maps"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"studio/internal/contentform"
	"studio/internal/publish/build"
	published "studio/internal/publish/releases"
	"studio/internal/publish/repo"
	"studio/internal/store"
	"studio/internal/store/testdb"
	"studio/internal/workspace/edit"
	"studio/internal/workspace/editor"
)

var _ edit.Content = (*repo.Repository)(nil)
var _ edit.Builder = (*build.NodeBuilder)(nil)

// The content the editor's tests start from: two files and their schemas.
var editorContent = fstest.MapFS{
	"site.json": {Data: []byte(`{
  "name": "Jharokha",
  "phones": [
    { "label": "Studio", "tel": "+912912624410" }
  ]
}
`)},
	"schema/site.schema.json": {Data: []byte(`{
  "type": "object",
  "required": ["name", "phones"],
  "properties": {
    "name": { "type": "string", "title": "Studio name" },
    "phones": { "type": "array", "items": { "type": "object", "required": ["label", "tel"],
      "properties": { "label": { "type": "string" }, "tel": { "type": "string", "title": "Number for links" } } } }
  }
}`)},
	"pages.json": {Data: []byte(`{
  "home": { "intention": "Made by hand" },
  "about": { "title": "About us" }
}
`)},
	"catalogue.json": {Data: []byte(`{
  "categories": [{ "name": "Seatings" }],
  "featured": { "whatsHot": [1, 2], "fresh": 1 },
  "products": [
    { "id": 1, "name": "Marwar chair", "category": "Seatings", "images": [{ "src": "products/1.png", "alt": "A chair" }] },
    { "id": 2, "name": "Jali screen", "category": "Seatings", "images": [{ "src": "products/2.png", "alt": "A screen" }] }
  ]
}
`)},
	"images/products/1.png": {Data: []byte("png one")},
	"pages/about.md":        {Data: []byte("---\ntitle: About\n---\n\n## Our story\n\nMade by hand.\n")},
	"images/products/2.png": {Data: []byte("png two")},
	"schema/catalogue.schema.json": {Data: []byte(`{
  "type": "object",
  "properties": {
    "categories": { "type": "array", "items": { "type": "object", "properties": { "name": { "type": "string" } } } },
    "products": { "type": "array", "items": { "type": "object", "required": ["id", "name", "category", "images"], "properties": {
      "id": { "type": "integer" }, "name": { "type": "string", "title": "Name" }, "category": { "type": "string" },
      "images": { "type": "array", "title": "Photographs", "items": { "type": "object", "title": "Photograph", "required": ["src", "alt"],
        "properties": { "src": { "type": "string" }, "alt": { "type": "string", "title": "Alt text" } } } } } } }
  }
}`)},
	"schema/pages.schema.json": {Data: []byte(`{
  "type": "object",
  "properties": {
    "home": { "type": "object", "properties": { "intention": { "type": "string", "title": "Intention" } } },
    "about": { "type": "object", "properties": { "title": { "type": "string" } } }
  }
}`)},
}

// fakeBuilder is the build's tools. Its content check faults a studio
// named "Bad", and keeps the site.json it was given; its Markdown renderer
// makes each line a paragraph, escaped, with {{site.name}} filled in from
// the site.json it was given; {{site.nome}} names no fact.
type fakeBuilder struct{ checked []string }

func (f *fakeBuilder) RenderMarkdown(_ context.Context, dir, name string, text []byte) (string, error) {
	if bytes.Contains(text, []byte("{{site.nome}}")) {
		return "", &build.ContentError{Problems: []string{"content/" + name + ": {{site.nome}} names no fact"}}
	}
	b, err := os.ReadFile(filepath.Join(dir, "site.json"))
	if err != nil {
		return "", err
	}
	site, err := contentform.Parse(b)
	if err != nil {
		return "", err
	}
	var html strings.Builder
	for line := range strings.Lines(string(text)) {
		if line = strings.TrimSpace(line); line != "" {
			html.WriteString("<p>" + template.HTMLEscapeString(strings.ReplaceAll(line, "{{site.name}}", site.Get("name").String)) + "</p>\n")
		}
	}
	return html.String(), nil
}

func (f *fakeBuilder) Check(_ context.Context, dir string) ([]string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "site.json"))
	if err != nil {
		return nil, err
	}
	f.checked = append(f.checked, string(b))
	doc, err := contentform.Parse(b)
	if err != nil {
		return nil, err
	}
	if doc.Get("name").String == "Elsewhere" {
		return []string{"content/pages.json: home.intention: is empty", "content/catalogue.json: product 2 (Jali screen): name: is empty", "content/pages/about.md: {{site.nome}} names no fact"}, nil
	}
	if doc.Get("name").String == "Bad" {
		return []string{`content/site.json: name: "Bad" is not a name the studio may have`, "content/site.json: something of the whole file"}, nil
	}
	if tel := doc.At("/phones/0/tel").String; strings.ContainsAny(tel, " x") {
		return []string{fmt.Sprintf(`content/site.json: phones[0].tel: %q is not a number for links`, tel)}, nil
	}
	return nil, nil
}

type editorRig struct {
	h       *Handler
	repo    *repo.Repository
	builder *fakeBuilder
	rel     *fakeReleases
	st      *store.Store
	asha    *http.Cookie
	ravi    *http.Cookie
}

func setupEditor(t *testing.T) *editorRig {
	t.Helper()
	return setupEditorOn(t, editorContent)
}

// setupEditorOn is setupEditor on a content of the test's own.
func setupEditorOn(t *testing.T, seed fs.FS, edit ...func(*Options)) *editorRig {
	t.Helper()
	contentRepo, err := repo.Open(t.TempDir(), seed)
	if err != nil {
		t.Fatal(err)
	}
	rig := &editorRig{repo: contentRepo, builder: &fakeBuilder{}, rel: newFakeReleases(), st: testdb.SQLite(t)}
	scratch := t.TempDir()
	rig.h = setupOn(t, rig.st, func(o *Options) {
		o.Content, o.Builder, o.Scratch, o.Releases = contentRepo, rig.builder, scratch, rig.rel
		for _, e := range edit {
			e(o)
		}
	})
	rig.asha = signIn(t, rig.h, asha, ashaPassword)
	rig.ravi = signIn(t, rig.h, ravi, raviPassword)
	return rig
}

// version is the hidden version field of a form page.
func version(t *testing.T, body string) string {
	t.Helper()
	_, rest, ok := strings.Cut(body, `name="_version" value="`)
	if !ok {
		t.Fatalf("no _version in:\n%s", body)
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

func (rig *editorRig) draftFile(t *testing.T, name string) string {
	t.Helper()
	head, _, err := rig.repo.Draft()
	if err != nil {
		t.Fatal(err)
	}
	b, err := rig.repo.ReadFile(head.Hash, name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestTheStudioDetailsFormIsMadeFromTheSchema(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	w := do(rig.h, "GET", "/studio/content/studio", nil, withCookie(rig.asha))
	body := w.Body.String()
	for _, want := range []string{`<label for="f-name">Studio name</label>`, `value="Jharokha"`, `<legend>Phone 1</legend>`,
		`<label for="f-phones-0-tel">Number for links</label>`, `value="&#43;912912624410"`, `>Add phone</button>`} {
		if w.Code != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("GET /studio/content/studio: %d, missing %s", w.Code, want)
		}
	}
	if w := do(rig.h, "GET", "/studio/content/studio", nil); w.Code != http.StatusSeeOther {
		t.Errorf("signed out: %d, want the way to sign in", w.Code)
	}
}

func TestASaveGoesToTheDraftNamedByWhoAndWhat(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	main, _ := rig.repo.Main()
	form := url.Values{"_version": {main.Hash}, "/name": {"Jharokha Studio"}, "/phones/0/label": {"Studio"}, "/phones/0/tel": {"+912912624410"}, "_count/phones": {"1"}}
	w := do(rig.h, "POST", "/studio/content/studio", form, withCookie(rig.asha))
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/studio/content/studio?saved=1" {
		t.Fatalf("save: %d %s\n%s", w.Code, w.Header().Get("Location"), w.Body)
	}
	if got := rig.draftFile(t, "site.json"); !strings.Contains(got, `"name": "Jharokha Studio",`) || !strings.Contains(got, `{ "label": "Studio", "tel": "+912912624410" }`) {
		t.Errorf("the draft's site.json:\n%s", got)
	}
	if now, _ := rig.repo.Main(); now.Hash != main.Hash {
		t.Error("a save moved main: the live site would change")
	}
	list, _ := rig.repo.Unpublished()
	if len(list) != 1 || list[0].Subject() != "Studio details: Studio name" || list[0].Author != "asha" {
		t.Errorf("unpublished = %+v, want one change by asha naming the studio name", list)
	}
	if len(rig.builder.checked) != 1 || !strings.Contains(rig.builder.checked[0], "Jharokha Studio") {
		t.Errorf("the check saw %q, want the changed site.json", rig.builder.checked)
	}
	page := do(rig.h, "GET", "/studio/content", nil, withCookie(rig.asha)).Body.String()
	if !strings.Contains(page, "Studio details: Studio name") || !strings.Contains(page, ">Publish</button>") {
		t.Errorf("the Content page does not list the change with Publish:\n%s", page)
	}
}

func TestTheChecksProblemsAreShownBesideTheFieldAndNothingIsSaved(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	main, _ := rig.repo.Main()
	w := do(rig.h, "POST", "/studio/content/studio", url.Values{"_version": {main.Hash}, "/name": {"Bad"}}, withCookie(rig.asha))
	body := w.Body.String()
	if w.Code != http.StatusUnprocessableEntity {
		t.Fatalf("a faulted save: %d, want 422", w.Code)
	}
	for _, want := range []string{`aria-describedby="f-name-problems" aria-invalid="true"`, `<ul id="f-name-problems" class="problems field-problems"><li>&#34;Bad&#34; is not a name the studio may have</li>`,
		"<li>something of the whole file</li>", `value="Bad"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s:\n%s", want, body)
		}
	}
	// Listed first too, each linked to its field, the list focused.
	summary := section(t, body, `class="error-summary"`)
	for _, want := range []string{`autofocus`, `<a href="#f-name">Studio name</a>: &#34;Bad&#34; is not a name the studio may have`, `<li>something of the whole file</li>`} {
		if !strings.Contains(summary, want) {
			t.Errorf("the summary lacks %s:\n%s", want, summary)
		}
	}
	if _, draft, _ := rig.repo.Draft(); draft {
		t.Error("a faulted save made a draft")
	}
}

// A problem the check finds elsewhere in the content is named by the part
// and the field as their forms have them, not by the files' names.
func TestTheChecksProblemsElsewhereAreNamedInTheOwnersWords(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	main, _ := rig.repo.Main()
	w := do(rig.h, "POST", "/studio/content/studio", url.Values{"_version": {main.Hash}, "/name": {"Elsewhere"}}, withCookie(rig.asha))
	summary := section(t, w.Body.String(), `class="error-summary"`)
	for _, want := range []string{"<li>Home page › Intention: is empty</li>", "<li>Jali screen (product 2) › Name: is empty</li>", "<li>About page: the story: {{site.nome}} names no fact</li>"} {
		if w.Code != http.StatusUnprocessableEntity || !strings.Contains(summary, want) {
			t.Errorf("%d, the summary lacks %s:\n%s", w.Code, want, summary)
		}
	}
	if strings.Contains(summary, ".json") || strings.Contains(summary, "content/") {
		t.Errorf("the summary names a file:\n%s", summary)
	}
}

// A field in a list is named in the summary by its item and its label.
func TestTheSummaryNamesAFieldByWhereItIs(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	main, _ := rig.repo.Main()
	form := url.Values{"_version": {main.Hash}, "/name": {"Jharokha"}, "/phones/0/label": {"Studio"}, "/phones/0/tel": {"+91 98290 1234x"}, "_count/phones": {"1"}}
	w := do(rig.h, "POST", "/studio/content/studio", form, withCookie(rig.asha))
	summary := section(t, w.Body.String(), `class="error-summary"`)
	if w.Code != http.StatusUnprocessableEntity || !strings.Contains(summary, `<li><a href="#f-phones-0-tel">Phone 1 › Number for links</a>: `) {
		t.Errorf("an empty number: %d, summary:\n%s", w.Code, summary)
	}
	if _, draft, _ := rig.repo.Draft(); draft {
		t.Error("a faulted save made a draft")
	}
}

// section is the element of a page that opens with attr, to its </section>.
func section(t *testing.T, body, attr string) string {
	t.Helper()
	at := strings.Index(body, "<section "+attr)
	if at < 0 {
		t.Fatalf("no <section %s> in:\n%s", attr, body)
	}
	end := strings.Index(body[at:], "</section>")
	return body[at : at+end]
}

func TestMarkupInAFieldIsKeptAsTextAndShownEscaped(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	main, _ := rig.repo.Main()
	evil := `<script>alert("x")</script>`
	if w := do(rig.h, "POST", "/studio/content/studio", url.Values{"_version": {main.Hash}, "/name": {evil}}, withCookie(rig.asha)); w.Code != http.StatusSeeOther {
		t.Fatalf("save: %d", w.Code)
	}
	if got := rig.draftFile(t, "site.json"); !strings.Contains(got, `"name": "<script>alert(\"x\")</script>"`) {
		t.Errorf("the draft's site.json:\n%s", got)
	}
	if body := do(rig.h, "GET", "/studio/content/studio", nil, withCookie(rig.asha)).Body.String(); strings.Contains(body, evil) {
		t.Error("the form shows the markup unescaped")
	}
}

// hidden is the value of a form page's hidden input name.
func hidden(t *testing.T, body, name string) string {
	t.Helper()
	_, rest, ok := strings.Cut(body, `name="`+name+`" value="`)
	if !ok {
		t.Fatalf("no %s in:\n%s", name, body)
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

// named gives the account email its name, as the pages say who did what.
func (rig *editorRig) named(t *testing.T, email, name string) {
	t.Helper()
	a, err := rig.st.AccountByEmail(context.Background(), email)
	if err == nil {
		err = rig.st.SetName(context.Background(), a.ID, name)
	}
	if err != nil {
		t.Fatal(err)
	}
}

func TestSavesOfDifferentFieldsOfOneProductAreBothKeptAndSaid(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	rig.named(t, asha, "Asha")
	started := version(t, do(rig.h, "GET", "/studio/content/products/1", nil, withCookie(rig.ravi)).Body.String())
	if w := do(rig.h, "POST", "/studio/content/products/1", url.Values{"_version": {started}, "/products/0/name": {"Kikar"}}, withCookie(rig.asha)); w.Code != http.StatusSeeOther {
		t.Fatalf("Asha's save: %d\n%s", w.Code, w.Body)
	}
	w := do(rig.h, "POST", "/studio/content/products/1", url.Values{"_version": {started}, "/products/0/images/0/alt": {"A teak chair"}}, withCookie(rig.ravi))
	if w.Code != http.StatusSeeOther {
		t.Fatalf("Ravi's save of another field: %d, want it saved at once\n%s", w.Code, w.Body)
	}
	got := rig.draftFile(t, "catalogue.json")
	if !strings.Contains(got, `"name": "Kikar"`) || !strings.Contains(got, `"alt": "A teak chair"`) {
		t.Errorf("the draft lost a save:\n%s", got)
	}
	body := do(rig.h, "GET", w.Header().Get("Location"), nil, withCookie(rig.ravi)).Body.String()
	if !strings.Contains(body, "Saved to the unpublished changes. Asha’s change to the name, saved meanwhile, is kept.") {
		t.Errorf("the page after the merged save does not say Asha's change is kept:\n%s", body)
	}
}

func TestASaveOfAFieldChangedMeanwhileShowsBothValuesToChooseOne(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	started := version(t, do(rig.h, "GET", "/studio/content/studio", nil, withCookie(rig.ravi)).Body.String())
	if w := do(rig.h, "POST", "/studio/content/studio", url.Values{"_version": {started}, "/name": {"Asha's name"}}, withCookie(rig.asha)); w.Code != http.StatusSeeOther {
		t.Fatalf("Asha's save: %d", w.Code)
	}
	ravis := url.Values{"_version": {started}, "/name": {"Ravi's name"}, "/phones/0/label": {"Workshop"}}
	w := do(rig.h, "POST", "/studio/content/studio", ravis, withCookie(rig.ravi))
	body := w.Body.String()
	if w.Code != http.StatusConflict || !strings.Contains(body, "Not saved yet: asha changed the studio name of the Studio details too, at ") {
		t.Fatalf("Ravi's save over Asha's: %d, want 409 naming Asha's change:\n%s", w.Code, body)
	}
	choices := section(t, body, `class="conflicts"`)
	for _, want := range []string{"<legend>Studio name</legend>", `<input type="radio" name="_keep:/name" value="mine"> <span class="whose">Yours</span> <span class="value">Ravi&#39;s name</span>`,
		`<input type="radio" name="_keep:/name" value="theirs"> <span class="whose">Saved meanwhile by asha, at `, `<span class="value">Asha&#39;s name</span>`} {
		if !strings.Contains(choices, want) {
			t.Errorf("the choices lack %s:\n%s", want, choices)
		}
	}
	// What Ravi typed stays in the form, his other change with it.
	if !strings.Contains(body, `value="Ravi&#39;s name"`) || !strings.Contains(body, `value="Workshop"`) || strings.Count(choices, "<fieldset") != 1 {
		t.Errorf("the form lost what Ravi typed, or asks about a field only he changed:\n%s", body)
	}
	if got := rig.draftFile(t, "site.json"); !strings.Contains(got, "Asha's name") || strings.Contains(got, "Workshop") {
		t.Errorf("the refused save changed the draft:\n%s", got)
	}
	// Saved again without a choice: asked again.
	ravis.Set("_against", hidden(t, body, "_against"))
	if w := do(rig.h, "POST", "/studio/content/studio", ravis, withCookie(rig.ravi)); w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), "Not saved yet: choose which to keep for each field below") {
		t.Fatalf("Ravi's save with no choice: %d\n%s", w.Code, w.Body)
	}
	// Asha's name chosen: it stays, with Ravi's phone.
	ravis.Set("_keep:/name", "theirs")
	if w := do(rig.h, "POST", "/studio/content/studio", ravis, withCookie(rig.ravi)); w.Code != http.StatusSeeOther {
		t.Fatalf("Ravi's save with a choice: %d\n%s", w.Code, w.Body)
	}
	if got := rig.draftFile(t, "site.json"); !strings.Contains(got, "Asha's name") || !strings.Contains(got, `"label": "Workshop"`) {
		t.Errorf("the draft after choosing Asha's name:\n%s", got)
	}
}

func TestAProductIsNamedAsTheStudioNamesIt(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	started := version(t, do(rig.h, "GET", "/studio/content/products/1", nil, withCookie(rig.ravi)).Body.String())
	do(rig.h, "POST", "/studio/content/products/1", url.Values{"_version": {started}, "/products/0/name": {"Kikar"}}, withCookie(rig.asha))
	w := do(rig.h, "POST", "/studio/content/products/1", url.Values{"_version": {started}, "/products/0/name": {"Marwar"}}, withCookie(rig.ravi))
	if body := w.Body.String(); w.Code != http.StatusConflict || !strings.Contains(body, "asha changed the name of Marwar chair (product 1) too") {
		t.Errorf("the same product's name: %d\n%s", w.Code, body)
	}
	// Deleted meanwhile: said, and not saved over.
	page := do(rig.h, "GET", "/studio/content/products/2", nil, withCookie(rig.ravi)).Body.String()
	if w := do(rig.h, "POST", "/studio/content/products/2/delete", url.Values{"_version": {version(t, page)}}, withCookie(rig.asha)); w.Code != http.StatusSeeOther {
		t.Fatalf("deleting: %d\n%s", w.Code, w.Body)
	}
	w = do(rig.h, "POST", "/studio/content/products/2", url.Values{"_version": {version(t, page)}, "/products/1/name": {"Jali"}}, withCookie(rig.ravi))
	if body := w.Body.String(); w.Code != http.StatusConflict || !strings.Contains(body, "Not saved: asha deleted Jali screen (product 2) at ") || !strings.Contains(body, `value="Jali"`) {
		t.Errorf("saving a product deleted meanwhile: %d\n%s", w.Code, body)
	}
	// (The catalogue's removed list names it "Jali screen"; the save would say "Jali".)
	if got := rig.draftFile(t, "catalogue.json"); strings.Contains(got, `"Jali"`) {
		t.Errorf("the deleted product came back:\n%s", got)
	}
}

func TestATextChangedMeanwhileShowsBothToChooseOne(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	started := version(t, do(rig.h, "GET", "/studio/content/text-about", nil, withCookie(rig.ravi)).Body.String())
	if w := do(rig.h, "POST", "/studio/content/text-about", url.Values{"_version": {started}, "text": {"Asha's story\n"}}, withCookie(rig.asha)); w.Code != http.StatusSeeOther {
		t.Fatalf("Asha's save: %d", w.Code)
	}
	ravis := url.Values{"_version": {started}, "text": {"Ravi's story\n"}}
	w := do(rig.h, "POST", "/studio/content/text-about", ravis, withCookie(rig.ravi))
	body := w.Body.String()
	choices := section(t, body, `class="conflicts"`)
	if w.Code != http.StatusConflict || !strings.Contains(choices, `name="_keep:text" value="theirs" form="text-form"> <span class="whose">Saved meanwhile by asha`) ||
		!strings.Contains(body, "asha changed the text of the About page: the story too") || !strings.Contains(choices, "Asha&#39;s story") || !strings.Contains(choices, "Ravi&#39;s story") {
		t.Fatalf("Ravi's text over Asha's: %d, want both to choose from:\n%s", w.Code, body)
	}
	ravis.Set("_against", hidden(t, body, "_against"))
	ravis.Set("_keep:text", "mine")
	if w := do(rig.h, "POST", "/studio/content/text-about", ravis, withCookie(rig.ravi)); w.Code != http.StatusSeeOther {
		t.Fatalf("Ravi's text chosen: %d\n%s", w.Code, w.Body)
	}
	if got := rig.draftFile(t, "pages/about.md"); got != "Ravi's story\n" {
		t.Errorf("the text saved: %q", got)
	}
}

func TestSavesOfDifferentPartsStartedTogetherAreBothKept(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	main, _ := rig.repo.Main()
	if w := do(rig.h, "POST", "/studio/content/home", url.Values{"_version": {main.Hash}, "/home/intention": {"Made in Jodhpur"}}, withCookie(rig.asha)); w.Code != http.StatusSeeOther {
		t.Fatalf("the home page's save: %d\n%s", w.Code, w.Body)
	}
	if w := do(rig.h, "POST", "/studio/content/about", url.Values{"_version": {main.Hash}, "/about/title": {"Who we are"}}, withCookie(rig.ravi)); w.Code != http.StatusSeeOther {
		t.Fatalf("the about page's save, started before: %d\n%s", w.Code, w.Body)
	}
	got := rig.draftFile(t, "pages.json")
	if !strings.Contains(got, "Made in Jodhpur") || !strings.Contains(got, "Who we are") {
		t.Errorf("pages.json lost a save:\n%s", got)
	}
}

func TestListButtonsChangeTheFormWithoutSaving(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	main, _ := rig.repo.Main()
	w := do(rig.h, "POST", "/studio/content/studio", url.Values{"_version": {main.Hash}, "/name": {"Changed"}, "_action": {"add:/phones"}}, withCookie(rig.asha))
	body := w.Body.String()
	if w.Code != http.StatusOK || !strings.Contains(body, "<legend>Phone 2</legend>") || !strings.Contains(body, `value="Changed"`) || !strings.Contains(body, "Nothing is saved until you press Save") {
		t.Errorf("Add phone: %d\n%s", w.Code, body)
	}
	if _, draft, _ := rig.repo.Draft(); draft {
		t.Error("a list's button saved")
	}
	if w := do(rig.h, "POST", "/studio/content/studio", url.Values{"_version": {main.Hash}, "_action": {"remove:/nowhere/3"}}, withCookie(rig.asha)); w.Code != http.StatusBadRequest {
		t.Errorf("a button naming nothing: %d, want 400", w.Code)
	}
}

// A publish refused because the same part changed outside the workspace
// (a developer's push) names the part, not its file, and no git.
func TestAPublishOverAChangeOutsideTheWorkspaceNamesThePart(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	main, _ := rig.repo.Main()
	do(rig.h, "POST", "/studio/content/studio", url.Values{"_version": {main.Hash}, "/name": {"New name"}}, withCookie(rig.asha))
	pushed := strings.Replace(rig.draftFile(t, "site.json"), "New name", "Pushed name", 1)
	if _, err := rig.repo.Commit(main.Hash, map[string][]byte{"site.json": []byte(pushed)}, nil, repo.Signature{Name: "dev", Email: "dev@example.com"}, "pushed"); err != nil {
		t.Fatal(err)
	}
	w := do(rig.h, "POST", "/studio/content/publish", nil, withCookie(rig.asha))
	body := bodyText(w)
	if w.Code != http.StatusConflict || !strings.Contains(body, "someone changed the live content outside the workspace (Studio details)") || strings.Contains(body, ".json") || strings.Contains(body, "git") {
		t.Errorf("publish over a push: %d\n%s", w.Code, body)
	}
}

// Without a builder, Publish says she can only ask, not how to set one up.
func TestAPublishWithoutABuilderSaysWhomToAsk(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	main, _ := rig.repo.Main()
	do(rig.h, "POST", "/studio/content/studio", url.Values{"_version": {main.Hash}, "/name": {"New name"}}, withCookie(rig.asha))
	rig.rel.mu.Lock()
	rig.rel.canBuild = false
	rig.rel.mu.Unlock()
	w := do(rig.h, "POST", "/studio/content/publish", nil, withCookie(rig.asha))
	if body := bodyText(w); w.Code != http.StatusConflict || !strings.Contains(body, "this server cannot build the site. Ask whoever runs it") || strings.Contains(body, "BUILDER_DIR") {
		t.Errorf("publish without a builder: %d\n%s", w.Code, body)
	}
}

// What stopped a publish's build is said on the Content page by part and
// field, as the forms name them, not by file, each a link to its field.
func TestAFailedPublishNamesThePartsAndFields(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	main, _ := rig.repo.Main()
	do(rig.h, "POST", "/studio/content/studio", url.Values{"_version": {main.Hash}, "/name": {"New name"}}, withCookie(rig.asha))
	do(rig.h, "POST", "/studio/content/publish", nil, withCookie(rig.asha))
	head, _ := rig.repo.Main()
	rig.rel.mu.Lock()
	rig.rel.list = append([]published.Release{{ID: "r2", Commit: repo.Commit{Hash: head.Hash, Message: "Studio details: Studio name"}, Status: published.Failed,
		Problems: []string{"content/site.json: phones[0].tel: is empty", "content/pages.json: home.intention: is empty"}}}, rig.rel.list...)
	rig.rel.mu.Unlock()
	body := bodyText(do(rig.h, "GET", "/studio/content?published="+head.Hash, nil, withCookie(rig.asha)))
	for _, want := range []string{`<li><a href="/studio/content/studio#f-phones-0-tel">Studio details › Phone 1 › Number for links: is empty</a></li>`, `<li><a href="/studio/content/home#f-home-intention">Home page › Intention: is empty</a></li>`} {
		if !strings.Contains(body, want) {
			t.Errorf("the Content page lacks %s:\n%s", want, body)
		}
	}
}

func TestPublishPutsTheDraftOnMainAndFollowsItsRelease(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	main, _ := rig.repo.Main()
	do(rig.h, "POST", "/studio/content/studio", url.Values{"_version": {main.Hash}, "/name": {"New name"}}, withCookie(rig.asha))
	w := do(rig.h, "POST", "/studio/content/publish", nil, withCookie(rig.asha))
	head, _ := rig.repo.Main()
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/studio/content?published="+head.Hash || head.Hash == main.Hash {
		t.Fatalf("publish: %d %s; main %s", w.Code, w.Header().Get("Location"), head.Hash)
	}
	if _, published := rig.rel.calls(); published != 1 {
		t.Errorf("the publisher was asked to build %d times, want 1", published)
	}
	if list, _ := rig.repo.Unpublished(); len(list) != 0 {
		t.Errorf("%d changes still unpublished", len(list))
	}
	// Before its release is recorded, it is about to be checked; while it
	// builds, the page follows it by itself, saying its stage in her words.
	follows := func(body string) bool { return strings.Contains(body, "<body data-following>") }
	if body := do(rig.h, "GET", "/studio/content?published="+head.Hash, nil, withCookie(rig.asha)).Body.String(); !strings.Contains(body, `<span class="status">Checking</span>`) || !follows(body) {
		t.Errorf("the page does not follow the publish about to start:\n%s", body)
	}
	rig.rel.list = append([]published.Release{{ID: "r2", Commit: repo.Commit{Hash: head.Hash, Message: "Studio details: Studio name"}, Status: published.Building, Stage: "prerendering the pages"}}, rig.rel.list...)
	if body := do(rig.h, "GET", "/studio/content?published="+head.Hash, nil, withCookie(rig.asha)).Body.String(); !strings.Contains(body, `<span class="status">Making the pages</span>`) || !follows(body) {
		t.Errorf("the page does not follow the build:\n%s", body)
	}
	// A second build of the same commit (the server saw main move) is not
	// "another publish": the page follows the one under way.
	rig.rel.list = append([]published.Release{{ID: "r3", Commit: repo.Commit{Hash: head.Hash, Message: "Studio details: Studio name"}, Status: published.Queued}}, rig.rel.list...)
	if body := do(rig.h, "GET", "/studio/content?published="+head.Hash, nil, withCookie(rig.asha)).Body.String(); !strings.Contains(body, `<span class="status">Making the pages</span>`) {
		t.Errorf("a second build of the commit hides the first:\n%s", body)
	}
	rig.rel.list = rig.rel.list[1:]
	rig.rel.list[0].Status, rig.rel.list[0].Stage, rig.rel.live = published.Ready, "", "r2"
	body := do(rig.h, "GET", "/studio/content?published="+head.Hash, nil, withCookie(rig.asha)).Body.String()
	if !strings.Contains(body, `<span class="status live">Live</span> Visitors see it now. <a href="/">See it on the site</a>`) || follows(body) {
		t.Errorf("the page does not say Live, with the way to the site, or follows still:\n%s", body)
	}
	if strings.Contains(body, "Check again") {
		t.Error("the page asks to check again")
	}
	if w := do(rig.h, "POST", "/studio/content/publish", nil, withCookie(rig.asha)); w.Code != http.StatusConflict {
		t.Errorf("publishing nothing: %d, want 409", w.Code)
	}
}

// A publish its build stopped names each problem in the words of the
// form that edits its field, linked to that field; a problem of the
// server's is said without its technical words. The page follows nothing
// more.
func TestAStoppedPublishLinksEachProblemToItsField(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	main, _ := rig.repo.Main()
	rig.rel.list = append([]published.Release{{ID: "r2", Commit: main, Status: published.Failed, Problems: []string{
		`content/site.json: phones[0].tel: "12" is not a phone number`,
		`content/catalogue.json: product 2 (Jali screen): images[0].alt: is empty`,
		`publish: making the images failed (exit status 1): see build.log`,
	}}}, rig.rel.list...)
	body := do(rig.h, "GET", "/studio/content?published="+main.Hash, nil, withCookie(rig.asha)).Body.String()
	for _, want := range []string{
		`<span class="status failed">Stopped</span> Nothing changed on the site.`,
		`<li><a href="/studio/content/studio#f-phones-0-tel">Studio details › Phone 1 › Number for links: &#34;12&#34; is not a phone number</a></li>`,
		`<li><a href="/studio/content/products/2#f-products-1-images-0-alt">Product 2: Jali screen › Photograph 1 › Alt text: is empty</a></li>`,
		`<li>Something on the server stopped it, not your changes:`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s:\n%s", want, body)
		}
	}
	for _, unwanted := range []string{"build.log", "exit status", "content/site.json", "content/catalogue.json", "data-following"} {
		if strings.Contains(body, unwanted) {
			t.Errorf("the page has %q:\n%s", unwanted, body)
		}
	}
}

func TestDiscardDropsTheDraftAfterAsking(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	main, _ := rig.repo.Main()
	do(rig.h, "POST", "/studio/content/studio", url.Values{"_version": {main.Hash}, "/name": {"Dropped"}}, withCookie(rig.asha))
	if body := do(rig.h, "GET", "/studio/content/discard", nil, withCookie(rig.asha)).Body.String(); !strings.Contains(body, "Studio details: Studio name") || !strings.Contains(body, ">Discard changes</button>") {
		t.Errorf("the confirmation does not list what is dropped:\n%s", body)
	}
	if _, draft, _ := rig.repo.Draft(); !draft {
		t.Fatal("asking dropped the draft")
	}
	if w := do(rig.h, "POST", "/studio/content/discard", nil, withCookie(rig.asha)); w.Code != http.StatusSeeOther {
		t.Fatalf("discard: %d", w.Code)
	}
	if _, draft, _ := rig.repo.Draft(); draft {
		t.Error("the draft is still there")
	}
	if got := rig.draftFile(t, "site.json"); !strings.Contains(got, `"name": "Jharokha"`) {
		t.Errorf("after discarding, site.json:\n%s", got)
	}
}

// The Discard page and the Content page say what the content will be
// after a discard: the live site's when main is live, and otherwise as it
// was last published (PUBLISH=manual before Make live, or a failed build).
func TestDiscardSaysWhatTheContentWillBe(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	main, _ := rig.repo.Main()
	do(rig.h, "POST", "/studio/content/studio", url.Values{"_version": {main.Hash}, "/name": {"Dropped"}}, withCookie(rig.asha))
	for _, c := range []struct {
		liveTree, ask, done string
	}{
		{"t-not-main", "the content will be as it was last published, which visitors do not see yet (see Versions of the site):",
			"The content is as it was last published, which visitors do not see yet: see Releases."},
		{main.Tree, "the content will be the live site’s again:", "The content is the live site’s again."},
	} {
		rig.rel.mu.Lock()
		for i := range rig.rel.list {
			if rig.rel.list[i].ID == rig.rel.live {
				rig.rel.list[i].Tree = c.liveTree
			}
		}
		rig.rel.mu.Unlock()
		if body := do(rig.h, "GET", "/studio/content/discard", nil, withCookie(rig.asha)).Body.String(); !strings.Contains(body, c.ask) {
			t.Errorf("live files %s: the Discard page does not say %q:\n%s", c.liveTree, c.ask, body)
		}
		if body := do(rig.h, "GET", "/studio/content?discarded=1", nil, withCookie(rig.asha)).Body.String(); !strings.Contains(body, c.done) {
			t.Errorf("live files %s: after a discard the Content page does not say %q", c.liveTree, c.done)
		}
	}
	rig.repo.DiscardDraft()
	for _, c := range []struct{ liveTree, none string }{
		{"t-not-main", "None: the content is as it was last published, which visitors do not see yet (see <a href=\"/studio/releases\">Versions of the site</a>)."},
		{main.Tree, "None: the live site shows the content as it is."},
	} {
		rig.rel.mu.Lock()
		for i := range rig.rel.list {
			if rig.rel.list[i].ID == rig.rel.live {
				rig.rel.list[i].Tree = c.liveTree
			}
		}
		rig.rel.mu.Unlock()
		if body := do(rig.h, "GET", "/studio/content", nil, withCookie(rig.asha)).Body.String(); !strings.Contains(body, c.none) {
			t.Errorf("live files %s: with nothing unpublished the Content page does not say %q", c.liveTree, c.none)
		}
	}
}

// Making an earlier release live with unpublished changes says they stay
// unpublished, on top of the older version, and lists them.
func TestMakeLiveSaysUnpublishedChangesStay(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	const ask = "/studio/releases/20260302-082000-ccccccc/make-live"
	stay := "They stay unpublished, on top of the earlier version:"
	if body := html.UnescapeString(do(rig.h, "GET", ask, nil, withCookie(rig.asha)).Body.String()); strings.Contains(body, stay) {
		t.Errorf("with nothing unpublished the question says %q", stay)
	}
	main, _ := rig.repo.Main()
	do(rig.h, "POST", "/studio/content/studio", url.Values{"_version": {main.Hash}, "/name": {"Kept"}}, withCookie(rig.asha))
	body := html.UnescapeString(do(rig.h, "GET", ask, nil, withCookie(rig.asha)).Body.String())
	if !strings.Contains(body, stay) || !strings.Contains(body, "<li>Studio details: Studio name <span") {
		t.Errorf("with a change unpublished the question does not say they stay, or does not list them:\n%s", body)
	}
}

// photo is a PNG of width × height pixels.
func photo(t *testing.T, width, height int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, width, height))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// upload posts a product's form with files, as a browser does.
func uploadForm(t *testing.T, rig *editorRig, path string, fields url.Values, files map[string][]byte) *httptest.ResponseRecorder {
	t.Helper()
	return postFiles(rig, path, fields, "photos", files)
}

// postFiles posts a form of fields with files (by name) in its file input
// fileField, as a browser does, signed in as Asha.
func postFiles(rig *editorRig, path string, fields url.Values, fileField string, files map[string][]byte) *httptest.ResponseRecorder {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, vs := range fields {
		for _, v := range vs {
			mw.WriteField(k, v)
		}
	}
	for name, data := range files {
		fw, _ := mw.CreateFormFile(fileField, name)
		fw.Write(data)
	}
	mw.Close()
	r := httptest.NewRequest("POST", path, &body)
	r.Header.Set("Content-Type", mw.FormDataContentType())
	r.AddCookie(rig.asha)
	w := httptest.NewRecorder()
	rig.h.ServeHTTP(w, r)
	return w
}

func TestPhotographsAreCheckedByTheirBytesAndSavedWithTheirAltText(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	main, _ := rig.repo.Main()
	w := uploadForm(t, rig, "/studio/content/products/2", url.Values{"_version": {main.Hash}, "_action": {"upload"}}, map[string][]byte{
		"workshop.png": photo(t, 1600, 1200), "narrow.png": photo(t, 800, 600), "notes.jpg": []byte("not a picture at all"),
	})
	body := w.Body.String()
	if w.Code != http.StatusUnprocessableEntity {
		t.Fatalf("upload: %d\n%s", w.Code, body)
	}
	for _, want := range []string{"2 photographs added", "“narrow.png” is 800 px wide", "“notes.jpg” is not a photograph", "<legend>Photograph 3</legend>"} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if _, draft, _ := rig.repo.Draft(); draft {
		t.Fatal("an upload saved")
	}
	// Saved with alt texts, the photographs are committed beside the change.
	form := url.Values{"_version": {main.Hash}, "_count/products/1/images": {"3"}}
	for i := 1; i <= 2; i++ {
		src := field(t, body, fmt.Sprintf("/products/1/images/%d/src", i))
		form.Set(fmt.Sprintf("/products/1/images/%d/src", i), src)
		form.Set(fmt.Sprintf("/products/1/images/%d/alt", i), fmt.Sprintf("Jali screen, photograph %d", i))
	}
	if w := do(rig.h, "POST", "/studio/content/products/2", form, withCookie(rig.asha)); w.Code != http.StatusSeeOther {
		t.Fatalf("save: %d\n%s", w.Code, w.Body)
	}
	doc, _ := contentform.Parse([]byte(rig.draftFile(t, "catalogue.json")))
	images := doc.At("/products/1/images").List()
	if len(images) != 3 || !strings.HasPrefix(images[1].Get("src").Text(), "products/2-jali-screen-") || images[2].Get("alt").Text() != "Jali screen, photograph 2" {
		t.Fatalf("the draft's images: %s", doc.At("/products/1/images").Encode())
	}
	if got := rig.draftFile(t, "images/"+images[1].Get("src").Text()); got != string(photo(t, 1600, 1200)) && got != string(photo(t, 800, 600)) {
		t.Error("the photograph committed is not the one uploaded")
	}
	if list, _ := rig.repo.Unpublished(); len(list) != 1 || list[0].Subject() != "Product 2: 2 photographs added" {
		t.Errorf("unpublished = %+v", list)
	}
}

// Each photograph added shows a thumbnail: JPEG, PNG and WebP made 240 px
// wide, AVIF (which Go does not decode) as it is.
func TestEachKindOfPhotographHasAThumbnail(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	main, _ := rig.repo.Main()
	avif := avifOf(1600)
	w := uploadForm(t, rig, "/studio/content/products/2", url.Values{"_version": {main.Hash}, "_action": {"upload"}}, map[string][]byte{
		"workshop.png": photo(t, 1600, 1200), "courtyard.avif": avif,
	})
	body := w.Body.String()
	if !strings.Contains(body, "2 photographs added") {
		t.Fatalf("upload: %d\n%s", w.Code, body)
	}
	kinds := map[string]int{}
	for _, part := range strings.Split(body, `src="/studio/content/thumbnail?upload=`)[1:] {
		name, _, _ := strings.Cut(part, `"`)
		thumb := do(rig.h, "GET", "/studio/content/thumbnail?upload="+name, nil, withCookie(rig.asha))
		kind := thumb.Header().Get("Content-Type")
		kinds[kind]++
		switch kind {
		case "image/jpeg":
			if cfg, err := jpeg.DecodeConfig(thumb.Body); err != nil || cfg.Width != edit.ThumbnailWidth {
				t.Errorf("the PNG's thumbnail: %+v %v, want a JPEG %d px wide", cfg, err, edit.ThumbnailWidth)
			}
		case "image/avif":
			if !bytes.Equal(thumb.Body.Bytes(), avif) {
				t.Error("the AVIF's thumbnail is not the photograph")
			}
		default:
			t.Errorf("thumbnail of %s: %d %s", name, thumb.Code, kind)
		}
	}
	if kinds["image/jpeg"] != 1 || kinds["image/avif"] != 1 {
		t.Errorf("thumbnails by kind: %v, want one JPEG and one AVIF", kinds)
	}
}

// avifOf is the start of an AVIF file as a camera or an exporter writes it:
// its brand, and its size in an "ispe" box (avifWith).
func avifOf(width uint32) []byte { return avifWith([2]uint32{width, width * 3 / 4}) }

// field is the value of the input named name in a page.
func field(t *testing.T, body, name string) string {
	t.Helper()
	_, rest, ok := strings.Cut(body, `name="`+name+`" value="`)
	if !ok {
		t.Fatalf("no field %s", name)
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

func TestANewProductGetsTheNextID(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	page := do(rig.h, "GET", "/studio/content/products/new", nil, withCookie(rig.asha)).Body.String()
	if got := field(t, page, "/products/0/id"); got != "3" {
		t.Fatalf("the new product's id = %s, want 3", got)
	}
	w := do(rig.h, "POST", "/studio/content/products/new", url.Values{"_version": {version(t, page)}, "/products/0/name": {"Jali lamp"}, "/products/0/category": {"Seatings"}}, withCookie(rig.asha))
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/studio/content/products/3?saved=1" {
		t.Fatalf("save: %d %s\n%s", w.Code, w.Header().Get("Location"), w.Body)
	}
	if got := rig.draftFile(t, "catalogue.json"); !strings.Contains(got, `"id": 3,`) || !strings.Contains(got, `"name": "Jali lamp"`) {
		t.Errorf("catalogue.json:\n%s", got)
	}
	if list, _ := rig.repo.Unpublished(); len(list) != 1 || !strings.HasPrefix(list[0].Subject(), "Product 3 (new): ") {
		t.Errorf("unpublished = %+v", list)
	}
}

func TestDeletingAProductTakesItsPhotographsAndItsPlaceInWhatsHot(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	page := do(rig.h, "GET", "/studio/content/products/2/delete", nil, withCookie(rig.asha)).Body.String()
	if !strings.Contains(page, "Delete “Jali screen”?") {
		t.Fatalf("the confirmation:\n%s", page)
	}
	if w := do(rig.h, "POST", "/studio/content/products/2/delete", url.Values{"_version": {version(t, page)}}, withCookie(rig.asha)); w.Code != http.StatusSeeOther {
		t.Fatalf("delete: %d\n%s", w.Code, w.Body)
	}
	got := rig.draftFile(t, "catalogue.json")
	// Out of the products and What's Hot, and listed as removed, so that
	// its address says it is gone.
	products, removed, _ := strings.Cut(got, `"removed"`)
	if strings.Contains(products, "Jali screen") || !strings.Contains(got, `"whatsHot": [1]`) ||
		!strings.Contains(removed, `{ "id": 2, "name": "Jali screen", "category": "Seatings" }`) {
		t.Errorf("catalogue.json after deleting Jali screen:\n%s", got)
	}
	head, _, _ := rig.repo.Draft()
	if _, err := rig.repo.ReadFile(head.Hash, "images/products/2.png"); err == nil {
		t.Error("Jali screen's photograph is still in the content")
	}
	// The home page's Fresh from piece is refused: it must be replaced first.
	page = do(rig.h, "GET", "/studio/content/products/1/delete", nil, withCookie(rig.asha)).Body.String()
	if w := do(rig.h, "POST", "/studio/content/products/1/delete", url.Values{"_version": {version(t, page)}}, withCookie(rig.asha)); w.Code != http.StatusConflict {
		t.Errorf("deleting the Fresh from piece: %d, want 409", w.Code)
	}
}

// productRow is a row of the products' table: its product's id, and its
// Featured cell.
var productRow = regexp.MustCompile(`<a href="/studio/content/products/(\d+)">[^<]*</a></td>\s*<td[^>]*>[^<]*</td>\s*<td[^>]*>([^<]*)</td>`)

func TestAProductsBoxesPutItOnTheHomePage(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	main, _ := rig.repo.Main()
	// Jali screen becomes Fresh from the studio and leaves What's Hot.
	w := do(rig.h, "POST", "/studio/content/products/2", url.Values{"_version": {main.Hash}, edit.HotField: {"false"}, edit.FreshField: {"false", "true"}}, withCookie(rig.asha))
	if w.Code != http.StatusSeeOther {
		t.Fatalf("save: %d\n%s", w.Code, w.Body)
	}
	if got := rig.draftFile(t, "catalogue.json"); !strings.Contains(got, `"featured": {
    "whatsHot": [1],
    "fresh": 2
  }`) {
		t.Errorf("catalogue.json:\n%s", got)
	}
	if list, _ := rig.repo.Unpublished(); len(list) != 1 || list[0].Subject() != "Product 2: taken out of What’s Hot, Fresh from the studio" {
		t.Errorf("unpublished = %+v", list)
	}
	// The products' table says where each product is on the home page.
	table := do(rig.h, "GET", "/studio/content/products", nil, withCookie(rig.asha)).Body.String()
	featured := map[string]string{}
	for _, m := range productRow.FindAllStringSubmatch(table, -1) {
		featured[m[1]] = m[2]
	}
	if want := map[string]string{"1": "What’s Hot", "2": "Fresh from the studio"}; !maps.Equal(featured, want) {
		t.Errorf("the products' Featured column = %q, want %q", featured, want)
	}
	// Unticking the Fresh piece is refused: the home page needs one.
	head, _, _ := rig.repo.Draft()
	w = do(rig.h, "POST", "/studio/content/products/2", url.Values{"_version": {head.Hash}, edit.FreshField: {"false"}}, withCookie(rig.asha))
	if w.Code != http.StatusUnprocessableEntity || !strings.Contains(w.Body.String(), "always shows one piece as Fresh from the studio") {
		t.Errorf("unticking Fresh from: %d", w.Code)
	}
}

func TestALongTextIsEditedWholeWithItsRenderingBeside(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	page := do(rig.h, "GET", "/studio/content/text-about", nil, withCookie(rig.asha)).Body.String()
	if !strings.Contains(page, ">---\ntitle: About\n") || !strings.Contains(page, "<p>Made by hand.</p>") {
		t.Fatalf("the page does not show the text and the builder's rendering of it:\n%s", page)
	}
	// The preview fills in the facts of the draft: the studio's name saved
	// a moment ago, not yet published.
	if w := do(rig.h, "POST", "/studio/content/studio", url.Values{"_version": {version(t, page)}, "/name": {"Jharokha Studio"}, "/phones/0/label": {"Studio"}, "/phones/0/tel": {"+912912624410"}}, withCookie(rig.ravi)); w.Code != http.StatusSeeOther {
		t.Fatalf("saving the studio's name: %d\n%s", w.Code, w.Body)
	}
	text := "---\ntitle: About\n---\n\n## Our story\n\nMade by hand at {{site.name}}.\n"
	w := do(rig.h, "POST", "/studio/content/text-about", url.Values{"_version": {version(t, page)}, "text": {text}, "_action": {"preview"}}, withCookie(rig.asha))
	if body := w.Body.String(); w.Code != http.StatusOK || !strings.Contains(body, "<p>Made by hand at Jharokha Studio.</p>") {
		t.Errorf("the preview: %d, not the text rendered with the draft's facts:\n%s", w.Code, body)
	}
	if list, _ := rig.repo.Unpublished(); len(list) != 1 {
		t.Fatalf("the preview saved: %+v", list)
	}
	// A fact the site does not have: said where the preview would be.
	w = do(rig.h, "POST", "/studio/content/text-about", url.Values{"_version": {version(t, page)}, "text": {"At {{site.nome}}.\n"}, "_action": {"preview"}}, withCookie(rig.asha))
	if body := w.Body.String(); w.Code != http.StatusOK || !strings.Contains(body, "The site cannot show this text: {{site.nome}} names no fact") {
		t.Errorf("a fact that does not exist: %d\n%s", w.Code, body)
	}
	if w := do(rig.h, "POST", "/studio/content/text-about", url.Values{"_version": {version(t, page)}, "text": {strings.ReplaceAll(text, "\n", "\r\n")}}, withCookie(rig.asha)); w.Code != http.StatusSeeOther {
		t.Fatalf("save: %d\n%s", w.Code, w.Body)
	}
	if got := rig.draftFile(t, "pages/about.md"); got != text {
		t.Errorf("pages/about.md = %q, want %q", got, text)
	}
	if list, _ := rig.repo.Unpublished(); len(list) != 2 || list[0].Subject() != "About page: the story: text" {
		t.Errorf("unpublished = %+v", list)
	}
}

func TestTheVocabularyFormShowsOnlyItsFieldsAndKeepsTheProducts(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	page := do(rig.h, "GET", "/studio/content/vocabulary", nil, withCookie(rig.asha)).Body.String()
	if !strings.Contains(page, "<legend>Categories</legend>") || strings.Contains(page, "Marwar chair") {
		t.Fatalf("the vocabulary form shows products, or no categories:\n%s", page)
	}
	started := version(t, page)
	// A product saved meanwhile does not stop the vocabulary's save.
	if w := do(rig.h, "POST", "/studio/content/products/1", url.Values{"_version": {started}, "/products/0/name": {"Marwar chair II"}}, withCookie(rig.ravi)); w.Code != http.StatusSeeOther {
		t.Fatalf("the product's save: %d\n%s", w.Code, w.Body)
	}
	if w := do(rig.h, "POST", "/studio/content/vocabulary", url.Values{"_version": {started}, "/categories/0/name": {"Seating"}}, withCookie(rig.asha)); w.Code != http.StatusSeeOther {
		t.Fatalf("the vocabulary's save: %d\n%s", w.Code, w.Body)
	}
	got := rig.draftFile(t, "catalogue.json")
	if !strings.Contains(got, `{ "name": "Seating" }`) || !strings.Contains(got, "Marwar chair II") || !strings.Contains(got, "Jali screen") {
		t.Errorf("catalogue.json lost a save:\n%s", got)
	}
}

// A product's form carries the upload progress script inline, and every
// page the layout's: each byte for byte one the policy allows by its hash;
// the other forms carry no upload script.
func TestTheProductFormsScriptIsTheOneThePolicyAllows(t *testing.T) {
	t.Parallel()
	rig := setupEditor(t)
	w := do(rig.h, "GET", "/studio/content/products/1", nil, withCookie(rig.asha))
	body := w.Body.String()
	scripts := inlineScripts(body)
	if !slices.Contains(scripts, editor.UploadJS) {
		t.Fatalf("the product's form has no upload script:\n%s", body)
	}
	csp := w.Header().Get("Content-Security-Policy")
	for _, script := range scripts {
		sum := sha256.Sum256([]byte(script))
		if !strings.Contains(csp, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") {
			t.Errorf("a script's hash is not the policy's: %s\n%s", csp, script)
		}
	}
	if !strings.Contains(body, `class="upload-progress" hidden`) {
		t.Error("the form has no hidden progress for the script to show")
	}
	if page := do(rig.h, "GET", "/studio/content/studio", nil, withCookie(rig.asha)).Body.String(); slices.Contains(inlineScripts(page), editor.UploadJS) {
		t.Error("a form without photographs carries the upload script")
	}
}

// inlineScripts are the texts of a page's <script> elements.
func inlineScripts(body string) []string {
	var scripts []string
	for {
		_, rest, ok := strings.Cut(body, "<script>")
		script, after, closed := strings.Cut(rest, "</script>")
		if !ok || !closed {
			return scripts
		}
		scripts, body = append(scripts, script), after
	}
}

// Renaming a tab in the catalogue's form takes the pages' links to its
// list along, in the same save: the content check would refuse the link it
// broke, which could not be changed first.
func TestRenamingATabTakesThePagesLinksAlong(t *testing.T) {
	t.Parallel()
	seed := maps.Clone(editorContent)
	seed["pages.json"] = &fstest.MapFile{Data: []byte(`{
  "home": { "intention": "Made by hand", "rooms": [{ "title": "Living rooms", "to": "/products/seatings" }] },
  "about": { "title": "About us" }
}
`)}
	rig := setupEditorOn(t, seed)
	page := do(rig.h, "GET", "/studio/content/vocabulary", nil, withCookie(rig.asha)).Body.String()
	if w := do(rig.h, "POST", "/studio/content/vocabulary", url.Values{"_version": {version(t, page)}, "/categories/0/name": {"Seating and sofas"}}, withCookie(rig.asha)); w.Code != http.StatusSeeOther {
		t.Fatalf("the vocabulary's save: %d\n%s", w.Code, w.Body)
	}
	if got := rig.draftFile(t, "pages.json"); !strings.Contains(got, `"to": "/products/seating-and-sofas"`) || !strings.Contains(got, `"title": "Living rooms"`) {
		t.Errorf("the room's link did not follow the tab's new name:\n%s", got)
	}
}
