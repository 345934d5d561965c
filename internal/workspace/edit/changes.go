package edit

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing/object"

	"studio/internal/contentform"
)

// What a version of the content changed, said as the Content section names
// its parts (the Versions of the site page): "Home page: hero text",
// "FAQ: 2 answers changed", "Yucca: new photograph". Worked out from the
// two versions' files, so it says what a publish did whatever its commits'
// messages say.

// Changes is what the content of commit to changes from that of commit
// from, one line a part, in the Content page's order.
func (e *Editor) Changes(from, to string) ([]string, error) {
	var lines []string
	for _, file := range fileOrder() {
		old, new, err := e.twoVersions(from, to, file)
		if err != nil {
			return nil, err
		}
		if bytes.Equal(old, new) {
			continue
		}
		if strings.HasSuffix(file, ".md") {
			lines = append(lines, textPart(file).Title+": "+textChange(string(old), string(new)))
			continue
		}
		schema, err := e.readSchema(to, file)
		oldDoc, oldErr := contentform.Parse(old)
		newDoc, newErr := contentform.Parse(new)
		if err != nil || oldErr != nil || newErr != nil || oldDoc.Kind != contentform.Object || newDoc.Kind != contentform.Object {
			lines = append(lines, firstFormTitle(file)+": changed")
			continue
		}
		lines = append(lines, fileChanges(schema, file, oldDoc, newDoc)...)
	}
	return lines, nil
}

// fileOrder is every file the Content section edits, each once, in the
// Content page's order.
func fileOrder() []string {
	var files []string
	for _, p := range slices.Concat(Parts, Texts) {
		if !slices.Contains(files, p.File) {
			files = append(files, p.File)
		}
	}
	return files
}

// twoVersions reads file in commits from and to; a file one of them lacks
// reads as empty.
func (e *Editor) twoVersions(from, to, file string) (old, new []byte, err error) {
	read := func(hash string) ([]byte, error) {
		if hash == "" {
			return nil, nil
		}
		b, err := e.Content.ReadFile(hash, file)
		if err != nil && missing(err) {
			return nil, nil
		}
		return b, err
	}
	if old, err = read(from); err != nil {
		return nil, nil, err
	}
	new, err = read(to)
	return old, new, err
}

// missing says whether err is a commit's lack of a file, not a failure to
// read.
func missing(err error) bool { return errors.Is(err, object.ErrFileNotFound) }

func (e *Editor) readSchema(hash, file string) (*contentform.Schema, error) {
	raw, err := e.Content.ReadFile(hash, "schema/"+strings.TrimSuffix(file, ".json")+".schema.json")
	if err != nil {
		return nil, err
	}
	return contentform.ParseSchema(raw)
}

// fileChanges is what each part of a JSON file changed: the products by
// their names, then each form of the file, then what no form shows.
func fileChanges(schema *contentform.Schema, file string, old, new *contentform.Value) []string {
	var lines []string
	covered := map[string]bool{}
	if file == "catalogue.json" {
		lines = append(lines, productChanges(schema, old, new)...)
		lines = append(lines, featuredChanges(old.Get("featured"), new.Get("featured"))...)
		covered["products"], covered["featured"] = true, true
	}
	for _, p := range Parts {
		if p.File != file {
			continue
		}
		keys := p.Only
		if keys == nil {
			keys = []string{strings.Split(strings.TrimPrefix(p.Pointer, "/"), "/")[0]}
		}
		if p.Pointer == "" && p.Only == nil {
			keys = new.Keys
		}
		for _, k := range keys {
			covered[k] = true
		}
		lines = append(lines, partLine(p.Title, changedKeys(schema, old, new, keys, p.Pointer))...)
	}
	var rest []string
	for _, k := range slices.Concat(new.Keys, old.Keys) {
		if !covered[k] && !slices.Contains(rest, k) && !strings.HasPrefix(k, "_") {
			rest = append(rest, k)
		}
	}
	return append(lines, partLine(firstFormTitle(file), changedKeys(schema, old, new, rest, ""))...)
}

