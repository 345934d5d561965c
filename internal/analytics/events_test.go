package analytics

import (
	"strings"
	"testing"
)

func TestTheListIsRead(t *testing.T) {
	if len(Events.Events) < 20 || !Known("page_view") || Known("purchase") || Known("") {
		t.Fatalf("read %d events: %v", len(Events.Events), Names())
	}
	quote, ok := Lookup("quote_request")
	options, listed := quote.Param("options")
	if !ok || !listed || strings.Join(options.Types, "|") != "text|texts" {
		t.Errorf("quote_request's options: %+v", options)
	}
	filter, _ := Lookup("filter_usage")
	if action, _ := filter.Param("action"); strings.Join(action.Values, ",") != "add,remove" || action.Types[0] != "text" {
		t.Errorf("filter_usage's action: %+v", action)
	}
	if Names()[0] != "page_view" || len(Events.Item) == 0 || Events.Item[0].Name != "item_id" {
		t.Errorf("the list's order: %v; an item's fields: %+v", Names(), Events.Item)
	}
}

func TestNamePanicsOnANameNotListed(t *testing.T) {
	if Name("search") != "search" {
		t.Error("a listed name is itself")
	}
	defer func() {
		if recover() == nil {
			t.Error("no panic for a name not listed")
		}
	}()
	Name("purchase")
}

// What a list must not be, each refused with where the problem is.
func TestAWrongListIsRefused(t *testing.T) {
	limits := `"limits": {"eventsPerBatch": 50, "textChars": 200, "paramsBytes": 2048, "batchIdChars": {"min": 16, "max": 64}, "batchesPerMinute": 60}`
	item := `"item": {"item_id": "text"}`
	list := func(events string) string {
		return `{"_comment": "x", ` + limits + `, ` + item + `, "events": [` + events + `]}`
	}
	if _, err := parse([]byte(list(`{"name": "a", "about": "A.", "params": {"b": "text|texts", "c": ["x", "y"]}}`))); err != nil {
		t.Fatalf("a good list: %v", err)
	}
	for _, tt := range []struct{ name, list, want string }{
		{"a name twice", list(`{"name": "a", "about": "A."}, {"name": "a", "about": "A."}`), `"a" is listed twice`},
		{"a name in capitals", list(`{"name": "Search", "about": "A."}`), `"Search"`},
		{"no about", list(`{"name": "a"}`), `a: say what it is`},
		{"an unknown type", list(`{"name": "a", "about": "A.", "params": {"b": "string"}}`), `a.b: no type "string"`},
		{"a parameter twice", list(`{"name": "a", "about": "A.", "params": {"b": "text", "b": "number"}}`), `a.b is listed twice`},
		{"an empty value", list(`{"name": "a", "about": "A.", "params": {"b": [""]}}`), `a.b: the value ""`},
		{"a spec that is neither", list(`{"name": "a", "about": "A.", "params": {"b": 3}}`), `a.b: a type name or a list of texts`},
		{"a misspelt field", list(`{"name": "a", "about": "A.", "parms": {}}`), `events[0]: json: unknown field "parms"`},
		{"no events", list(``), `no events`},
		{"a limit of 0", strings.Replace(list(`{"name": "a", "about": "A."}`), `"textChars": 200`, `"textChars": 0`, 1), `limits: every limit`},
		{"an unknown limit", strings.Replace(list(`{"name": "a", "about": "A."}`), `"textChars": 200`, `"textChar": 200`, 1), `limits: json: unknown field "textChar"`},
	} {
		if _, err := parse([]byte(tt.list)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v; want an error with %s", tt.name, err, tt.want)
		}
	}
}
