package contentform

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// A Field is one part of the form a schema makes of a document: an input,
// a group of fields (an object) or a list of items (an array of objects).
type Field struct {
	Name     string // the input's name: the value's JSON pointer, "/phones/0/tel"
	ID       string // the input's id
	Label    string // the schema's title, or the key in words
	Hint     string // the schema's description
	Kind     string // text, textarea, integer, number, checkbox, select, lines (a list of plain values, one a line), group, list
	Required bool
	Value    string
	Checked  bool
	Options  []string // a select's choices
	Pattern  string   // a text's pattern in the schema (a path's names its kind: package sitecontent)
	Fields   []*Field // a group's fields, a list's items (each a group or one field)
	Problems []string // what the content check said of it

	// A list's: what one item is called ("Phone"), and its items' count as
	// the form posts it back (an item added or removed before saving).
	Item, CountName string
	// A list item's: the list, and its place in it.
	List         string
	Index, Count int
}

// Find is the field of f (f itself, or one within it) named name, nil
// when none is.
func (f *Field) Find(name string) *Field {
	if f.Name == name {
		return f
	}
	for _, c := range f.Fields {
		if found := c.Find(name); found != nil {
			return found
		}
	}
	return nil
}

// A Schema is one content file's schema: a JSON Schema (2020-12) as the
// files of content/schema use it: type, properties, required, items, enum,
// title, description, $ref to #/$defs.
type Schema struct{ root *Value }

// ParseSchema reads a schema file.
func ParseSchema(b []byte) (*Schema, error) {
	v, err := Parse(b)
	if err != nil {
		return nil, err
	}
	return &Schema{root: v}, nil
}

// resolve is node with its $ref's keywords beneath its own ("$ref" beside
// "properties" adds the referenced properties).
func (s *Schema) resolve(node *Value) *Value {
	ref := node.Get("$ref")
	if ref == nil || ref.Kind != String || !strings.HasPrefix(ref.String, "#") {
		return node
	}
	target := s.root.At(strings.TrimPrefix(ref.String, "#"))
	if target == nil {
		return node
	}
	merged := s.resolve(target).Clone()
	for _, k := range node.Keys {
		switch own := node.Fields[k]; {
		case k == "$ref":
		case k == "properties" && merged.Get(k) != nil:
			props := merged.Get(k)
			for _, p := range own.Keys {
				props.Set(p, own.Fields[p])
			}
		case k == "required" && merged.Get(k) != nil:
			merged.Get(k).Items = append(merged.Get(k).Items, own.Items...)
		default:
			merged.Set(k, own)
		}
	}
	return merged
}

func typeOf(node *Value) string {
	if t := node.Get("type"); t != nil && t.Kind == String {
		return t.String
	}
	if node.Get("properties") != nil {
		return "object"
	}
	return ""
}

func textOf(node *Value, key string) string {
	if v := node.Get(key); v != nil && v.Kind == String {
		return v.String
	}
	return ""
}

func requiredOf(node *Value) []string {
	var names []string
	if r := node.Get("required"); r != nil {
		for _, item := range r.Items {
			names = append(names, item.String)
		}
	}
	return names
}

// hidden says a key is a note for those who edit the file by hand
// ("_comment"), not a field.
func hidden(key string) bool { return strings.HasPrefix(key, "_") }

// Form is the form of the part of doc at pointer ("" for all of it): one
// field for each property of its schema, the document's values in them.
func (s *Schema) Form(doc *Value, pointer string) *Field {
	node := s.nodeAt(pointer)
	if node == nil {
		node = NewObject()
	}
	tokens := Tokens(pointer)
	key := ""
	if len(tokens) > 0 {
		key = tokens[len(tokens)-1]
	}
	return s.field(node, pointer, key, doc.At(pointer), true)
}