// changedKeys is the labels of the fields under keys (top-level keys of
// the file) that differ, as the form at pointer names them.
func changedKeys(schema *contentform.Schema, old, new *contentform.Value, keys []string, pointer string) []string {
	// Only keys may differ: the rest of new is old's.
	mixed := old.Clone()
	differ := false
	for _, k := range keys {
		if !contentform.Equal(old.Get(k), new.Get(k)) {
			differ = true
		}
		if v := new.Get(k); v != nil {
			mixed.Set(k, v.Clone())
		} else {
			mixed.Delete(k)
		}
	}
	if !differ {
		return nil
	}
	labels := schema.Changed(old, mixed, pointer)
	if len(labels) == 0 {
		return []string{"changed"}
	}
	return labels
}

// productChanges names each product added, removed or changed, by its
// name: "Yucca: description, new photograph".
func productChanges(schema *contentform.Schema, old, new *contentform.Value) []string {
	byID := func(doc *contentform.Value) (map[string]*contentform.Value, []string) {
		m, ids := map[string]*contentform.Value{}, []string(nil)
		for _, p := range doc.Get("products").List() {
			id := p.Get("id").Text()
			m[id], ids = p, append(ids, id)
		}
		return m, ids
	}
	was, wasIDs := byID(old)
	now, nowIDs := byID(new)
	var lines []string
	for _, id := range nowIDs {
		p, before := now[id], was[id]
		switch {
		case before == nil:
			lines = append(lines, productName(p)+": new piece")
		case !contentform.Equal(before, p):
			lines = append(lines, partLine(productName(p), productFields(schema, before, p))...)
		}
	}
	for _, id := range wasIDs {
		if now[id] == nil {
			lines = append(lines, productName(was[id])+": removed from the catalogue")
		}
	}
	kept := func(ids []string, other map[string]*contentform.Value) []string {
		return slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return other[id] == nil })
	}
	if !slices.Equal(kept(wasIDs, now), kept(nowIDs, was)) {
		lines = append(lines, "Products: new order")
	}
	return lines
}

// productName is how the studio calls a product: its name, or its number
// when it has none.
func productName(p *contentform.Value) string {
	if name := strings.TrimSpace(p.Get("name").Text()); name != "" {
		return name
	}
	return "Product " + p.Get("id").Text()
}

// productFields is what changed in one product: its fields as its form
// names them, and its photographs said as photographs.
func productFields(schema *contentform.Schema, before, after *contentform.Value) []string {
	one := func(p *contentform.Value) *contentform.Value {
		p = p.Clone()
		p.Delete("images")
		doc := contentform.NewObject()
		doc.Set("products", &contentform.Value{Kind: contentform.Array, Items: []*contentform.Value{p}})
		return doc
	}
	labels := schema.Changed(one(before), one(after), "/products/0")
	return append(labels, photoChanges(before.Get("images").List(), after.Get("images").List())...)
}

// photoChanges says what happened to a product's photographs: "new
// photograph", "2 photographs removed", "photographs in a new order",
// "alt text of a photograph".
func photoChanges(before, after []*contentform.Value) []string {
	srcs := func(list []*contentform.Value) []string {
		var s []string
		for _, img := range list {
			s = append(s, img.Get("src").Text())
		}
		return s
	}
	was, now := srcs(before), srcs(after)
	var added, removed int
	for _, s := range now {
		if !slices.Contains(was, s) {
			added++
		}
	}
	for _, s := range was {
		if !slices.Contains(now, s) {
			removed++
		}
	}
	var lines []string
	switch {
	case added == 1:
		lines = append(lines, "new photograph")
	case added > 1:
		lines = append(lines, fmt.Sprintf("%d new photographs", added))
	}
	switch {
	case removed == 1:
		lines = append(lines, "photograph removed")
	case removed > 1:
		lines = append(lines, fmt.Sprintf("%d photographs removed", removed))
	}
	if added == 0 && removed == 0 && !slices.Equal(was, now) {
		lines = append(lines, "photographs in a new order")
	}
	alts := 0
	for _, img := range after {
		for _, old := range before {
			if old.Get("src").Text() == img.Get("src").Text() && old.Get("alt").Text() != img.Get("alt").Text() {
				alts++
			}
		}
	}
	switch {
	case alts == 1:
		lines = append(lines, "alt text of a photograph")
	case alts > 1:
		lines = append(lines, fmt.Sprintf("alt texts of %d photographs", alts))
	}
	return lines
}

