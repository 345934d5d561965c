// Package contentform is the workspace's content editor without the web
// pages: a content file read as a JSON document that keeps its keys in
// their order, the form its schema (content/schema/*.json) makes of it, and
// the document a posted form makes, so a field added to a schema appears in
// the editor with no code.
package contentform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// A Value is one JSON value whose objects keep their keys in the order the
// file wrote them (Go's maps would sort them: every save would reorder the
// studio's files).
type Value struct {
	Kind   Kind
	Bool   bool
	Number string // as written: 12, 2.5
	String string
	Items  []*Value // an array's
	Keys   []string // an object's, in order
	Fields map[string]*Value
}

// Kind is a JSON value's type.
type Kind int

const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// Parse reads one JSON document.
func Parse(b []byte) (*Value, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("contentform: text after the JSON document")
	}
	return v, nil
}

func parseValue(dec *json.Decoder) (*Value, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return &Value{Kind: Null}, nil
	case bool:
		return &Value{Kind: Bool, Bool: t}, nil
	case json.Number:
		return &Value{Kind: Number, Number: t.String()}, nil
	case string:
		return &Value{Kind: String, String: t}, nil
	case json.Delim:
		if t == '[' {
			v := &Value{Kind: Array, Items: []*Value{}}
			for dec.More() {
				item, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				v.Items = append(v.Items, item)
			}
			_, err := dec.Token()
			return v, err
		}
		v := NewObject()
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return nil, err
			}
			item, err := parseValue(dec)
			if err != nil {
				return nil, err
			}
			v.Set(key.(string), item)
		}
		_, err := dec.Token()
		return v, err
	}
	return nil, fmt.Errorf("contentform: unexpected %v", tok)
}

// NewObject is an empty object.
func NewObject() *Value { return &Value{Kind: Object, Fields: map[string]*Value{}} }

// Text is a string value.
func Text(s string) *Value { return &Value{Kind: String, String: s} }

// Get is an object's field, nil when it has none.
func (v *Value) Get(key string) *Value {
	if v == nil || v.Kind != Object {
		return nil
	}
	return v.Fields[key]
}

// List is an array's items; none for anything else (or nil).
func (v *Value) List() []*Value {
	if v == nil || v.Kind != Array {
		return nil
	}
	return v.Items
}

// Text is a string's or a number's text; "" for anything else (or nil).
func (v *Value) Text() string {
	switch {
	case v == nil:
		return ""
	case v.Kind == String:
		return v.String
	case v.Kind == Number:
		return v.Number
	}
	return ""
}

func (v *Value) keysOf() []string {
	if v == nil {
		return nil
	}
	return v.Keys
}

// Set writes an object's field, a new key going last.
func (v *Value) Set(key string, item *Value) {
	if _, ok := v.Fields[key]; !ok {
		v.Keys = append(v.Keys, key)
	}
	v.Fields[key] = item
}

// Delete removes an object's field.
func (v *Value) Delete(key string) {
	if _, ok := v.Fields[key]; !ok {
		return
	}
	delete(v.Fields, key)
	for i, k := range v.Keys {
		if k == key {
			v.Keys = append(v.Keys[:i], v.Keys[i+1:]...)
			break
		}
	}
}

// Clone is a deep copy.
func (v *Value) Clone() *Value {
	if v == nil {
		return nil
	}
	c := *v
	if v.Items != nil {
		c.Items = make([]*Value, len(v.Items))
		for i, item := range v.Items {
			c.Items[i] = item.Clone()
		}
	}
	if v.Fields != nil {
		c.Keys = append([]string(nil), v.Keys...)
		c.Fields = make(map[string]*Value, len(v.Fields))
		for k, item := range v.Fields {
			c.Fields[k] = item.Clone()
		}
	}
	return &c
}

// Equal says whether two values are the same JSON (an object's key order
// aside).
func Equal(a, b *Value) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Bool:
		return a.Bool == b.Bool
	case Number:
		return a.Number == b.Number
	case String:
		return a.String == b.String
	case Array:
		if len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !Equal(a.Items[i], b.Items[i]) {
				return false
			}
		}
	case Object:
		if len(a.Fields) != len(b.Fields) {
			return false
		}
		for k, item := range a.Fields {
			if !Equal(item, b.Fields[k]) {
				return false
			}
		}
	}
	return true
}

