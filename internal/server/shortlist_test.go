package server

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"studio/internal/enquiry"
	"studio/internal/store"
	"studio/internal/store/testdb"
)

// shortlistBody is a quote request for the pieces given (JSON objects).
func shortlistBody(items ...string) string {
	return `{"kind":"quote","name":"Asha","email":"asha@example.com","message":"","items":[` + strings.Join(items, ",") + `]}`
}

const (
	pieceChair = `{"productId":1,"material":"Wood","finish":"Walnut","quantity":4,"note":"for the lobby"}`
	pieceTable = `{"productId":2,"quantity":1}`
)

func TestShortlistQuoteStoresEveryPiece(t *testing.T) {
	h, st := newAPI(t, WithMail(func() {}))
	w := post(h, "/api/enquiries", shortlistBody(pieceChair, pieceTable, `{"productId":1,"finish":"Walnut","quantity":999,"note":"spare"}`))
	if w.Code != 201 {
		t.Fatalf("status = %d, want 201; body %s", w.Code, w.Body)
	}
	var got struct{ ID int64 }
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || got.ID <= 0 {
		t.Fatalf("body = %s, want {id}", w.Body)
	}
	e, err := st.Enquiry(context.Background(), got.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []enquiry.Item{
		{ProductID: 1, ProductName: "P", Material: "Wood", Finish: "Walnut", Quantity: 4, Note: "for the lobby"},
		{ProductID: 2, ProductName: "P", Quantity: 1},
		{ProductID: 1, ProductName: "P", Finish: "Walnut", Quantity: 999, Note: "spare"},
	}
	if e.Kind != enquiry.Quote || e.ProductID != 0 || !reflect.DeepEqual(e.Items, want) {
		t.Errorf("stored %s product %d with pieces\n %+v\nwant\n %+v", e.Kind, e.ProductID, e.Items, want)
	}
	if f, _ := st.MailFigures(context.Background()); f.Pending != 2 {
		t.Errorf("%d mails queued, want the studio's copy and the acknowledgement", f.Pending)
	}
}

func TestShortlistQuoteRefused(t *testing.T) {
	many := make([]string, enquiry.MaxItems+1)
	for i := range many {
		many[i] = pieceTable
	}
	tests := []struct {
		name       string
		body       string
		wantStatus int
		wantFields []string
	}{
		{name: "every piece's problem at once", wantStatus: 422,
			body:       shortlistBody(`{"productId":99,"quantity":1}`, `{"productId":1,"finish":"Oak","quantity":1}`, `{"productId":2,"quantity":0}`),
			wantFields: []string{"items[0].productId", "items[1].finish", "items[2].quantity"}},
		{name: "with the rest of the enquiry's problems", wantStatus: 422,
			body:       `{"kind":"quote","name":"","email":"nope","items":[` + pieceChair + `,{"productId":2,"quantity":2.5,"note":"` + strings.Repeat("n", enquiry.MaxItemNote+1) + `"}]}`,
			wantFields: []string{"name", "email", "items[1].quantity", "items[1].note"}},
		{name: "51 pieces", body: shortlistBody(many...), wantStatus: 422, wantFields: []string{"items"}},
		{name: "no pieces", body: shortlistBody(), wantStatus: 422, wantFields: []string{"items"}},
		{name: "pieces with a message", body: `{"kind":"contact","name":"A","email":"a@b.in","message":"m","items":[` + pieceTable + `]}`, wantStatus: 422, wantFields: []string{"items"}},
		{name: "a product above the pieces", body: `{"kind":"quote","name":"A","email":"a@b.in","productId":1,"finish":"Walnut","items":[` + pieceTable + `]}`,
			wantStatus: 422, wantFields: []string{"productId", "finish"}},
		{name: "a piece's field in another case", body: shortlistBody(pieceTable, `{"productId":2,"Quantity":1}`), wantStatus: 400, wantFields: []string{"items[1].Quantity"}},
		{name: "a piece's field given twice", body: shortlistBody(`{"productId":2,"quantity":1,"quantity":3}`), wantStatus: 400, wantFields: []string{"items[0].quantity"}},
		{name: "a piece's unknown field", body: shortlistBody(`{"productId":2,"quantity":1,"price":1}`), wantStatus: 400, wantFields: []string{"items[0].price"}},
		{name: "a piece's wrong type", body: shortlistBody(`{"productId":"two","quantity":1}`), wantStatus: 400, wantFields: []string{"items.productId"}},
		{name: "over 64 KiB", body: shortlistBody(`{"productId":2,"quantity":1,"note":"` + strings.Repeat("x", 70<<10) + `"}`), wantStatus: 413},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, st := newAPI(t)
			w := post(h, "/api/enquiries", tt.body)
			if w.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d; body %s", w.Code, tt.wantStatus, w.Body)
			}
			if n := storedCount(t, st, false) + storedCount(t, st, true); n != 0 {
				t.Errorf("a refused request stored %d enquiries", n)
			}
			var body errorBody
			if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Error == "" {
				t.Fatalf("error body = %s, want {error, fields}", w.Body)
			}
			if len(body.Fields) != len(tt.wantFields) {
				t.Errorf("fields = %v, want %v", body.Fields, tt.wantFields)
			}
			for _, f := range tt.wantFields {
				if body.Fields[f] == "" {
					t.Errorf("fields[%q] missing in %v", f, body.Fields)
				}
			}
		})
	}
}

// A retry of a shortlist with its idempotency key is answered with the
// first id and stores no second set of pieces.
func TestShortlistRetryStoresOnce(t *testing.T) {
	h, st := newAPI(t)
	body := strings.Replace(shortlistBody(pieceChair, pieceTable), `"message":""`, `"message":"","idempotencyKey":"shortlist-key-0123456789"`, 1)
	first, again := post(h, "/api/enquiries", body), post(h, "/api/enquiries", body)
	if first.Code != 201 || again.Code != 201 || first.Body.String() != again.Body.String() {
		t.Fatalf("answers %d %s and %d %s, want the same 201", first.Code, first.Body, again.Code, again.Body)
	}
	list, err := st.Enquiries(context.Background(), store.EnquiryFilter{})
	if err != nil || len(list) != 1 || len(list[0].Items) != 2 {
		t.Errorf("stored %d enquiries (%v), the first with pieces %+v; want one with 2", len(list), err, list)
	}
}

// /metrics counts a piece's problem by its field, not by its index: fifty
// pieces cannot make fifty series.
func TestShortlistProblemsCountedWithoutIndex(t *testing.T) {
	st := testdb.SQLite(t)
	s, err := New(discardLog(), testBuild(), testCatalogue(t, 1, 2), WithStore(st))
	if err != nil {
		t.Fatal(err)
	}
	var pieces []string
	for i := range 7 {
		pieces = append(pieces, fmt.Sprintf(`{"productId":1,"finish":"Oak %d","quantity":1}`, i))
	}
	if w := post(s.Handler(), "/api/enquiries", shortlistBody(pieces...)); w.Code != 422 {
		t.Fatalf("status %d", w.Code)
	}
	if n := testutil.ToFloat64(s.metrics.invalid.WithLabelValues("enquiry", "items[].finish")); n != 7 {
		t.Errorf("items[].finish counted %v times, want 7", n)
	}
	if n := testutil.CollectAndCount(s.metrics.invalid); n != 1 {
		t.Errorf("%d series of invalid fields, want 1", n)
	}
}