// featuredChanges says what changed of the pieces the home page shows.
func featuredChanges(old, new *contentform.Value) []string {
	var what []string
	if !contentform.Equal(old.Get("whatsHot"), new.Get("whatsHot")) {
		what = append(what, "the pieces in What’s Hot")
	}
	if !contentform.Equal(old.Get("fresh"), new.Get("fresh")) {
		what = append(what, "the piece Fresh from the studio")
	}
	return partLine("Home page", what)
}

// partLine is one part's line, "Yucca: description, new photograph", or
// none when nothing changed. A long list is cut: the line is to tell
// versions apart, not to list every field.
func partLine(title string, labels []string) []string {
	if len(labels) == 0 {
		return nil
	}
	words := make([]string, 0, len(labels))
	for _, l := range labels {
		if w := inWords(l); !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	const most = 4
	if len(words) > most {
		words = append(words[:most-1], fmt.Sprintf("%d more changes", len(words)-most+1))
	}
	return []string{title + ": " + strings.Join(words, ", ")}
}

// inWords is a form's label ("Hero › Text") as a phrase in a sentence
// ("hero text"): each part's first letter lower-cased unless the part is an
// acronym or a name in capitals ("FAQ", "GA4").
func inWords(label string) string {
	parts := strings.Split(label, " › ")
	for i, p := range parts {
		first, size := utf8.DecodeRuneInString(p)
		second, _ := utf8.DecodeRuneInString(p[size:])
		if unicode.IsUpper(first) && !unicode.IsUpper(second) && !unicode.IsDigit(second) {
			parts[i] = string(unicode.ToLower(first)) + p[size:]
		}
	}
	return strings.Join(parts, " ")
}

// firstFormTitle is what the Content page calls the file's first form.
func firstFormTitle(file string) string {
	for _, p := range slices.Concat(Parts, Texts) {
		if p.File == file {
			if p.Only != nil {
				return "Catalogue"
			}
			return p.Title
		}
	}
	return "Other content"
}

// textPart is the Markdown text of file.
func textPart(file string) Part {
	for _, p := range Texts {
		if p.File == file {
			return p
		}
	}
	return Part{Title: "A text", File: file}
}

// textChange says how a Markdown text changed. A text of questions (each a
// "## " heading ending in "?", as the FAQ) counts its answers: "2 answers
// changed", "a question added"; any other text "text changed".
func textChange(old, new string) string {
	was, wasOrder := sections(old)
	now, nowOrder := sections(new)
	questions := len(nowOrder) > 0
	for _, h := range slices.Concat(wasOrder, nowOrder) {
		questions = questions && strings.HasSuffix(h, "?")
	}
	if !questions {
		return "text changed"
	}
	var changed, added, removed int
	for _, h := range nowOrder {
		body, ok := was[h]
		switch {
		case !ok:
			added++
		case body != now[h]:
			changed++
		}
	}
	for _, h := range wasOrder {
		if _, ok := now[h]; !ok {
			removed++
		}
	}
	var what []string
	if was[""] != now[""] {
		what = append(what, "introduction changed")
	}
	what = appendCount(what, changed, "answer changed", "answers changed")
	what = appendCount(what, added, "question added", "questions added")
	what = appendCount(what, removed, "question removed", "questions removed")
	if len(what) == 0 {
		return "text changed"
	}
	return strings.Join(what, ", ")
}

func appendCount(what []string, n int, one, many string) []string {
	switch {
	case n == 1:
		return append(what, "1 "+one)
	case n > 1:
		return append(what, fmt.Sprintf("%d %s", n, many))
	}
	return what
}

// sections splits a Markdown text at its "## " headings: each heading's
// text after it, and the headings in order. The text before the first
// heading is under "".
func sections(text string) (map[string]string, []string) {
	bodies, order := map[string]string{}, []string(nil)
	heading := ""
	var body strings.Builder
	flush := func() {
		if heading != "" || strings.TrimSpace(body.String()) != "" {
			bodies[heading] = strings.TrimSpace(body.String())
			if heading != "" {
				order = append(order, heading)
			}
		}
		body.Reset()
	}
	for line := range strings.SplitSeq(text, "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			flush()
			heading = strings.TrimSpace(h)
			continue
		}
		body.WriteString(line + "\n")
	}
	flush()
	return bodies, order
}

