// Package input holds the one rule for text the server takes from outside
// (JSON bodies, form values, query strings, headers used as names): text
// a database cannot store is the sender's mistake, found at the edge, and
// never reaches the database. PostgreSQL refuses a NUL character and bytes
// that are not UTF-8 in text; SQLite would cut the text at the NUL.
package input

import (
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"unicode/utf8"
)

// Problem is what a field holding such text is told.
const Problem = "This has a character that cannot be kept (a NUL, or bytes that are not UTF-8 text)."

// Storable reports whether s can be stored as text by both databases.
func Storable(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

// Fields walks a decoded JSON value (structs by their json names, slices,
// maps, and json.RawMessage decoded on the spot) and names each string in
// it that is not Storable: {"items[1].note": Problem}. Map keys count too.
func Fields(v any) map[string]string {
	problems := map[string]string{}
	walk(reflect.ValueOf(v), "", problems)
	return problems
}

var rawMessage = reflect.TypeFor[json.RawMessage]()

func walk(v reflect.Value, path string, problems map[string]string) {
	switch {
	case !v.IsValid():
		return
	case v.Type() == rawMessage:
		var decoded any
		if json.Unmarshal(v.Bytes(), &decoded) == nil {
			walk(reflect.ValueOf(decoded), path, problems)
		}
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		walk(v.Elem(), path, problems)
	case reflect.String:
		if !Storable(v.String()) {
			problems[path] = Problem
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			if !t.Field(i).IsExported() {
				continue
			}
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			if name == "" {
				name = t.Field(i).Name
			}
			walk(v.Field(i), join(path, name), problems)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i), problems)
		}
	case reflect.Map:
		for _, key := range v.MapKeys() {
			name := fmt.Sprint(key.Interface())
			if !Storable(name) {
				problems[join(path, Shown(name))] = Problem
				continue
			}
			walk(v.MapIndex(key), join(path, name), problems)
		}
	}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// Form names each form or query field whose name or any value is not
// Storable.
func Form(values url.Values) map[string]string {
	problems := map[string]string{}
	for key, list := range values {
		for _, value := range list {
			if !Storable(key) || !Storable(value) {
				problems[Shown(key)] = Problem
			}
		}
	}
	return problems
}

// Shown is s as it can be shown back to its sender: what Storable refuses
// replaced by U+FFFD, so the page says where the bad character was.
func Shown(s string) string {
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\uFFFD")
}
