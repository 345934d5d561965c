package editor

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"studio/internal/workspace/edit"
)

// Two saves of one part made from the same version, as the pages say
// them: a save merged over others' says whose changes it kept; a save
// refused because both changed a field shows both values, to choose one
// (package edit merges them).

// conflictView is one field both saves changed, as the form shows it: its
// two values, each with a radio button.
type conflictView struct {
	edit.FieldConflict
	ID     string // the choice's fieldset
	Choice string // the radio button's name
	At     string // when theirs was saved: "at 12:31"
	Form   string // the form the choice belongs to, when it is outside it
}

// The form's names and values of a choice (package edit reads them back).
func (conflictView) AgainstField() string { return edit.AgainstField }
func (conflictView) KeepMine() string     { return edit.KeepMine }
func (conflictView) KeepTheirs() string   { return edit.KeepTheirs }

// thingName names a part as the studio does, in a sentence: "Yucca
// (product 3)", "the Studio details".
func thingName(part edit.Part, name string) string {
	switch {
	case part.Product > 0 && name != "":
		return name + " (product " + strconv.Itoa(part.Product) + ")"
	case part.Product > 0:
		return "product " + strconv.Itoa(part.Product)
	case part.Product == edit.NewProduct:
		return "the new product"
	}
	return "the " + part.Title
}

// at says when a save was made: "at 12:31" today, else "on 2 Jan at 12:31".
func (h *Handler) at(t time.Time) string {
	t = t.In(h.kit.Location)
	if now := time.Now().In(h.kit.Location); t.YearDay() == now.YearDay() && t.Year() == now.Year() {
		return t.Format("at 15:04")
	}
	return t.Format("on 2 Jan at 15:04")
}

// theField names a field in a sentence: "the name", "the hero › alt"; a
// word with a capital of its own inside ("WhatsApp phone") keeps it.
func theField(label string) string {
	segments := strings.Split(label, " › ")
	for i, segment := range segments {
		first, rest, _ := strings.Cut(segment, " ")
		r, size := utf8.DecodeRuneInString(first)
		if strings.IndexFunc(first[size:], unicode.IsUpper) < 0 {
			first = string(unicode.ToLower(r)) + first[size:]
		}
		if rest != "" {
			first += " " + rest
		}
		segments[i] = first
	}
	return "the " + strings.Join(segments, " › ")
}

// and joins words: "a", "a and b", "a, b and c".
func and(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// conflictViews are a conflict's fields as the form shows them, and the
// sentence that says what happened (what to do is the caller's to say).
func (h *Handler) conflictViews(thing string, conflict *edit.Conflict) ([]conflictView, string) {
	var views []conflictView
	var who, fields []string
	latest := conflict.Fields[0].By.When
	for i, f := range conflict.Fields {
		views = append(views, conflictView{FieldConflict: f, ID: "keep-" + strconv.Itoa(i+1), Choice: edit.ChoiceField + f.Name, At: h.at(f.By.When)})
		if !slices.Contains(who, f.By.Who) {
			who = append(who, f.By.Who)
		}
		fields = append(fields, theField(f.Label))
		if f.By.When.After(latest) {
			latest = f.By.When
		}
	}
	return views, fmt.Sprintf("Not saved yet: %s changed %s of %s too, %s, while you were editing.",
		and(who), and(fields), thing, h.at(latest))
}

// keptNotice is what a page says after a save merged over others' (the
// commit saved, made from the form's version since): the changes of
// theirs it kept.
func (h *Handler) keptNotice(part edit.Part, since, saved string) string {
	kept, err := h.editor.KeptMeanwhile(part, since, saved)
	if err != nil {
		h.kit.Log.Warn("studio: what a merged save kept", "part", part.Slug, "err", err)
	}
	if len(kept) == 0 {
		return savedNotice
	}
	var who []string
	byWho := map[string][]string{}
	for _, k := range kept {
		if _, ok := byWho[k.By.Who]; !ok {
			who = append(who, k.By.Who)
		}
		byWho[k.By.Who] = append(byWho[k.By.Who], theField(k.Label))
	}
	var changes []string
	for _, name := range who {
		word := "change"
		if len(byWho[name]) > 1 {
			word = "changes"
		}
		changes = append(changes, fmt.Sprintf("%s’s %s to %s", name, word, and(byWho[name])))
	}
	verb := "is"
	if len(kept) > 1 {
		verb = "are"
	}
	return fmt.Sprintf("Saved to the unpublished changes. %s, saved meanwhile, %s kept. Visitors still see the live site until you publish.", and(changes), verb)
}
