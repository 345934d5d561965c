package edit

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"studio/internal/contentform"
)

// Merging a form with a newer draft: someone saved since the form was
// made. The part is merged field by field (a three-way merge: the form's
// version, theirs, and the form): a field only one of them changed takes
// that change; a field both changed, each its own way, is a conflict,
// which the studio settles by choosing one value (Choices). A list
// (phones, photographs, disciplines) is one field: its items have no
// names of their own to be matched by, so a per-item merge could put an
// alt text on the wrong photograph.

// A Save is one save of the draft, as a page names it: by whom (the
// account's name) and when.
type Save struct {
	Who  string
	When time.Time
}

// A FieldConflict is one field both saves changed, each its own way.
type FieldConflict struct {
	Name   string // the field's name in the form (its pointer)
	Label  string // where it is in the form: "Hero › Heading"
	Mine   string // the form's value, as the page shows it
	Theirs string // the newer draft's
	By     Save   // the save meanwhile that changed it
}

// Kept is a field someone changed meanwhile that a save merged over
// theirs kept.
type Kept struct {
	Label string
	By    Save
}

// Choices are a conflict page's answers: for each field in conflict,
// whose value to keep (KeepMine or KeepTheirs, by the field's name),
// chosen against the draft's commit Against. A choice made against an
// older draft is asked again: someone may have saved that field since.
type Choices struct {
	Against string
	Keep    map[string]string
}

// Whose value a choice keeps, and the form's names for them: the radio
// buttons of a field are ChoiceField+its name; AgainstField holds the
// draft's commit they were shown against.
const (
	KeepMine     = "mine"
	KeepTheirs   = "theirs"
	ChoiceField  = "_keep:"
	AgainstField = "_against"
	// TextField is a Markdown text's one field, as its choice names it.
	TextField = "text"
)

// ChoicesOf reads a posted form's choices.
func ChoicesOf(form url.Values) Choices {
	c := Choices{Against: form.Get(AgainstField), Keep: map[string]string{}}
	for k, vs := range form {
		if name, ok := strings.CutPrefix(k, ChoiceField); ok && len(vs) > 0 {
			c.Keep[name] = vs[len(vs)-1]
		}
	}
	return c
}

// keep is the choice for the field name made against the draft head.
func (c Choices) keep(head, name string) string {
	if c.Against != head {
		return ""
	}
	return c.Keep[name]
}

// unit is one field of a part, merged whole.
type unit struct {
	rel   string // its pointer within the part's value
	name  string // its name in the form (its pointer in the form's document)
	label string
}

// fieldUnits are the fields of part merged one by one, from its form in
// doc: each input, and each list or map whole; a group is one too when
// one of values (the part in each version) lacks it.
func fieldUnits(part Part, schema *contentform.Schema, doc *contentform.Value, pointer string, values ...*contentform.Value) []unit {
	var units []unit
	var walk func(f *contentform.Field, path []string)
	walk = func(f *contentform.Field, path []string) {
		rel := strings.TrimPrefix(f.Name, pointer)
		if f.Name != pointer {
			path = append(path[:len(path):len(path)], f.Label)
		}
		if f.Kind == "group" && (f.Name == pointer || inAll(rel, values)) {
			for _, child := range f.Fields {
				walk(child, path)
			}
			return
		}
		units = append(units, unit{rel: rel, name: f.Name, label: strings.Join(path, " › ")})
	}
	walk(part.Form(schema, doc, pointer), nil)
	return units
}

// inAll says each of values has an object at rel.
func inAll(rel string, values []*contentform.Value) bool {
	for _, v := range values {
		if at := v.At(rel); at == nil || at.Kind != contentform.Object {
			return false
		}
	}
	return true
}

// mergeUnits puts mine's changes of base over theirs, field by field (all
// three the part's value): a field both changed, each its own way, is
// kept as theirs and listed, unless keep (by its name) says whose to keep.
func mergeUnits(units []unit, base, mine, theirs *contentform.Value, keep func(name string) string) (out *contentform.Value, conflicts []unit) {
	out = theirs.Clone()
	for _, u := range units {
		b, m, t := base.At(u.rel), mine.At(u.rel), theirs.At(u.rel)
		switch {
		case contentform.Equal(m, b) || contentform.Equal(m, t):
		case contentform.Equal(t, b) || keep(u.name) == KeepMine:
			out.Replace(u.rel, m.Clone())
		case keep(u.name) == KeepTheirs:
		default:
			conflicts = append(conflicts, u)
		}
	}
	return out, conflicts
}

// place writes value, the part's own value (ownPart), into doc, the part
// being at pointer there; it returns doc.
func place(part Part, doc *contentform.Value, pointer string, value *contentform.Value) *contentform.Value {
	switch {
	case part.Only != nil:
		for _, k := range part.Only {
			doc.Replace("/"+k, value.Get(k))
		}
	case pointer == "":
		return value
	default:
		doc.Replace(pointer, value)
	}
	return doc
}

// shown is a field's value as a conflict page says it: a list's items one
// a line, each by its texts.
func shown(f *contentform.Field) string {
	if f == nil {
		return "(none)"
	}
	switch f.Kind {
	case "checkbox":
		if f.Checked {
			return "yes"
		}
		return "no"
	case "list", "photos", "map", "group":
		var lines []string
		for _, item := range f.Fields {
			lines = append(lines, strings.Join(texts(item), " · "))
		}
		if len(lines) == 0 {
			return "(none)"
		}
		return strings.Join(lines, "\n")
	}
	if strings.TrimSpace(f.Value) == "" {
		return "(empty)"
	}
	return f.Value
}

// texts are the values a group's fields show, hidden ones aside.
func texts(f *contentform.Field) []string {
	if f.Kind == "hidden" {
		return nil
	}
	if len(f.Fields) == 0 || f.Kind == "lines" {
		if v := strings.TrimSpace(shown(f)); v != "(empty)" && v != "" {
			return []string{v}
		}
		return nil
	}
	var out []string
	for _, c := range f.Fields {
		out = append(out, texts(c)...)
	}
	return out
}

// summary says a change's fields in a commit message: the first four and
// how many more.
func summary(labels []string) string {
	if len(labels) > 4 {
		return strings.Join(labels[:4], ", ") + fmt.Sprintf(" and %d more", len(labels)-4)
	}
	return strings.Join(labels, ", ")
}