// Explain says a line of the content check ("content/site.json: phones[0].tel:
// …", as a failed build keeps it) where the studio fixes it: the part and
// the field, as its form names them ("Studio details › Phone 1 › Number:
// …"), and the address of that field in the workspace's form (the field's
// id as its fragment; the form alone when no field is named). A line of
// no part is said as it is, with no address.
func (e *Editor) Explain(commit, line string) (text, href string) {
	rest, ok := strings.CutPrefix(line, "content/")
	file, problem, found := strings.Cut(rest, ": ")
	if !ok || !found {
		return line, ""
	}
	if strings.HasSuffix(file, ".md") {
		p := textPart(file)
		if p.Slug == "" {
			return line, ""
		}
		return p.Title + ": " + problem, "/studio/content/" + p.Slug
	}
	var first Part
	for _, p := range e.partsOf(commit, file, problem) {
		if first.Slug == "" {
			first = p
		}
		if text, href, ok := e.place(commit, p, line); ok {
			return text, href
		}
	}
	if first.Slug == "" {
		return firstFormTitle(file) + ": " + problem, ""
	}
	return first.Title + ": " + problem, "/studio/content/" + first.Slug
}

// partsOf is the forms a problem of file may be in: a product's, when it
// names one ("product 3 (Chair): name"), then the file's forms.
func (e *Editor) partsOf(commit, file, problem string) []Part {
	var parts []Part
	if id, ok := strings.CutPrefix(problem, "product "); ok && file == "catalogue.json" {
		id, _, _ = strings.Cut(id, " ")
		if p, ok := PartBySlug("products/" + id); ok {
			if _, doc, err := e.readPart(commit, p); err == nil {
				if pointer, ok := p.PointerIn(doc); ok {
					p.Title = productName(doc.At(pointer))
				}
			}
			parts = append(parts, p)
		}
	}
	for _, p := range Parts {
		if p.File == file {
			parts = append(parts, p)
		}
	}
	return parts
}

// place finds the field of part p's form that line names, in commit's
// version of the content.
func (e *Editor) place(commit string, p Part, line string) (text, href string, ok bool) {
	schema, doc, err := e.readPart(commit, p)
	if err != nil {
		return "", "", false
	}
	pointer, found := p.PointerIn(doc)
	if !found {
		return "", "", false
	}
	form := p.Form(schema, doc, pointer)
	if rest := contentform.Attach(form, p.File, doc, []string{line}); len(rest) > 0 {
		return "", "", false
	}
	var walk func(f *contentform.Field, place []string) bool
	walk = func(f *contentform.Field, place []string) bool {
		// A list's items name themselves ("Phone 1"), as the form's summary does.
		if f.Kind != "list" && f.Kind != "photos" && f.Label != "" && f.Name != pointer {
			place = append(place[:len(place):len(place)], f.Label)
		}
		if len(f.Problems) > 0 {
			text = strings.Join(append([]string{p.Title}, place...), " › ") + ": " + f.Problems[0]
			href = "/studio/content/" + p.Slug + "#" + f.ID
			return true
		}
		return slices.ContainsFunc(f.Fields, func(c *contentform.Field) bool { return walk(c, place) })
	}
	return text, href, walk(form, nil)
}
