package contentform

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A small schema in the content files' way: $defs, $ref beside properties,
// a list of groups, a list of plain values, optional fields.
const testSchema = `{
  "type": "object",
  "required": ["name", "phones", "years"],
  "properties": {
    "_comment": { "type": "string" },
    "name": { "$ref": "#/$defs/text", "title": "Studio name" },
    "phones": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["label", "tel"],
        "properties": { "label": { "$ref": "#/$defs/text" }, "tel": { "type": "string", "description": "with its country code" } }
      }
    },
    "years": { "type": "integer" },
    "tags": { "type": "array", "items": { "type": "string" } },
    "open": { "type": "boolean" },
    "note": { "type": "string" }
  },
  "$defs": { "text": { "type": "string", "pattern": "\\S" } }
}`

const testDoc = `{
  "_comment": "kept as it is",
  "years": 2,
  "name": "Jharokha",
  "phones": [
    { "label": "Studio", "tel": "+912912624410" },
    { "label": "Projects", "tel": "+919829012345" }
  ]
}
`

func mustSchema(t *testing.T, text string) *Schema {
	t.Helper()
	s, err := ParseSchema([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustParse(t *testing.T, text string) *Value {
	t.Helper()
	v, err := Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func fieldNamed(f *Field, name string) *Field {
	if f.Name == name {
		return f
	}
	for _, c := range f.Fields {
		if found := fieldNamed(c, name); found != nil {
			return found
		}
	}
	return nil
}

func TestEachContentFileIsWrittenBackAsItWasRead(t *testing.T) {
	files, _ := filepath.Glob("../../content/*.json")
	if len(files) == 0 {
		t.Fatal("no content files found")
	}
	for _, file := range files {
		b, _ := os.ReadFile(file)
		v := mustParse(t, string(b))
		once := v.Encode()
		again := mustParse(t, string(once))
		if !Equal(v, again) || !slices.Equal(v.Keys, again.Keys) {
			t.Errorf("%s: encoding changed its values or the order of its keys", file)
		}
		if !bytes.Equal(once, again.Encode()) {
			t.Errorf("%s: a second encoding differs from the first", file)
		}
	}
	if got := string(mustParse(t, testDoc).Encode()); got != testDoc {
		t.Errorf("encoded:\n%s\nwant it as written:\n%s", got, testDoc)
	}
}

func TestTheFormHasAFieldForEachPropertyOfTheSchema(t *testing.T) {
	form := mustSchema(t, testSchema).Form(mustParse(t, testDoc), "")
	for name, want := range map[string]Field{
		"/name":         {Label: "Studio name", Kind: "text", Value: "Jharokha", Required: true},
		"/phones":       {Label: "Phones", Kind: "list", Required: true},
		"/phones/1":     {Label: "Phone 2", Kind: "group"},
		"/phones/1/tel": {Label: "Tel", Kind: "text", Value: "+919829012345", Hint: "with its country code"},
		"/years":        {Label: "Years", Kind: "integer", Value: "2", Required: true},
		"/tags":         {Label: "Tags", Kind: "lines"},
		"/open":         {Label: "Open", Kind: "checkbox"},
		"/note":         {Label: "Note", Kind: "text"},
	} {
		f := fieldNamed(form, name)
		if f == nil {
			t.Errorf("no field %s", name)
			continue
		}
		if f.Label != want.Label || f.Kind != want.Kind || f.Value != want.Value || f.Hint != want.Hint || want.Required && !f.Required {
			t.Errorf("field %s = %q %s %q %q required %v; want %q %s %q %q required %v", name, f.Label, f.Kind, f.Value, f.Hint, f.Required,
				want.Label, want.Kind, want.Value, want.Hint, want.Required)
		}
	}
	if fieldNamed(form, "/_comment") != nil {
		t.Error("a _comment is shown as a field")
	}
	// A property added to the schema is a field, with no other change.
	added := strings.Replace(testSchema, `"note": { "type": "string" }`, `"note": { "type": "string" }, "instagram": { "type": "string", "title": "Instagram page" }`, 1)
	if f := fieldNamed(mustSchema(t, added).Form(mustParse(t, testDoc), ""), "/instagram"); f == nil || f.Label != "Instagram page" {
		t.Errorf("a property added to the schema: field %+v, want one labelled Instagram page", f)
	}
}

func TestAPostedFormChangesOnlyWhatItSays(t *testing.T) {
	s := mustSchema(t, testSchema)
	base := mustParse(t, testDoc)
	doc, problems := s.Apply(base, "", url.Values{
		"/name": {"  Jharokha Studio "}, "/phones/1/tel": {"+919800000000"}, "/years": {"3"},
		"/tags": {"Wood\r\n\r\n Brass \n"}, "/open": {"false", "true"}, "/note": {""},
	})
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	want := `{
  "_comment": "kept as it is",
  "years": 3,
  "name": "Jharokha Studio",
  "phones": [
    { "label": "Studio", "tel": "+912912624410" },
    { "label": "Projects", "tel": "+919800000000" }
  ],
  "tags": ["Wood", "Brass"],
  "open": true
}
`
	if got := string(doc.Encode()); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := s.Changed(base, doc, ""); !slices.Equal(got, []string{"Studio name", "Phone 2 › Tel", "Years", "Tags", "Open"}) {
		t.Errorf("Changed = %q", got)
	}
	if Equal(base, doc) || base.Get("name").String != "Jharokha" {
		t.Error("Apply changed the document it was given")
	}
}

func TestANumberThatIsNotOneIsAProblemAndKeepsTheOldValue(t *testing.T) {
	s := mustSchema(t, testSchema)
	doc, problems := s.Apply(mustParse(t, testDoc), "", url.Values{"/years": {"two"}})
	if len(problems) != 1 || problems[0].Field != "/years" || !strings.Contains(problems[0].Text, "whole number") {
		t.Errorf("problems = %v, want one on /years", problems)
	}
	if doc.Get("years").Number != "2" {
		t.Errorf("years = %s, want 2 kept", doc.Get("years").Number)
	}
}

func TestListButtonsAddRemoveAndMoveItems(t *testing.T) {
	s := mustSchema(t, testSchema)
	doc := mustParse(t, testDoc)
	if _, ok := s.Act(doc, "add:/phones"); !ok || len(doc.Get("phones").Items) != 3 || doc.At("/phones/2/label").String != "" {
		t.Fatalf("add: %s", doc.Encode())
	}
	before := doc.Clone()
	if _, ok := s.Act(doc, "earlier:/phones/1"); !ok || doc.At("/phones/0/label").String != "Projects" {
		t.Errorf("earlier: %s", doc.Encode())
	}
	if got := s.Changed(before, doc, ""); !slices.Equal(got, []string{"Phones (new order)"}) {
		t.Errorf("Changed after a move = %q", got)
	}
	if _, ok := s.Act(doc, "later:/phones/0"); !ok || doc.At("/phones/1/label").String != "Projects" {
		t.Errorf("later: %s", doc.Encode())
	}
	if _, ok := s.Act(doc, "remove:/phones/0"); !ok || doc.At("/phones/0/label").String != "Projects" || len(doc.Get("phones").Items) != 2 {
		t.Errorf("remove: %s", doc.Encode())
	}
	for _, bad := range []string{"earlier:/phones/0", "later:/phones/1", "remove:/phones/9", "add:/name", "drop:/phones/0", "remove:"} {
		if _, ok := s.Act(doc, bad); ok {
			t.Errorf("%q was carried out", bad)
		}
	}
	// An item added on the page and posted back with its count.
	added, _ := s.Apply(mustParse(t, testDoc), "", url.Values{"_count/phones": {"3"}, "/phones/2/label": {"Home"}, "/phones/2/tel": {"+91"}})
	if added.At("/phones/2/label").String != "Home" {
		t.Errorf("a posted third phone: %s", added.Encode())
	}
}

func TestTheChecksLinesAreShownBesideTheirFields(t *testing.T) {
	s := mustSchema(t, testSchema)
	doc := mustParse(t, testDoc)
	form := s.Form(doc, "")
	rest := Attach(form, "site.json", doc, []string{
		`content/site.json: phones[1].tel: "+91" is not a phone number`,
		`content/site.json: phones[1]: something of the whole phone`,
		`content/site.json: name: is empty`,
		`content/site.json: whatsappPhone: "Home" is not the label of a phone`,
		`content/chat.json: topics: a problem of another file`,
	})
	if got := fieldNamed(form, "/phones/1/tel").Problems; !slices.Equal(got, []string{`"+91" is not a phone number`}) {
		t.Errorf("/phones/1/tel problems = %q", got)
	}
	if got := fieldNamed(form, "/phones/1").Problems; !slices.Equal(got, []string{"something of the whole phone"}) {
		t.Errorf("/phones/1 problems = %q", got)
	}
	if got := fieldNamed(form, "/name").Problems; !slices.Equal(got, []string{"is empty"}) {
		t.Errorf("/name problems = %q", got)
	}
	if len(rest) != 2 {
		t.Errorf("lines left = %q, want the two that name no field of the form", rest)
	}
}

func TestAProductsLineNamesItByIDAndName(t *testing.T) {
	doc := mustParse(t, `{"products": [{"id": 7, "name": "Chair", "images": [{"src": "a.jpg", "alt": ""}]}]}`)
	paths := checkPaths("catalogue.json", "/products/0/images/0/alt", doc)
	if !slices.Contains(paths, "product 7 (Chair): images[0].alt") {
		t.Errorf("checkPaths = %q", paths)
	}
	// A line of the product's name goes to its name, not to the first
	// field inside the product.
	s := mustSchema(t, `{"type": "object", "properties": {"products": {"type": "array", "items": {"type": "object",
		"properties": {"id": {"type": "integer"}, "name": {"type": "string"}, "images": {"type": "array", "items": {"type": "object",
		"properties": {"src": {"type": "string"}, "alt": {"type": "string"}}}}}}}}}`)
	form := s.Form(doc, "/products/0")
	Attach(form, "catalogue.json", doc, []string{"content/catalogue.json: product 7 (Chair): name: is empty"})
	if got := fieldNamed(form, "/products/0/name").Problems; !slices.Equal(got, []string{"is empty"}) {
		t.Errorf("the name's problems = %q", got)
	}
}

func TestNamedGroupsCanBeRenamedAddedAndMoved(t *testing.T) {
	s := mustSchema(t, `{"type": "object", "properties": {"material": {"type": "object",
		"additionalProperties": {"type": "array", "items": {"type": "string"}}}}}`)
	doc := mustParse(t, `{"material": {"Wood": ["Wood"], "Other": ["Cement", "Stone"]}}`)
	form := s.Form(doc, "")
	groups := fieldNamed(form, "/material")
	if groups.Kind != "map" || len(groups.Fields) != 2 || groups.Fields[1].Label != "Other" || fieldNamed(form, "_key/material/1").Value != "Other" ||
		fieldNamed(form, "/material/1/value").Value != "Cement\nStone" {
		t.Fatalf("the form of a map: %+v", groups)
	}
	// Renamed, a value changed, one added by the form.
	got, problems := s.Apply(doc, "", url.Values{"_count/material": {"3"}, "_key/material/1": {"Stone and cement"}, "/material/1/value": {"Cement\nStone\nMarble"},
		"_key/material/2": {"Metal"}, "/material/2/value": {"Brass"}})
	if len(problems) > 0 || string(got.Encode()) != `{
  "material": {
    "Wood": ["Wood"],
    "Stone and cement": ["Cement", "Stone", "Marble"],
    "Metal": ["Brass"]
  }
}
` {
		t.Errorf("applied: %v\n%s", problems, got.Encode())
	}
	if _, problems := s.Apply(doc, "", url.Values{"_key/material/1": {"Wood"}}); len(problems) != 1 || problems[0].Field != "_key/material/1" {
		t.Errorf("two groups of one name: %v", problems)
	}
	if _, ok := s.Act(got, "later:/material/0"); !ok || got.Get("material").Keys[1] != "Wood" {
		t.Errorf("later: %s", got.Encode())
	}
	if _, ok := s.Act(got, "add:/material"); !ok || got.Get("material").Get("") == nil {
		t.Errorf("add: %s", got.Encode())
	}
	if _, ok := s.Act(got, "add:/material"); ok {
		t.Error("a second unnamed group was added")
	}
}

// A description is a box of several lines even when empty (a new
// product's), so Enter in it starts a line rather than sending the form.
func TestADescriptionIsAlwaysSeveralLines(t *testing.T) {
	schema := mustSchema(t, `{"type": "object", "properties": {"name": {"type": "string"}, "description": {"type": "string"}}}`)
	for _, doc := range []string{`{}`, `{"name": "Kikar", "description": "Short."}`} {
		form := schema.Form(mustParse(t, doc), "")
		if f := fieldNamed(form, "/description"); f == nil || f.Kind != "textarea" {
			t.Errorf("%s: the description is %+v, want a textarea", doc, f)
		}
		if f := fieldNamed(form, "/name"); f == nil || f.Kind != "text" {
			t.Errorf("%s: the name is %+v, want one line", doc, f)
		}
	}
}
