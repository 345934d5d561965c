package enquiry

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"studio/contracts/cases"
	"studio/internal/sitecontent"
)

type fakeProducts map[int]sitecontent.Product

func (f fakeProducts) Product(id int) (sitecontent.Product, bool) { p, ok := f[id]; return p, ok }

var products = fakeProducts{1: {ID: 1, Name: "Marwar chair", Material: []string{"Wood", "Metal"}, Finish: []string{"Walnut", "Charcoal"}}}

func intp(i int) *int   { return &i }
func ms(i int64) *int64 { return &i }
func valid() Input {
	return Input{Kind: "contact", Name: "Asha Rao", Email: "asha@example.com", Message: "Hello", FillMS: ms(5000)}
}

func TestCheck(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	// The field rules (name, e-mail, phone, message) are the table of
	// contracts/cases/enquiry-parity.json (parity_test.go); these are the server's own.
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
	// Check judges the honeypot only; fillMs, whatever it says, decides
	// nothing (TestFormTimer has the timer).
	tests := []struct {
		name     string
		honeypot string
		fill     *int64
		want     bool
	}{
		{"person", "", ms(8000), false},
		{"honeypot filled", "http://spam.test", ms(8000), true},
		{"honeypot of spaces", "  ", nil, false},
		{"fillMs claims too fast", "", ms(400), false},
		{"no fill time", "", nil, false},
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

func TestFormTimer(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	timer := NewFormTimer([]byte("0123456789abcdef0123456789abcdef"))
	other := NewFormTimer([]byte("another key, another server farm"))
	token := timer.Start(now)
	ms, sig, ok := strings.Cut(token, ".")
	if !ok || ms != "1767323045000" || len(sig) != 43 {
		t.Fatalf("token %q: want <unix ms>.<43 characters of base64url HMAC>", token)
	}
	tests := []struct {
		name  string
		token string
		at    time.Time
		want  bool
	}{
		{"no token: the timer does not judge", "", now, false},
		{"sent at once", token, now, true},
		{"sent after 2.999 s", token, now.Add(MinFillTime - time.Millisecond), true},
		{"sent after exactly the minimum", token, now.Add(MinFillTime), false},
		{"sent after a minute", token, now.Add(time.Minute), false},
		{"sent a day later", token, now.Add(MaxFormAge), false},
		{"older than a day: the timer does not judge", token, now.Add(MaxFormAge + time.Second), false},
		{"dated in the future", timer.Start(now.Add(time.Hour)), now, true},
		{"signed with another key", other.Start(now.Add(-time.Minute)), now, true},
		{"an earlier time with this signature", "1767323000000." + sig, now, true},
		{"signature altered", ms + "." + strings.ToUpper(sig), now.Add(time.Minute), true},
		{"signature missing", ms, now.Add(time.Minute), true},
		{"signature empty", ms + ".", now.Add(time.Minute), true},
		{"time with a sign", "+" + token, now.Add(time.Minute), true},
		{"time not a number", "soon." + sig, now.Add(time.Minute), true},
		{"time too large", "99999999999999999999." + sig, now.Add(time.Minute), true},
		{"too long", token + strings.Repeat("A", 100), now.Add(time.Minute), true},
		{"garbage", "not a token", now, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := timer.TimerSpam(tt.token, tt.at); got != tt.want {
				t.Errorf("TimerSpam(%q) = %v, want %v", tt.token, got, tt.want)
			}
		})
	}
	// Another copy of the server with the same key accepts the token.
	if NewFormTimer([]byte("0123456789abcdef0123456789abcdef")).TimerSpam(token, now.Add(5*time.Second)) {
		t.Error("a server with the same key refused the token")
	}
}

func TestIdempotencyKey(t *testing.T) {
	for key, ok := range map[string]bool{
		"":                                     true, // none: not idempotent
		"0123456789abcdef":                     true,
		"3b241101-e2bb-4255-8caf-4136c566a962": true,
		"Ab_-" + strings.Repeat("x", 60):       true,
		"0123456789abcde":                      false, // 15
		strings.Repeat("x", 65):                false,
		"0123456789abcdef ":                    false,
		"0123456789abcdef/":                    false,
		"0123456789abcdéf":                     false,
	} {
		in := valid()
		in.IdempotencyKey = key
		e, err := Check(in, products, time.Now())
		var ve *ValidationError
		switch {
		case ok && (err != nil || e.IdempotencyKey != key):
			t.Errorf("key %q: %v, stored as %q", key, err, e.IdempotencyKey)
		case !ok && (!errors.As(err, &ve) || ve.Fields["idempotencyKey"] == "" || len(ve.Fields) != 1):
			t.Errorf("key %q: %v, want a problem with idempotencyKey alone", key, err)
		}
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

func TestCheckItems(t *testing.T) {
	catalogue := fakeProducts{
		1: {ID: 1, Name: "Marwar chair", Material: []string{"Wood", "Metal"}, Finish: []string{"Walnut", "Charcoal"}},
		3: {ID: 3, Name: "Jali table", Material: []string{"Wood"}, Finish: []string{"Teak"}},
	}
	qty := func(f float64) *float64 { return &f }
	shortlist := func(in *Input) {
		in.Kind, in.Message = "quote", ""
		in.Items = []ItemInput{
			{ProductID: intp(3), Material: "Wood", Finish: "Teak", Quantity: qty(2), Note: "for the\r\nlobby"},
			{ProductID: intp(1), Quantity: qty(1)},
		}
	}
	tests := []struct {
		name   string
		edit   func(*Input)
		fields map[string]string // field → part of the message; nil: valid
	}{
		{"valid, message optional", shortlist, nil},
		{"every piece's problem at once", func(in *Input) {
			shortlist(in)
			in.Items = append(in.Items,
				ItemInput{ProductID: intp(99), Quantity: qty(1)},
				ItemInput{ProductID: intp(1), Material: "Stone", Finish: "Teak", Quantity: qty(0)},
				ItemInput{Material: "Wood", Quantity: qty(2.5), Note: strings.Repeat("n", MaxItemNote+1)},
				ItemInput{ProductID: intp(3), Quantity: qty(float64(MaxQuantity + 1))},
				ItemInput{ProductID: intp(3)},
			)
		}, map[string]string{
			"items[2].productId": "no such product",
			"items[3].material":  "Stone", "items[3].finish": "Teak", "items[3].quantity": "1 to 999",
			"items[4].productId": "which", "items[4].material": "product", "items[4].quantity": "whole number", "items[4].note": "500",
			"items[5].quantity": "1 to 999",
			"items[6].quantity": "1 to 999",
		}},
		{"a note of exactly the limit", func(in *Input) { shortlist(in); in.Items[0].Note = strings.Repeat("न", MaxItemNote) }, nil},
		{"only for a quote", func(in *Input) { shortlist(in); in.Kind = "contact"; in.Message = "m" }, map[string]string{"items": "quote"}},
		{"none", func(in *Input) { shortlist(in); in.Items = []ItemInput{} }, map[string]string{"items": "1 to 50"}},
		{"more than 50", func(in *Input) {
			shortlist(in)
			for len(in.Items) <= MaxItems {
				in.Items = append(in.Items, in.Items[1])
			}
		}, map[string]string{"items": "1 to 50"}},
		{"exactly 50", func(in *Input) {
			shortlist(in)
			for len(in.Items) < MaxItems {
				in.Items = append(in.Items, in.Items[1])
			}
		}, nil},
		{"a product above the pieces", func(in *Input) {
			shortlist(in)
			in.ProductID, in.Material, in.Finish = intp(1), "Wood", "Walnut"
		}, map[string]string{"productId": "each piece", "material": "each piece", "finish": "each piece"}},
		{"the other rules still hold", func(in *Input) { shortlist(in); in.Name, in.Email = "", "nope" }, map[string]string{"name": "name", "email": "e-mail"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := valid()
			tt.edit(&in)
			e, err := Check(in, catalogue, time.Now())
			if tt.fields == nil {
				if err != nil {
					t.Fatalf("Check: %v", err)
				}
				if len(e.Items) != len(in.Items) || e.ProductID != 0 {
					t.Fatalf("items = %+v, product %d", e.Items, e.ProductID)
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

	in := valid()
	shortlist(&in)
	e, err := Check(in, catalogue, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	want := []Item{{ProductID: 3, ProductName: "Jali table", Material: "Wood", Finish: "Teak", Quantity: 2, Note: "for the lobby"}, {ProductID: 1, ProductName: "Marwar chair", Quantity: 1}}
	if fmt.Sprint(e.Items) != fmt.Sprint(want) {
		t.Errorf("items = %+v, want %+v (the note on one line)", e.Items, want)
	}
	e.ID = 7
	if got := e.Subject(); got != "Quote request #7 from Asha Rao: 2 products, 3 pieces" {
		t.Errorf("subject = %q", got)
	}
}

// A shortlist's pieces are the sum of its quantities; the products are
// named too where they are fewer.
// The table the shortlist page is tested on too (pieces.test.ts): a
// shortlist's size is said alike everywhere. One product twice, in two
// materials, is one product whose pieces are each counted.
func TestPiecesOf(t *testing.T) {
	b, err := cases.Files.ReadFile("enquiry-pieces.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Cases []struct {
			Items [][2]int
			Says  string
		}
	}
	if err := json.Unmarshal(b, &table); err != nil || len(table.Cases) == 0 {
		t.Fatalf("pieces.json: %v", err)
	}
	for _, tc := range table.Cases {
		var items []Item
		for _, it := range tc.Items {
			items = append(items, Item{ProductID: it[0], Quantity: it[1]})
		}
		if got := PiecesOf(items); got != tc.Says {
			t.Errorf("PiecesOf(%v) = %q, want %q", tc.Items, got, tc.Says)
		}
	}
}