func (s *Schema) field(raw *Value, pointer, key string, v *Value, required bool) *Field {
	node := s.resolve(raw)
	// The hint is the description, but not "some text" of a text that must
	// merely not be empty (pattern \S): Required says that.
	hint := textOf(raw, "description")
	if hint == "" && textOf(node, "pattern") != `\S` {
		hint = textOf(node, "description")
	}
	f := &Field{Name: pointer, ID: idOf(pointer), Label: textOf(node, "title"), Hint: hint, Required: required}
	if f.Label == "" || pointer == "" {
		f.Label = words(key)
	}
	switch typeOf(node) {
	case "object":
		s.fillGroup(f, node, v)
	case "array":
		s.fillList(f, node, v)
	case "boolean":
		f.Kind = "checkbox"
		f.Checked = v != nil && v.Bool
	case "integer", "number":
		f.Kind = typeOf(node)
		f.Value = plainText(v)
	default:
		fillText(f, node, v)
		// A description is prose: a box of several lines from the start,
		// where Enter starts a line rather than sending the form.
		if key == "description" && f.Kind == "text" {
			f.Kind = "textarea"
		}
	}
	return f
}

// fillGroup makes f the group of an object's fields, or the named groups
// of a map.
func (s *Schema) fillGroup(f *Field, node, v *Value) {
	f.Kind = "group"
	props := node.Get("properties")
	if entries := mapOf(node); props == nil && entries != nil {
		s.fillMap(f, entries, v)
		return
	}
	if props == nil {
		return
	}
	req := requiredOf(node)
	for _, k := range props.Keys {
		if hidden(k) {
			continue
		}
		f.Fields = append(f.Fields, s.field(props.Fields[k], Pointer(f.Name, k), k, v.Get(k), slices.Contains(req, k)))
	}
}

// fillMap makes f a map's named groups ("filters.material": {"Wood": [...]}):
// each entry a name and its value, by its place (a name may be changed).
func (s *Schema) fillMap(f *Field, entries, v *Value) {
	pointer := f.Name
	f.Kind, f.CountName, f.Item = "map", "_count"+pointer, "Group"
	var keys []string
	if v != nil {
		keys = v.Keys
	}
	for i, k := range keys {
		entry := Pointer(pointer, strconv.Itoa(i))
		child := &Field{Name: entry, ID: idOf(entry), Label: k, Kind: "group", List: pointer, Index: i, Count: len(keys)}
		child.Fields = []*Field{{Name: "_key" + entry, ID: idOf("_key" + entry), Label: "Name", Kind: "text", Value: k, Required: true},
			s.field(entries, entry+"/value", "", v.Fields[k], true)}
		child.Fields[1].Label = "Stands for"
		f.Fields = append(f.Fields, child)
	}
}

// fillList makes f an array's field: its plain values one a line, or its
// items (pictures among them) each a group.
func (s *Schema) fillList(f *Field, node, v *Value) {
	items := s.resolve(orEmpty(node.Get("items")))
	if t := typeOf(items); t != "object" && t != "array" {
		f.Kind = "lines"
		f.Value = linesOf(v)
		return
	}
	f.Kind, f.CountName = "list", "_count"+f.Name
	if props := items.Get("properties"); props.Get("src") != nil && props.Get("alt") != nil {
		// Pictures: each shown by its thumbnail, its file not typed.
		f.Kind = "photos"
	}
	f.Item = textOf(items, "title")
	if f.Item == "" {
		f.Item = singular(f.Label)
	}
	var list []*Value
	if v != nil {
		list = v.Items
	}
	for i, item := range list {
		child := s.field(items, Pointer(f.Name, strconv.Itoa(i)), "", item, true)
		child.Label = fmt.Sprintf("%s %d", f.Item, i+1)
		child.List, child.Index, child.Count = f.Name, i, len(list)
		if f.Kind == "photos" {
			hidePhotoFile(child)
		}
		f.Fields = append(f.Fields, child)
	}
}

// linesOf is a list of plain values as a textarea shows it, one a line.
func linesOf(v *Value) string {
	if v == nil {
		return ""
	}
	var lines []string
	for _, item := range v.Items {
		lines = append(lines, plainText(item))
	}
	return strings.Join(lines, "\n")
}

