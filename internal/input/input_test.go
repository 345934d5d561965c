package input

import (
	"encoding/json"
	"net/url"
	"reflect"
	"testing"
)

func TestStorable(t *testing.T) {
	for s, want := range map[string]bool{"": true, "Asha": true, "नमस्ते": true, "a\x00b": false, "\xff": false, "a\u0000": false} {
		if got := Storable(s); got != want {
			t.Errorf("Storable(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestFields(t *testing.T) {
	type item struct {
		Note string `json:"note"`
	}
	type body struct {
		Name   string                     `json:"name"`
		Phone  *string                    `json:"phone"`
		Items  []item                     `json:"items"`
		Params map[string]json.RawMessage `json:"params"`
	}
	phone := "98\x00"
	v := body{Name: "Asha", Phone: &phone, Items: []item{{"fine"}, {"bad\x00"}},
		Params: map[string]json.RawMessage{"q": json.RawMessage(`"x\u0000"`), "n": json.RawMessage(`3`), "list": json.RawMessage(`[{"id":"\u0000"}]`)}}
	got := Fields(&v)
	want := map[string]string{"phone": Problem, "items[1].note": Problem, "params.q": Problem, "params.list[0].id": Problem}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Fields = %v, want %v", got, want)
	}
	if got := Fields(&body{Name: "Asha"}); len(got) != 0 {
		t.Errorf("clean body: %v", got)
	}
}

func TestForm(t *testing.T) {
	got := Form(url.Values{"name": {"Asha"}, "message": {"hi", "there\x00"}, "q": {"x"}, "\x00k": {"y"}, "email": {"\xfe"}})
	want := map[string]string{"message": Problem, "\uFFFDk": Problem, "email": Problem}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Form = %v, want %v", got, want)
	}
}

func TestShown(t *testing.T) {
	if got := Shown("a\x00b\xffc"); got != "a\uFFFDb\uFFFDc" || !Storable(got) {
		t.Errorf("Shown = %q", got)
	}
}
