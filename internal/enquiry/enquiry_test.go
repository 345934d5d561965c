package enquiry

import (
	"errors"
	"strings"
	"testing"
	"time"

	"studio/internal/catalogue"
)

type fakeProducts map[int]catalogue.Product

func (f fakeProducts) Product(id int) (catalogue.Product, bool) { p, ok := f[id]; return p, ok }

var products = fakeProducts{1: {ID: 1, Name: "Marwar chair", Material: []string{"Wood", "Metal"}, Finish: []string{"Walnut", "Charcoal"}}}

func intp(i int) *int   { return &i }
func ms(i int64) *int64 { return &i }
func valid() Input {
	return Input{Kind: "contact", Name: "Asha Rao", Email: "asha@example.com", Message: "Hello", FillMS: ms(5000)}
}

func TestCheck(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	// The field rules (name, e-mail, phone, message) are the table of
	// testdata/parity.json (parity_test.go); these are the server's own.
	tests := []struct {
		name   string
		edit   func(*Input)
		fields map[string]string // field → part of the message; nil: valid
	}{
		{"valid contact", func(*Input) {}, nil},
		{"valid quote", func(in *Input) {
			in.Kind = "quote"
			in.ProductID = intp(1)
			in.Material = "Metal"
			in.Finish = "Walnut"
			in.Message = ""
		}, nil},
		{"valid customize without product", func(in *Input) { in.Kind = "customize" }, nil},
		{"unknown kind", func(in *Input) { in.Kind = "order" }, map[string]string{"kind": "contact, quote or customize"}},
		{"message optional for a quote", func(in *Input) { in.Kind = "quote"; in.ProductID = intp(1); in.Message = "" }, nil},
		{"unknown product", func(in *Input) { in.ProductID = intp(99) }, map[string]string{"productId": "no such product"}},
		{"quote without product", func(in *Input) { in.Kind = "quote" }, map[string]string{"productId": "which"}},
		{"material not the product's", func(in *Input) { in.ProductID = intp(1); in.Material = "Stone" }, map[string]string{"material": "Stone"}},
		{"finish not the product's", func(in *Input) { in.ProductID = intp(1); in.Finish = "Oak" }, map[string]string{"finish": "Oak"}},
		{"material without product", func(in *Input) { in.Material = "Wood"; in.Finish = "Walnut" }, map[string]string{"material": "product", "finish": "product"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := valid()
			tt.edit(&in)
			e, err := Check(in, products, now)
			if tt.fields == nil {
				if err != nil {
					t.Fatalf("Check: %v", err)
				}
				if !e.CreatedAt.Equal(now) || string(e.Kind) != in.Kind {
					t.Errorf("enquiry = %+v", e)
				}
				return
			}
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("err = %v, want a *ValidationError", err)
			}
			if len(ve.Fields) != len(tt.fields) {
				t.Errorf("fields = %v, want exactly %v", ve.Fields, tt.fields)
			}
			for f, want := range tt.fields {
				if !strings.Contains(ve.Fields[f], want) {
					t.Errorf("fields[%q] = %q, want it to mention %q", f, ve.Fields[f], want)
				}
			}
		})
	}
}

func TestCheckStripsControlCharacters(t *testing.T) {
	in := valid()
	in.Name = " Asha\r\nBcc: x@evil.test\x00 "
	in.Email = "asha@example.com\r\n"
	in.Phone = "\t+91 1234"
	in.Message = "line one\r\nline two\x07\n\tindented"
	e, err := Check(in, products, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if e.Name != "AshaBcc: x@evil.test" || e.Email != "asha@example.com" || e.Phone != "+91 1234" {
		t.Errorf("single-line fields kept control characters: %q %q %q", e.Name, e.Email, e.Phone)
	}
	if e.Message != "line one\nline two\n\tindented" {
		t.Errorf("message = %q", e.Message)
	}
}

// Bidi controls and zero-width spaces, which make a name or message read
// other than it is, are removed; the joiners Indian scripts spell with stay.
func TestCheckRemovesHiddenCharacters(t *testing.T) {
	in := valid()
	in.Name = "Asha\u202Egnp.exe\u202C Rao\u200B"
	in.Message = "Pay \u2066here\u2069\uFEFF now"
	e, err := Check(in, products, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if e.Name != "Ashagnp.exe Rao" || e.Message != "Pay here now" {
		t.Errorf("name %q, message %q: hidden characters kept", e.Name, e.Message)
	}
	in.Name = "\u0915\u094D\u200D\u0937" // क्‍ष, spelt with a zero-width joiner
	if e, err := Check(in, products, time.Now()); err != nil || e.Name != in.Name {
		t.Errorf("name %q (%v): the joiner was removed", e.Name, err)
	}
}

func TestSpam(t *testing.T) {
	tests := []struct {
		name     string
		honeypot string
		fill     *int64
		want     bool
	}{
		{"person", "", ms(8000), false},
		{"honeypot filled", "http://spam.test", ms(8000), true},
		{"too fast", "", ms(400), true},
		{"exactly the minimum", "", ms(MinFillTime.Milliseconds()), false},
		{"no fill time", "", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := valid()
			in.Website, in.FillMS = tt.honeypot, tt.fill
			e, err := Check(in, products, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			if e.Spam != tt.want {
				t.Errorf("spam = %v, want %v", e.Spam, tt.want)
			}
		})
	}
}

func TestCheckEmail(t *testing.T) {
	if got, err := CheckEmail("  Asha@Example.com "); err != nil || got != "Asha@Example.com" {
		t.Errorf("CheckEmail = %q, %v", got, err)
	}
	if EmailKey("Asha@Example.com") != EmailKey("asha@example.COM") {
		t.Error("keys differ by case")
	}
	for _, bad := range []string{"", "nope", "a@b", strings.Repeat("a", 255) + "@x.in"} {
		var ve *ValidationError
		if _, err := CheckEmail(bad); !errors.As(err, &ve) || ve.Fields["email"] == "" {
			t.Errorf("CheckEmail(%q) = %v, want an email problem", bad, err)
		}
	}
}
