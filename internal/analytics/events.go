// Package analytics is the one list of the analytics events the site sends
// and the server takes (contracts/analytics-events.json): their names, their parameters and
// the limits of a batch. The server's POST /api/events (internal/server)
// refuses a name not listed and applies the limits; the site's typecheck
// derives track()'s types from the same file (web/scripts/analytics-events.mjs).
package analytics

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"studio/contracts"
)

var eventsJSON = contracts.AnalyticsEvents

// Limits are the limits of POST /api/events.
type Limits struct {
	// EventsPerBatch is the most events in one request.
	EventsPerBatch int `json:"eventsPerBatch"`
	// TextChars is the most characters of a text parameter, and of an event's path.
	TextChars int `json:"textChars"`
	// ParamsBytes is the most bytes of one event's parameters (names and JSON values).
	ParamsBytes int `json:"paramsBytes"`
	// BatchIDChars is the shortest and longest id of a batch.
	BatchIDChars struct {
		Min int `json:"min"`
		Max int `json:"max"`
	} `json:"batchIdChars"`
	// BatchesPerMinute is the most batches taken from one address a minute.
	BatchesPerMinute int `json:"batchesPerMinute"`
}

// Param is one parameter of an event.
type Param struct {
	Name string
	// Types are what it may be: "text", "number", "boolean", "texts" or "items".
	Types []string
	// Values are the texts it may be, when the list names them (Types is then "text").
	Values []string
}

// Event is one event of the list.
type Event struct {
	Name   string
	About  string
	Params []Param
}

// List is contracts/analytics-events.json.
type List struct {
	Limits Limits
	// Item is the fields of one of GA4's items (a parameter "items" is a list of them).
	Item []Param
	// Events are in the list's order.
	Events []Event
	byName map[string]*Event
}

// Events is the list every part of the server reads, checked when the
// program starts.
var Events = mustList(eventsJSON)

// Known says whether the site sends the event name.
func Known(name string) bool {
	_, ok := Events.byName[name]
	return ok
}

// Lookup is the listed event of that name.
func Lookup(name string) (Event, bool) {
	e, ok := Events.byName[name]
	if !ok {
		return Event{}, false
	}
	return *e, true
}

// Names are the events' names, in the list's order.
func Names() []string {
	names := make([]string, len(Events.Events))
	for i, e := range Events.Events {
		names[i] = e.Name
	}
	return names
}

// Name is name when the list has it, and panics otherwise: for code that
// reads events by name (the insights), so a name the list lost stops the
// program at start-up rather than counting nothing.
func Name(name string) string {
	if !Known(name) {
		panic(fmt.Sprintf("analytics: %q is not in contracts/analytics-events.json", name))
	}
	return name
}

// Param is the event's parameter of that name.
func (e Event) Param(name string) (Param, bool) {
	i := slices.IndexFunc(e.Params, func(p Param) bool { return p.Name == name })
	if i < 0 {
		return Param{}, false
	}
	return e.Params[i], true
}

var (
	namePattern = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	types       = []string{"text", "number", "boolean", "texts", "items"}
)

func mustList(b []byte) List {
	l, err := parse(b)
	if err != nil {
		panic("analytics: contracts/analytics-events.json: " + err.Error())
	}
	return l
}

// parse reads and checks a list: names of lower-case letters, digits and
// _, each once; known types; limits that make sense.
func parse(b []byte) (List, error) {
	var raw struct {
		Limits json.RawMessage   `json:"limits"`
		Item   json.RawMessage   `json:"item"`
		Events []json.RawMessage `json:"events"`
	}
	if err := strict(b, &raw); err != nil {
		return List{}, err
	}
	var lim Limits
	if err := strict(raw.Limits, &lim); err != nil {
		return List{}, fmt.Errorf("limits: %w", err)
	}
	l := List{Limits: lim, byName: map[string]*Event{}}
	if lim.EventsPerBatch < 1 || lim.TextChars < 1 || lim.ParamsBytes < 1 || lim.BatchesPerMinute < 1 ||
		lim.BatchIDChars.Min < 1 || lim.BatchIDChars.Max < lim.BatchIDChars.Min {
		return List{}, fmt.Errorf("limits: every limit above 0 and batchIdChars.min at most its max: %+v", lim)
	}
	var err error
	if l.Item, err = params("item", raw.Item, lim); err != nil {
		return List{}, err
	}
	if len(raw.Events) == 0 {
		return List{}, fmt.Errorf("no events")
	}
	l.Events = make([]Event, len(raw.Events))
	for i, rawEvent := range raw.Events {
		var e struct {
			Name   string          `json:"name"`
			About  string          `json:"about"`
			Params json.RawMessage `json:"params"`
		}
		if err := strict(rawEvent, &e); err != nil {
			return List{}, fmt.Errorf("events[%d]: %w", i, err)
		}
		if !namePattern.MatchString(e.Name) {
			return List{}, fmt.Errorf("events[%d]: the name %q is not lower-case letters, digits and _", i, e.Name)
		}
		if _, twice := l.byName[e.Name]; twice {
			return List{}, fmt.Errorf("events[%d]: %q is listed twice", i, e.Name)
		}
		if strings.TrimSpace(e.About) == "" {
			return List{}, fmt.Errorf("%s: say what it is in \"about\"", e.Name)
		}
		ps, err := params(e.Name, e.Params, lim)
		if err != nil {
			return List{}, err
		}
		l.Events[i] = Event{Name: e.Name, About: e.About, Params: ps}
		l.byName[e.Name] = &l.Events[i]
	}
	return l, nil
}

// strict decodes b into v, refusing a field v does not have but for
// comments (a name starting with _).
func strict(b []byte, v any) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return err
	}
	for name := range fields {
		if strings.HasPrefix(name, "_") {
			delete(fields, name)
		}
	}
	clean, _ := json.Marshal(fields)
	d := json.NewDecoder(bytes.NewReader(clean))
	d.DisallowUnknownFields()
	return d.Decode(v)
}

// params reads an object of parameters in its order, each a type name
// ("text", "text|texts"), or a list of the texts it may be.
func params(where string, raw json.RawMessage, lim Limits) ([]Param, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("%s: the parameters are not an object", where)
	}
	var ps []Param
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		name := t.(string)
		var spec json.RawMessage
		if err := d.Decode(&spec); err != nil {
			return nil, fmt.Errorf("%s.%s: %w", where, name, err)
		}
		if !namePattern.MatchString(name) {
			return nil, fmt.Errorf("%s: the parameter %q is not lower-case letters, digits and _", where, name)
		}
		if slices.ContainsFunc(ps, func(p Param) bool { return p.Name == name }) {
			return nil, fmt.Errorf("%s.%s is listed twice", where, name)
		}
		p := Param{Name: name}
		var typeNames string
		if json.Unmarshal(spec, &typeNames) == nil {
			p.Types = strings.Split(typeNames, "|")
			for _, t := range p.Types {
				if !slices.Contains(types, t) {
					return nil, fmt.Errorf("%s.%s: no type %q (%s)", where, name, t, strings.Join(types, ", "))
				}
			}
		} else if json.Unmarshal(spec, &p.Values) == nil && len(p.Values) > 0 {
			p.Types = []string{"text"}
			for _, v := range p.Values {
				if v == "" || utf8.RuneCountInString(v) > lim.TextChars {
					return nil, fmt.Errorf("%s.%s: the value %q is empty or over %d characters", where, name, v, lim.TextChars)
				}
			}
		} else {
			return nil, fmt.Errorf("%s.%s: a type name or a list of texts, not %s", where, name, spec)
		}
		ps = append(ps, p)
	}
	return ps, nil
}
