package server

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"studio/internal/enquiry"
)

// memoryStore keeps enquiries in memory, for tests that look at what would
// have been stored.
type memoryStore struct {
	mu        sync.Mutex
	enquiries []enquiry.Enquiry
}

func (m *memoryStore) CreateEnquiry(_ context.Context, e enquiry.Enquiry, _ bool) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.enquiries = append(m.enquiries, e)
	return int64(len(m.enquiries)), nil
}
func (m *memoryStore) Subscribe(context.Context, string, bool, time.Time) (bool, error) {
	return true, nil
}
func (m *memoryStore) CheckWrite(context.Context, time.Time) error { return nil }

// FuzzCreateEnquiry: whatever body arrives, the API answers 201 or a 4xx,
// never a 5xx or a panic; it stores exactly one enquiry on 201 and nothing
// otherwise; and what it stores keeps the rules (lengths, one line, no
// control characters, a known kind, a product's own options).
func FuzzCreateEnquiry(f *testing.F) {
	for _, seed := range []string{
		goodContact,
		`{"kind":"quote","name":"A","email":"a@b.in","productId":1,"material":"Wood","finish":"Walnut","fillMs":4000}`,
		`{"kind":"customize","name":"A","email":"a@b.in","message":"A table"}`,
		`{"kind":"contact","name":"A\r\nBcc: x@y.z","email":"a@b.in","message":"m","phone":"+91 (98) 290-41752"}`,
		`{"kind":"quote","name":"A","email":"a@b.in","productId":99}`,
		`{"kind":"contact","name":"","email":"nope","message":""}`,
		`{"kind":"contact","name":"A","email":"a@b.in","message":"m","admin":true}`,
		`{"kind":"contact","name":"A","email":"a@b.in","message":"m"} {"again":1}`,
		`{"kind":"spam","name":"A","email":"a@b.in","message":"m","website":"http://x"}`,
		`{"kind":"contact","name":"\u0000\u001b[31m","email":"a@b.in","message":"m"}`,
		`{"kind":"quote","name":"A","email":"a@b.in","productId":-1,"fillMs":-5}`,
		`{"kind":"contact","name":"A","email":"a@b.in","message":"m","started":"1778051289010.AAAA","idempotencyKey":"0123456789abcdef"}`,
		`{"kind":"contact","name":"A","email":"a@b.in","message":"m","started":"","idempotencyKey":"short"}`,
		`{"kind":"quote","name":"A","email":"a@b.in","items":[{"productId":1,"material":"Wood","finish":"Walnut","quantity":2,"note":"lobby"},{"productId":2,"quantity":1}]}`,
		`{"kind":"quote","name":"A","email":"a@b.in","items":[{"productId":3,"quantity":0.5,"note":"\u0000"},{"productId":1,"Quantity":1}]}`,
		`[]`, `null`, `{`, ``, `"text"`, `{"kind":1}`,
	} {
		f.Add(seed)
	}
	st := &memoryStore{}
	s, err := New(discardLog(), testBuild(), testCatalogue(f, 1, 2), WithStore(st))
	if err != nil {
		f.Fatal(err)
	}
	h := s.Handler()
	var visitor atomic.Uint64

	f.Fuzz(func(t *testing.T, body string) {
		st.mu.Lock()
		before := len(st.enquiries)
		st.mu.Unlock()

		r := httptest.NewRequest("POST", "/api/enquiries", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		n := visitor.Add(1) // a visitor of its own: the rate limit is not under test here
		r.RemoteAddr = fmt.Sprintf("198.18.%d.%d:4000", n/250%250, n%250)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)

		st.mu.Lock()
		stored := st.enquiries[before:]
		st.mu.Unlock()
		switch {
		case w.Code == http.StatusCreated:
			if len(stored) != 1 {
				t.Fatalf("201 but %d enquiries stored for %q", len(stored), body)
			}
			checkStored(t, stored[0])
		case w.Code >= 400 && w.Code < 500:
			if len(stored) != 0 {
				t.Fatalf("%d but an enquiry was stored for %q", w.Code, body)
			}
			if !strings.Contains(w.Body.String(), `"error"`) {
				t.Fatalf("%d without an error message: %q", w.Code, w.Body.String())
			}
		default:
			t.Fatalf("status %d for %q: %s", w.Code, body, w.Body.String())
		}
	})
}

func checkStored(t *testing.T, e enquiry.Enquiry) {
	t.Helper()
	switch e.Kind {
	case enquiry.Contact, enquiry.Quote, enquiry.Customize:
	default:
		t.Fatalf("stored kind %q", e.Kind)
	}
	for field, v := range map[string]string{"name": e.Name, "email": e.Email, "phone": e.Phone, "material": e.Material, "finish": e.Finish} {
		if !utf8.ValidString(v) || strings.ContainsFunc(v, unicode.IsControl) {
			t.Fatalf("stored %s %q has a control character or invalid UTF-8", field, v)
		}
	}
	limits := enquiry.Rules.Limits
	if utf8.RuneCountInString(e.Name) > limits.Name || len(e.Email) > limits.Email || utf8.RuneCountInString(e.Message) > limits.Message || utf8.RuneCountInString(e.Phone) > limits.Phone {
		t.Fatalf("stored enquiry breaks a length limit: %+v", e)
	}
	if e.Name == "" || e.Email == "" || (e.Kind == enquiry.Contact && e.Message == "") {
		t.Fatalf("stored enquiry lacks a required field: %+v", e)
	}
	if e.ProductID != 0 && e.ProductID != 1 && e.ProductID != 2 {
		t.Fatalf("stored an unknown product %d", e.ProductID)
	}
	if e.Material != "" && e.Material != "Wood" || e.Finish != "" && e.Finish != "Walnut" {
		t.Fatalf("stored options the product does not have: %q %q", e.Material, e.Finish)
	}
	if len(e.Items) > 0 && (e.Kind != enquiry.Quote || e.ProductID != 0 || len(e.Items) > enquiry.MaxItems) {
		t.Fatalf("stored %d pieces on a %s about product %d", len(e.Items), e.Kind, e.ProductID)
	}
	for _, it := range e.Items {
		if it.ProductID != 1 && it.ProductID != 2 || it.Material != "" && it.Material != "Wood" || it.Finish != "" && it.Finish != "Walnut" ||
			it.Quantity < 1 || it.Quantity > enquiry.MaxQuantity || utf8.RuneCountInString(it.Note) > enquiry.MaxItemNote ||
			strings.ContainsFunc(it.Note+it.Material+it.Finish, unicode.IsControl) {
			t.Fatalf("stored a piece that breaks the rules: %+v", it)
		}
	}
}