// hidePhotoFile hides a picture's file name and gives its group the
// picture, for its thumbnail.
func hidePhotoFile(item *Field) {
	for _, c := range item.Fields {
		if c.Name == Pointer(item.Name, "src") {
			c.Kind = "hidden"
			item.Value = c.Value
		}
	}
}

// fillText makes f a text: a choice of the schema's values, a textarea
// for long or several lines, else one line.
func fillText(f *Field, node, v *Value) {
	f.Kind = "text"
	f.Value = plainText(v)
	f.Pattern = textOf(node, "pattern")
	if enum := node.Get("enum"); enum != nil {
		f.Kind = "select"
		for _, o := range enum.Items {
			f.Options = append(f.Options, plainText(o))
		}
	} else if len(f.Value) > 70 || strings.Contains(f.Value, "\n") {
		f.Kind = "textarea"
	}
}

func orEmpty(v *Value) *Value {
	if v == nil {
		return NewObject()
	}
	return v
}

func plainText(v *Value) string {
	if v != nil && v.Kind == Bool {
		return strconv.FormatBool(v.Bool)
	}
	return v.Text()
}

var nonID = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// idOf is an HTML id for a pointer: "/phones/0/tel" → "f-phones-0-tel".
func idOf(pointer string) string { return "f" + nonID.ReplaceAllString(pointer, "-") }

