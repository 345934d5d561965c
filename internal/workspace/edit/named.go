package edit

import (
	"slices"
	"strconv"
	"strings"

	"studio/internal/contentform"
)

// The content check's lines in the owner's words. The check names a field
// as the files have it ("content/pages.json: home.whatsHot.title: is
// empty"), for whoever edits them by hand and for the build's log; the
// workspace names the part and the field by the labels of their form
// ("Home page › What's Hot › Title: is empty"), and says which form shows it.

// A Named is one line of the content check, said in the owner's words.
type Named struct {
	Where   string // the part and its field by their labels, "Home page › What's Hot › Title"; "" when the line names no part
	Problem string // what is wrong with it, "is empty"
	Slug    string // the form that shows it (a Part's Slug), "" when none does
	Field   string // the field's id in that form, "" for the part as a whole
}

// String is the line as a page says it.
func (n Named) String() string {
	if n.Where == "" {
		return n.Problem
	}
	return n.Where + ": " + n.Problem
}

// Name says each of lines, the content check's of the content of commit
// version, in the owner's words. changed are files of that content as an
// unsaved form has them (by file name), read in its place.
func (e *Editor) Name(version string, changed map[string]*contentform.Value, lines []string) []Named {
	files := map[string]*checkedFile{}
	named := make([]Named, 0, len(lines))
	for _, line := range lines {
		file, rest, ok := strings.Cut(strings.TrimPrefix(line, "content/"), ": ")
		if !ok || !strings.HasPrefix(line, "content/") {
			named = append(named, Named{Problem: line})
			continue
		}
		switch {
		case strings.HasSuffix(file, ".md"):
			named = append(named, nameText(file, rest))
			continue
		case !strings.HasSuffix(file, ".json"):
			// A picture ("content/images/x.jpg: …"): said by what it is.
			named = append(named, Named{Where: sentenceCase(FilesWords([]string{file})), Problem: rest})
			continue
		}
		f, ok := files[file]
		if !ok {
			f = e.readChecked(version, file, changed[file])
			files[file] = f
		}
		named = append(named, f.name(line, rest))
	}
	return named
}

// Say is Name's lines as the page of part says them: a line of part as a
// whole by its problem alone, others by where they are.
func (e *Editor) Say(part Part, version string, changed map[string]*contentform.Value, lines []string) []string {
	var out []string
	for _, n := range e.Name(version, changed, lines) {
		if n.Slug == part.Slug && n.Field == "" {
			out = append(out, n.Problem)
		} else {
			out = append(out, n.String())
		}
	}
	return out
}

// nameText names a line of a Markdown text: the text, by its title.
func nameText(file, problem string) Named {
	for _, t := range Texts {
		if t.File == file {
			return Named{Where: t.Title, Problem: problem, Slug: t.Slug}
		}
	}
	return Named{Where: "Texts and policies", Problem: problem}
}

// checkedFile is a content file whose lines are being named: its form as a
// whole, nil when it cannot be read.
type checkedFile struct {
	file string
	doc  *contentform.Value
	form *contentform.Field
}

func (e *Editor) readChecked(version, file string, doc *contentform.Value) *checkedFile {
	f := &checkedFile{file: file}
	schema, base, err := e.readPart(version, Part{File: file})
	if err != nil {
		return f
	}
	if doc == nil {
		doc = base
	}
	f.doc, f.form = doc, schema.Form(doc, "")
	return f
}

// name names one line of the file: by its field when the line names one,
// else by the part the file is (the file as a whole when it has several).
func (f *checkedFile) name(line, rest string) Named {
	if f.form != nil {
		if path, problem, ok := contentform.Locate(f.form, f.file, f.doc, line); ok {
			return f.nameField(path, problem)
		}
	}
	part, where, _ := f.partOf("")
	return Named{Where: where, Problem: rest, Slug: part.Slug}
}

// nameField names the field at the end of path by its part and the labels
// of the groups it is in below the part (a list's items name themselves:
// "Phone 2", not "Phones › Phone 2").
func (f *checkedFile) nameField(path []*contentform.Field, problem string) Named {
	field := path[len(path)-1]
	part, where, below := f.partOf(field.Name)
	words := []string{where}
	for _, p := range path {
		if len(p.Name) <= len(below) || p.Kind == "list" || p.Kind == "photos" {
			continue
		}
		words = append(words, p.Label)
	}
	id := field.ID
	if field.Name == below {
		id = ""
	}
	return Named{Where: strings.Join(words, " › "), Problem: problem, Slug: part.Slug, Field: id}
}

// partOf is the part that shows the field at pointer, what the owner
// calls it, and the part's own pointer in the file (its fields are those
// below it).
func (f *checkedFile) partOf(pointer string) (part Part, where, below string) {
	tokens := contentform.Tokens(pointer)
	if f.file == "catalogue.json" && len(tokens) >= 2 && tokens[0] == "products" {
		below = contentform.Pointer("/products", tokens[1])
		item := f.doc.At(below)
		id := item.Get("id").Text()
		part, _ = PartBySlug("products/" + id)
		return part, productWords(item.Get("name").Text(), id), below
	}
	for _, p := range Parts {
		if p.File != f.file {
			continue
		}
		switch {
		case p.Only != nil && len(tokens) > 0 && slices.Contains(p.Only, tokens[0]):
			return p, p.Title, ""
		case p.Only == nil && (p.Pointer == "" || pointer == p.Pointer || strings.HasPrefix(pointer, p.Pointer+"/")):
			return p, p.Title, p.Pointer
		}
	}
	return Part{}, fileTitle(f.file), ""
}

// productWords is how the owner names a product: "Yucca (product 3)".
func productWords(name, id string) string {
	if _, err := strconv.Atoi(id); err != nil {
		return "A product"
	}
	if name == "" {
		return "Product " + id
	}
	return name + " (product " + id + ")"
}

// FilesWords is what the owner calls the parts of the content that files
// (names in the content repository) hold: "Products, FAQ and photographs",
// each said once.
func FilesWords(files []string) string {
	var words []string
	for _, file := range files {
		w := "other parts of the content"
		switch {
		case strings.HasPrefix(file, "images/"):
			w = "photographs"
		case strings.HasSuffix(file, ".md"):
			w = nameText(file, "").Where
		case strings.HasSuffix(file, ".json") && !strings.HasPrefix(file, "schema/"):
			w = fileTitle(file)
		}
		if !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

func sentenceCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// fileTitle is what the owner calls a content file as a whole.
func fileTitle(file string) string {
	switch file {
	case "catalogue.json":
		return "Products"
	case "pages.json":
		return "Home, About and Bespoke pages"
	}
	for _, p := range Parts {
		if p.File == file {
			return p.Title
		}
	}
	return "Content"
}
