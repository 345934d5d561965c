package enquiry

import (
	"encoding/json"
	"errors"
	"maps"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"studio/contracts/cases"
)

// The table of contracts/cases/enquiry-parity.json, which web/app/lib/enquiries.test.ts
// feeds to the site's forms' check: both judge every case alike.
type parityTable struct {
	Valid map[string]string `json:"valid"`
	Cases []struct {
		Case     string                     `json:"case"`
		Edit     map[string]json.RawMessage `json:"edit"` // a text, or a paritySpan
		Problems map[string]string          `json:"problems"`
	} `json:"cases"`
}

// paritySpan is a long value: fill repeated to length characters (a
// field's limit, plus one with "+1"), ending in end.
type paritySpan struct {
	Fill, Length, End string
}

func (s paritySpan) text(t *testing.T) string {
	field, plusOne := strings.CutSuffix(s.Length, "+1")
	n, ok := limitOf(field)
	if !ok {
		t.Fatalf("parity.json: length %q names no limit", s.Length)
	}
	if plusOne {
		n++
	}
	return strings.Repeat(s.Fill, n-utf8.RuneCountInString(s.End)) + s.End
}

func TestParityTable(t *testing.T) {
	b, err := cases.Files.ReadFile("enquiry-parity.json")
	if err != nil {
		t.Fatal(err)
	}
	var table parityTable
	if err := json.Unmarshal(b, &table); err != nil {
		t.Fatal(err)
	}
	for _, c := range table.Cases {
		t.Run(c.Case, func(t *testing.T) {
			values := maps.Clone(table.Valid)
			for field, raw := range c.Edit {
				var text string
				var span paritySpan
				switch {
				case json.Unmarshal(raw, &text) == nil:
					values[field] = text
				case json.Unmarshal(raw, &span) == nil:
					values[field] = span.text(t)
				default:
					t.Fatalf("edit %s: %s is neither a text nor a span", field, raw)
				}
			}
			in := Input{Kind: values["kind"], Name: values["name"], Email: values["email"], Phone: values["phone"], Message: values["message"]}
			_, err := Check(in, fakeProducts{}, time.Now())
			got := map[string]string{}
			var ve *ValidationError
			if errors.As(err, &ve) {
				got = ve.Fields
			} else if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{}
			for field, key := range c.Problems {
				limit, _ := limitOf(field)
				want[field] = Rules.Message(key, limit)
			}
			if !maps.Equal(got, want) {
				t.Errorf("problems = %v, want %v", got, want)
			}
		})
	}
}

func limitOf(field string) (int, bool) {
	n, ok := map[string]int{"name": Rules.Limits.Name, "email": Rules.Limits.Email, "phone": Rules.Limits.Phone, "message": Rules.Limits.Message}[field]
	return n, ok
}