// words turns a key into a label: "postalCode" → "Postal code".
func words(key string) string {
	var b strings.Builder
	for i, r := range key {
		if i > 0 && unicode.IsUpper(r) {
			b.WriteByte(' ')
			r = unicode.ToLower(r)
		}
		if i == 0 {
			r = unicode.ToUpper(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

func singular(label string) string {
	if strings.HasSuffix(label, "ies") {
		return strings.TrimSuffix(label, "ies") + "y"
	}
	if strings.HasSuffix(label, "s") && !strings.HasSuffix(label, "ss") {
		return strings.TrimSuffix(label, "s")
	}
	return label
}

// A Problem is what is wrong with a posted field before the content check
// runs: a number that is not one.
type Problem struct{ Field, Text string }

// Apply is the document the posted form makes of base: each field's value
// read back by its name, lists resized to the count posted, a field the
// form did not post left as it was. Optional fields left empty are taken
// out. Values that cannot be read are Problems, and keep base's value.
// Only the part at pointer is read from the form.
func (s *Schema) Apply(base *Value, pointer string, form url.Values) (*Value, []Problem) {
	var problems []Problem
	node := s.nodeAt(pointer)
	if node == nil {
		return base.Clone(), []Problem{{pointer, "the schema has no such part"}}
	}
	part := s.apply(node, pointer, base.At(pointer), true, form, &problems)
	doc := base.Clone()
	if pointer == "" {
		return part, problems
	}
	doc.Replace(pointer, part)
	return doc, problems
}

func (s *Schema) apply(node *Value, pointer string, v *Value, required bool, form url.Values, problems *[]Problem) *Value {
	node = s.resolve(node)
	posted, has := form[pointer]
	text := ""
	if has {
		text = strings.TrimSpace(strings.ReplaceAll(posted[len(posted)-1], "\r\n", "\n"))
	}
	switch t := typeOf(node); t {
	case "object":
		return s.applyObject(node, pointer, v, required, form, problems)
	case "array":
		items := s.resolve(orEmpty(node.Get("items")))
		if it := typeOf(items); it != "object" && it != "array" {
			if !has {
				return v
			}
			return applyLines(it, text, pointer, v, required, problems)
		}
		return s.applyList(items, pointer, v, required, form, problems)
	case "boolean":
		if !has {
			return v
		}
		on := slices.Contains(posted, "true")
		if !on && !required && v == nil {
			return nil
		}
		return &Value{Kind: Bool, Bool: on}
	case "integer", "number":
		if !has {
			return v
		}
		return applyNumber(t, text, pointer, v, required, problems)
	default:
		if !has {
			return v
		}
		if text == "" && !required && v == nil {
			return nil
		}
		return Text(text)
	}
}

// applyObject reads an object's properties back (or a map's entries) over
// its old value; an optional object that was absent and stays empty is
// left out.
func (s *Schema) applyObject(node *Value, pointer string, v *Value, required bool, form url.Values, problems *[]Problem) *Value {
	out := NewObject()
	if v != nil && v.Kind == Object {
		out = v.Clone()
	}
	props := node.Get("properties")
	if entries := mapOf(node); props == nil && entries != nil {
		return s.applyMap(entries, pointer, out, form, problems)
	}
	if props == nil {
		return out
	}
	req := requiredOf(node)
	for _, k := range props.Keys {
		if hidden(k) {
			continue
		}
		child := s.apply(props.Fields[k], Pointer(pointer, k), out.Get(k), slices.Contains(req, k), form, problems)
		if child == nil {
			out.Delete(k)
		} else {
			out.Set(k, child)
		}
	}
	if !required && v == nil && len(out.Keys) == 0 {
		return nil
	}
	return out
}

// applyLines reads a list of plain values of type it, one a line; a line
// that is not one keeps the old list.
func applyLines(it, text, pointer string, v *Value, required bool, problems *[]Problem) *Value {
	out := &Value{Kind: Array, Items: []*Value{}}
	for line := range strings.SplitSeq(text, "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		item, ok := scalar(it, line)
		if !ok {
			*problems = append(*problems, Problem{pointer, fmt.Sprintf("%q is not a whole number", line)})
			return v
		}
		out.Items = append(out.Items, item)
	}
	if !required && v == nil && len(out.Items) == 0 {
		return nil
	}
	return out
}

// applyList reads a list's items back by their places, in the posted
// count: items past the old ones start blank.
func (s *Schema) applyList(items *Value, pointer string, v *Value, required bool, form url.Values, problems *[]Problem) *Value {
	var old []*Value
	if v != nil {
		old = v.Items
	}
	n := len(old)
	if c, err := strconv.Atoi(form.Get("_count" + pointer)); err == nil && c >= 0 && c <= len(old)+maxAdded {
		n = c
	}
	out := &Value{Kind: Array, Items: []*Value{}}
	for i := range n {
		var item *Value
		if i < len(old) {
			item = old[i]
		} else {
			item = s.Blank(items)
		}
		out.Items = append(out.Items, s.apply(items, Pointer(pointer, strconv.Itoa(i)), item, true, form, problems))
	}
	if !required && v == nil && len(out.Items) == 0 {
		return nil
	}
	return out
}

// applyNumber reads a number of type t (integer or number); an empty or
// unreadable one is a Problem and keeps the old value.
func applyNumber(t, text, pointer string, v *Value, required bool, problems *[]Problem) *Value {
	if text == "" && !required {
		return nil
	}
	if text == "" {
		*problems = append(*problems, Problem{pointer, "is empty"})
		return v
	}
	item, ok := scalar(t, text)
	if !ok {
		what := "a whole number, like 12"
		if t == "number" {
			what = "a number, like 2.5"
		}
		*problems = append(*problems, Problem{pointer, fmt.Sprintf("%q is not %s", text, what)})
		return v
	}
	return item
}

// maxAdded is how many items a posted form may add to a list (those added
// by its buttons, photographs uploaded) before it is saved.
const maxAdded = 50

// mapOf is the schema of a map's values (an object of named entries:
// additionalProperties, no properties), nil for other objects.
func mapOf(node *Value) *Value {
	if extra := node.Get("additionalProperties"); extra != nil && extra.Kind == Object {
		return extra
	}
	return nil
}

// applyMap reads a map's entries back by their places: each one's name
// (_key…/i) and value (…/i/value), in the posted count.
func (s *Schema) applyMap(entries *Value, pointer string, old *Value, form url.Values, problems *[]Problem) *Value {
	n := len(old.Keys)
	if c, err := strconv.Atoi(form.Get("_count" + pointer)); err == nil && c >= 0 && c <= n+maxAdded {
		n = c
	}
	out := NewObject()
	for i := range n {
		entry := Pointer(pointer, strconv.Itoa(i))
		var was *Value
		key := ""
		if i < len(old.Keys) {
			key = old.Keys[i]
			was = old.Fields[key]
		}
		if posted, ok := form["_key"+entry]; ok {
			key = strings.TrimSpace(posted[len(posted)-1])
		}
		value := s.apply(entries, entry+"/value", was, true, form, problems)
		switch {
		case key == "":
			*problems = append(*problems, Problem{"_key" + entry, "is empty: a group needs a name"})
			key = fmt.Sprintf("(no name %d)", i+1)
		case out.Get(key) != nil:
			*problems = append(*problems, Problem{"_key" + entry, fmt.Sprintf("%q names another group too", key)})
			key = fmt.Sprintf("%s (%d)", key, i+1)
		}
		if value == nil {
			value = s.Blank(entries)
		}
		out.Set(key, value)
	}
	return out
}

// scalar reads one plain value of type t from text.
func scalar(t, text string) (*Value, bool) {
	switch t {
	case "integer":
		if _, err := strconv.ParseInt(text, 10, 64); err != nil {
			return nil, false
		}
		return &Value{Kind: Number, Number: text}, true
	case "number":
		if _, err := strconv.ParseFloat(text, 64); err != nil || strings.ContainsAny(text, "xXnN_") {
			return nil, false
		}
		return &Value{Kind: Number, Number: text}, true
	}
	return Text(text), true
}

// Blank is a new item of a list: its required texts empty, its required
// groups and lists made, for the studio to fill in.
func (s *Schema) Blank(node *Value) *Value {
	node = s.resolve(node)
	switch typeOf(node) {
	case "object":
		out := NewObject()
		if props := node.Get("properties"); props != nil {
			for _, k := range requiredOf(node) {
				if p := props.Get(k); p != nil {
					if b := s.Blank(p); b != nil {
						out.Set(k, b)
					}
				}
			}
		}
		return out
	case "array":
		return &Value{Kind: Array, Items: []*Value{}}
	case "string", "":
		return Text("")
	}
	return nil // a number or true/false has no blank: the check says it is missing
}

// nodeAt is the schema of the value at pointer, nil when the schema has none.
func (s *Schema) nodeAt(pointer string) *Value {
	node := s.resolve(s.root)
	for _, token := range Tokens(pointer) {
		switch typeOf(node) {
		case "object":
			node = node.Get("properties").Get(token)
		case "array":
			node = node.Get("items")
		default:
			return nil
		}
		if node == nil {
			return nil
		}
		node = s.resolve(node)
	}
	return node
}

// ItemsAt is the schema of the items of the list at pointer.
func (s *Schema) ItemsAt(pointer string) *Value {
	return s.resolve(orEmpty(s.nodeAt(pointer).Get("items")))
}

// Act carries out a list's button on doc, in place: "add:/phones" adds a
// blank item at the end, "remove:/phones/1", "earlier:/phones/1" and
// "later:/phones/1" take out or move one. It says what it did, for the
// page to tell, and false when the action names nothing.
func (s *Schema) Act(doc *Value, action string) (string, bool) {
	verb, pointer, _ := strings.Cut(action, ":")
	if verb == "add" {
		list, node := doc.At(pointer), s.nodeAt(pointer)
		if list != nil && list.Kind == Object && node != nil && mapOf(node) != nil {
			if list.Get("") != nil {
				return "", false // the group added before has no name yet
			}
			list.Set("", s.Blank(mapOf(node)))
			return "A new group was added at the end: name it, then Save.", true
		}
		if list == nil || list.Kind != Array || node == nil || node.Get("items") == nil {
			return "", false
		}
		list.Items = append(list.Items, s.Blank(node.Get("items")))
		return fmt.Sprintf("A new item was added at the end of the list (number %d): fill it in, then Save.", len(list.Items)), true
	}
	tokens := Tokens(pointer)
	if len(tokens) == 0 {
		return "", false
	}
	parent := ""
	for _, t := range tokens[:len(tokens)-1] {
		parent = Pointer(parent, t)
	}
	list := doc.At(parent)
	i, err := strconv.Atoi(tokens[len(tokens)-1])
	if list != nil && list.Kind == Object && err == nil && i >= 0 && i < len(list.Keys) {
		return actOnMap(list, verb, i)
	}
	if list == nil || list.Kind != Array || err != nil || i < 0 || i >= len(list.Items) {
		return "", false
	}
	switch verb {
	case "remove":
		list.Items = slices.Delete(list.Items, i, i+1)
		return fmt.Sprintf("Number %d was removed from the list.", i+1), true
	case "earlier":
		if i == 0 {
			return "", false
		}
		list.Items[i-1], list.Items[i] = list.Items[i], list.Items[i-1]
		return fmt.Sprintf("Number %d moved up to number %d.", i+1, i), true
	case "later":
		if i == len(list.Items)-1 {
			return "", false
		}
		list.Items[i+1], list.Items[i] = list.Items[i], list.Items[i+1]
		return fmt.Sprintf("Number %d moved down to number %d.", i+1, i+2), true
	}
	return "", false
}

// actOnMap takes out or moves a map's entry i.
func actOnMap(m *Value, verb string, i int) (string, bool) {
	key := m.Keys[i]
	switch verb {
	case "remove":
		m.Delete(key)
		return fmt.Sprintf("“%s” was removed.", key), true
	case "earlier", "later":
		j := i - 1
		if verb == "later" {
			j = i + 1
		}
		if j < 0 || j >= len(m.Keys) {
			return "", false
		}
		m.Keys[i], m.Keys[j] = m.Keys[j], m.Keys[i]
		return fmt.Sprintf("“%s” moved to number %d.", key, j+1), true
	}
	return "", false
}

// Changed is the label of each field whose value differs between old and
// new, as "Phone 1 › Display", in the form's order: what a commit message
// says was changed.
func (s *Schema) Changed(old, new *Value, pointer string) []string {
	var labels []string
	var walk func(f *Field, path []string)
	walk = func(f *Field, path []string) {
		if f.Name != pointer {
			path = append(path, f.Label)
		}
		switch f.Kind {
		case "group":
			if old.At(f.Name) == nil && f.Name != pointer {
				labels = append(labels, strings.Join(path, " › ")+" (added)")
				return
			}
		case "map":
			if !Equal(old.At(f.Name), new.At(f.Name)) || !slices.Equal(old.At(f.Name).keysOf(), new.At(f.Name).keysOf()) {
				labels = append(labels, strings.Join(path, " › "))
			}
			return
		case "list", "photos":
			was, now := old.At(f.Name), new.At(f.Name)
			if was != nil && len(was.Items) != len(f.Fields) || was == nil && len(f.Fields) > 0 {
				n := 0
				if was != nil {
					n = len(was.Items)
				}
				labels = append(labels, countChange(strings.Join(path, " › "), strings.ToLower(f.Item), n, len(f.Fields)))
				return
			}
			if was != nil && !Equal(was, now) && reordered(was.Items, now.Items) {
				labels = append(labels, strings.Join(path, " › ")+" (new order)")
				return
			}
			// An item's label ("Phone 2") names its list already.
			path = path[:max(len(path)-1, 0)]
		default:
			if !Equal(old.At(f.Name), new.At(f.Name)) {
				labels = append(labels, strings.Join(path, " › "))
			}
			return
		}
		for _, child := range f.Fields {
			walk(child, path)
		}
	}
	walk(s.Form(new, pointer), nil)
	return labels
}

// countChange says a list's new length: "2 photographs added".
func countChange(list, item string, was, now int) string {
	n, what := now-was, "added"
	if n < 0 {
		n, what = -n, "removed"
	}
	if n != 1 {
		item += "s"
	}
	if list == "" || strings.EqualFold(list, item) || strings.EqualFold(list, item+"s") {
		return fmt.Sprintf("%d %s %s", n, item, what)
	}
	return fmt.Sprintf("%s: %d %s %s", list, n, item, what)
}

// reordered says b holds a's items, each once, in another order.
func reordered(a, b []*Value) bool {
	used := make([]bool, len(b))
	for _, item := range a {
		found := false
		for j, other := range b {
			if !used[j] && Equal(item, other) {
				used[j], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// Attach puts each line of the content check ("content/site.json:
// phones[0].tel: "12" is not …") beside the field it names, and returns
// the lines that name no field of file's form.
func Attach(form *Field, file string, doc *Value, lines []string) []string {
	var rest []string
	for _, line := range lines {
		if path, problem, ok := Locate(form, file, doc, line); ok {
			f := path[len(path)-1]
			f.Problems = append(f.Problems, problem)
		} else {
			rest = append(rest, line)
		}
	}
	return rest
}

// Locate finds the field of form (a form of file) that a line of the
// content check names: path is the fields it is in, from one of form's
// own down to it, and problem what the line says of it. ok is false when
// the line names no field of form.
func Locate(form *Field, file string, doc *Value, line string) (path []*Field, problem string, ok bool) {
	text, ok := strings.CutPrefix(line, "content/"+file+": ")
	if !ok {
		return nil, "", false
	}
	var paths [][]*Field
	var walk func(f *Field, above []*Field)
	walk = func(f *Field, above []*Field) {
		if f.Name != "" {
			above = append(above[:len(above):len(above)], f)
			paths = append(paths, above)
		}
		for _, c := range f.Fields {
			walk(c, above)
		}
	}
	walk(form, nil)
	// The most specific field first: "phones[0].tel" before "phones[0]".
	slices.SortStableFunc(paths, func(a, b []*Field) int { return len(b[len(b)-1].Name) - len(a[len(a)-1].Name) })
	for _, p := range paths {
		for _, said := range checkPaths(file, p[len(p)-1].Name, doc) {
			if problem, found := strings.CutPrefix(text, said+": "); found {
				return p, problem, true
			}
		}
	}
	return nil, "", false
}

// checkPaths is how the content check names the field at pointer
// (web/scripts/content-rules.ts, schemaProblem, and the rules' own lines):
// "phones[0].tel", "product 3 (Chair): images[0].alt", "options \"email-us\": answer".
func checkPaths(file, pointer string, doc *Value) []string {
	tokens := Tokens(pointer)
	var parts []string
	node := doc
	named := false // the first part names an item by its id: "product 3 (Chair)"
	for i, t := range tokens {
		next := node.At(Pointer("", t))
		_, numErr := strconv.Atoi(t)
		switch {
		case numErr == nil && i == 1 && file == "catalogue.json" && tokens[0] == "products":
			id, name := "#"+strconv.Itoa(mustAtoi(t)+1), "no name"
			if v := next.Get("id"); v != nil && v.Kind == Number {
				id = v.Number
			}
			if v := next.Get("name"); v != nil && v.Kind == String {
				name = v.String
			}
			parts[len(parts)-1] = fmt.Sprintf("product %s (%s)", id, name)
			named = true
		case numErr == nil && i == 1 && file == "chat.json" && next.Get("id") != nil && next.Get("id").Kind == String:
			parts[len(parts)-1] = fmt.Sprintf("%s %q", tokens[0], next.Get("id").String)
			named = true
		case numErr == nil && len(parts) > 0:
			parts[len(parts)-1] += "[" + t + "]"
		default:
			parts = append(parts, t)
		}
		node = next
	}
	if !named || len(parts) == 1 {
		return []string{strings.Join(parts, ".")}
	}
	// The schema's lines join the item and its field with "." after a
	// product's ")" ("product 3 (Chair): name") and the rules with ": ".
	head, tail := parts[0], strings.Join(parts[1:], ".")
	return []string{head + ": " + tail, head + "." + tail}
}

func mustAtoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
