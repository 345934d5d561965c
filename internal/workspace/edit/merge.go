package edit

import (
	"fmt"
	"strings"

	"studio/internal/contentform"
)

// Merging a form with a newer draft: someone saved since the form was
// made. Their save stands; this one is made over it only if they did not
// change this part (a three-way merge, by the part: the form's version,
// theirs, and the form's own changes).

// TheirChange is one field of someone else's save, as the page shows it.
type TheirChange struct{ Label, Value string }

// merged is doc (the form's version base, with its changes), put over
// theirs, the newer draft: the part at pointer in doc replaces the part
// at theirPointer. ok is false when they changed the part too, or deleted
// it.
func merged(part Part, base, doc, theirs *contentform.Value, pointer, theirPointer string, found bool) (*contentform.Value, bool) {
	if part.Product == NewProduct {
		// A new product goes first in their list, with the next id there.
		doc.At(pointer).Set("id", theirs.At(theirPointer+"/id"))
	} else if !found || !contentform.Equal(part.ownPart(base, pointer), part.ownPart(theirs, theirPointer)) {
		return nil, false
	}
	out := theirs.Clone()
	switch {
	case part.Only != nil:
		for _, k := range part.Only {
			out.Replace("/"+k, doc.Get(k))
		}
	case pointer == "":
		out = doc
	default:
		out.Replace(theirPointer, doc.At(pointer))
	}
	return out, true
}

// theirChanges says what a newer save changed in the part: each field's
// label and its new value.
func theirChanges(schema *contentform.Schema, base, theirs *contentform.Value, pointer, theirPointer string) []TheirChange {
	var out []TheirChange
	// Their part, compared at the place it had in base.
	moved := base.Clone()
	moved.Replace(pointer, theirs.At(theirPointer))
	if pointer == "" {
		moved = theirs
	}
	form := schema.Form(moved, pointer)
	for _, label := range schema.Changed(base, moved, pointer) {
		out = append(out, TheirChange{Label: label, Value: valueOfLabel(form, label, pointer)})
	}
	return out
}

// valueOfLabel finds the value shown by the field labelled path ("Phone
// 1 › Display").
func valueOfLabel(form *contentform.Field, path, pointer string) string {
	var found string
	var walk func(f *contentform.Field, labels []string)
	walk = func(f *contentform.Field, labels []string) {
		if f.Name != pointer {
			labels = append(labels, f.Label)
		}
		if strings.Join(labels, " › ") == path {
			switch {
			case f.Kind == "checkbox" && f.Checked:
				found = "yes"
			case f.Kind == "checkbox":
				found = "no"
			case f.Kind == "list" || f.Kind == "group":
				found = fmt.Sprintf("%d items", len(f.Fields))
			default:
				found = f.Value
			}
		}
		for _, c := range f.Fields {
			walk(c, labels)
		}
	}
	walk(form, nil)
	return found
}

// summary says a change's fields in a commit message: the first four and
// how many more.
func summary(labels []string) string {
	if len(labels) > 4 {
		return strings.Join(labels[:4], ", ") + fmt.Sprintf(" and %d more", len(labels)-4)
	}
	return strings.Join(labels, ", ")
}