// At is the value at a JSON pointer ("/phones/0/tel"), nil when there is none.
func (v *Value) At(pointer string) *Value {
	for _, token := range Tokens(pointer) {
		switch {
		case v == nil:
			return nil
		case v.Kind == Object:
			v = v.Fields[token]
		case v.Kind == Array:
			i, err := strconv.Atoi(token)
			if err != nil || i < 0 || i >= len(v.Items) {
				return nil
			}
			v = v.Items[i]
		default:
			return nil
		}
	}
	return v
}

// Replace writes v at pointer, whose parent must exist; a nil v takes the
// value out.
func (doc *Value) Replace(pointer string, v *Value) {
	tokens := Tokens(pointer)
	if len(tokens) == 0 {
		return
	}
	parent := ""
	for _, t := range tokens[:len(tokens)-1] {
		parent = Pointer(parent, t)
	}
	p, last := doc.At(parent), tokens[len(tokens)-1]
	switch {
	case p == nil:
	case p.Kind == Object && v == nil:
		p.Delete(last)
	case p.Kind == Object:
		p.Set(last, v)
	case p.Kind == Array:
		if i, err := strconv.Atoi(last); err == nil && i >= 0 && i < len(p.Items) && v != nil {
			p.Items[i] = v
		}
	}
}

// Tokens splits a JSON pointer into its keys and indexes.
func Tokens(pointer string) []string {
	if pointer == "" {
		return nil
	}
	tokens := strings.Split(strings.TrimPrefix(pointer, "/"), "/")
	for i, t := range tokens {
		tokens[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return tokens
}

// Pointer joins a JSON pointer and one more key or index.
func Pointer(parent, token string) string {
	return parent + "/" + strings.ReplaceAll(strings.ReplaceAll(token, "~", "~0"), "/", "~1")
}

// inlineWidth is the longest line an object inside a list is written on
// (the files' own style: a photograph's src and alt on one line).
const inlineWidth = 160

// Encode writes the document as the content files are written: two
// spaces, a list of plain values on one line, an object of plain values
// inside a list on one line when it fits, and a final newline.
func (v *Value) Encode() []byte {
	var b bytes.Buffer
	v.encode(&b, "", false)
	b.WriteByte('\n')
	return b.Bytes()
}

func (v *Value) encode(b *bytes.Buffer, indent string, inList bool) {
	switch v.Kind {
	case Null:
		b.WriteString("null")
	case Bool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case Number:
		b.WriteString(v.Number)
	case String:
		b.WriteString(quote(v.String))
	case Array:
		if len(v.Items) == 0 {
			b.WriteString("[]")
			return
		}
		if v.plain() {
			b.WriteByte('[')
			for i, item := range v.Items {
				if i > 0 {
					b.WriteString(", ")
				}
				item.encode(b, "", false)
			}
			b.WriteByte(']')
			return
		}
		b.WriteString("[\n")
		for i, item := range v.Items {
			b.WriteString(indent + "  ")
			item.encode(b, indent+"  ", true)
			if i < len(v.Items)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	case Object:
		if len(v.Keys) == 0 {
			b.WriteString("{}")
			return
		}
		if inList && v.plain() {
			var line bytes.Buffer
			line.WriteString("{ ")
			for i, k := range v.Keys {
				if i > 0 {
					line.WriteString(", ")
				}
				line.WriteString(quote(k) + ": ")
				v.Fields[k].encode(&line, "", false)
			}
			line.WriteString(" }")
			if len(indent)+line.Len() <= inlineWidth {
				b.Write(line.Bytes())
				return
			}
		}
		b.WriteString("{\n")
		for i, k := range v.Keys {
			b.WriteString(indent + "  " + quote(k) + ": ")
			v.Fields[k].encode(b, indent+"  ", false)
			if i < len(v.Keys)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	}
}

// plain says a list's or object's values are all strings, numbers, true,
// false or null.
func (v *Value) plain() bool {
	for _, item := range v.Items {
		if item.Kind == Array || item.Kind == Object {
			return false
		}
	}
	for _, item := range v.Fields {
		if item.Kind == Array || item.Kind == Object {
			return false
		}
	}
	return true
}

// quote writes a JSON string as a person would: é and — as themselves, not
// \u escapes.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
