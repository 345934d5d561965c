package workspace

import (
	"encoding/csv"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"studio/internal/enquiry"
)

// shortlistFor is a quote request for nine pieces of two products in three
// lines (the chair twice, in two materials); the second is the
// mirror, so the product filter must look at the pieces to find it.
func shortlistFor(name string) enquiry.Enquiry {
	return enquiry.Enquiry{Kind: enquiry.Quote, Name: name, Phone: "+91 98290 41752", Message: "All for one flat",
		CreatedAt: time.Date(2026, 3, 2, 6, 0, 0, 0, time.UTC), Items: []enquiry.Item{
			{ProductID: 1, ProductName: "Marwar chair", Material: "Wood", Finish: "Walnut", Quantity: 6, Note: "=1+1 <b>dining</b>"},
			{ProductID: 2, ProductName: "Jharokha mirror", Quantity: 1},
			{ProductID: 1, ProductName: "Marwar chair", Material: "Metal", Finish: "Charcoal", Quantity: 2, Note: "for the balcony"},
		}}
}

func TestShortlistInTheInbox(t *testing.T) {
	h, st := setup(t)
	add(t, st, enquiry.Enquiry{Kind: enquiry.Quote, Name: "Single", ProductID: 1, ProductName: "Marwar chair"})
	id := add(t, st, shortlistFor("Meera"))
	c := signIn(t, h, asha, ashaPassword)

	w := do(h, "GET", "/studio", nil, withCookie(c))
	if body := w.Body.String(); !strings.Contains(body, "#"+itoa(id)+" · Quote · 2 products, 9 pieces · Meera</a>") || !strings.Contains(body, " · Quote · Marwar chair · Single</a>") {
		t.Errorf("the list does not say the shortlist's pieces (or lost the single product):\n%s", body)
	}
	w = do(h, "GET", "/studio?product=2", nil, withCookie(c))
	if got := strings.Join(names(w.Body.String()), ","); got != "Meera" {
		t.Errorf("the mirror's enquiries = %q, want the shortlist that lists it", got)
	}

	w = do(h, "GET", "/studio/enquiries/"+itoa(id), nil, withCookie(c))
	body := w.Body.String()
	if w.Code != 200 || !strings.Contains(body, "<caption id=\"pieces\">2 products, 9 pieces</caption>") {
		t.Fatalf("%d: the enquiry's page has no table of pieces:\n%s", w.Code, body)
	}
	var rows []string
	for _, row := range regexp.MustCompile(`(?s)<tr><th scope="row">.*?</tr>`).FindAllString(body, -1) {
		var cells []string
		for _, cell := range regexp.MustCompile(`<t[hd][^>]*>(.*?)</t[hd]>`).FindAllStringSubmatch(row, -1) {
			cells = append(cells, cell[1])
		}
		rows = append(rows, strings.Join(cells, " | "))
	}
	want := []string{
		"Marwar chair (#1) | Wood | Walnut | 6 | =1&#43;1 &lt;b&gt;dining&lt;/b&gt;", // escaped
		"Jharokha mirror (#2) |  |  | 1 | ",
		"Marwar chair (#1) | Metal | Charcoal | 2 | for the balcony",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("pieces, in order:\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}

// The CSV has one row per piece, each with the enquiry's id; an enquiry
// without pieces keeps its one row, its product as before and its quantity
// empty. Every cell is neutralised as the others are.
func TestCSVListsEveryPiece(t *testing.T) {
	h, st := setup(t)
	id := add(t, st, shortlistFor("Meera"))
	single := add(t, st, enquiry.Enquiry{Kind: enquiry.Quote, Name: "Single", ProductID: 2, ProductName: "Jharokha mirror", Material: "Wood"})
	w := do(h, "GET", "/studio/enquiries.csv", nil, func(r *http.Request) { r.SetBasicAuth(asha, ashaPassword) })
	rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(w.Body.String(), "\uFEFF"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	header := strings.Join(rows[0], ",")
	if header != "id,received,kind,product_id,product,material,finish,name,email,phone,message,status,spam,quantity,note,notes,replies" {
		t.Errorf("header = %s", header)
	}
	// id, product_id, product, material, finish, name, phone, message, quantity, note
	pick := func(row []string) string {
		return strings.Join([]string{row[0], row[3], row[4], row[5], row[6], row[7], row[9], row[10], row[13], row[14]}, "|")
	}
	var got []string
	for _, row := range rows[1:] {
		got = append(got, pick(row))
	}
	m, s := itoa(id), itoa(single)
	want := []string{
		s + "|2|Jharokha mirror|Wood||Single||||",
		m + `|1|Marwar chair|Wood|Walnut|Meera|="+91 98290 41752"|All for one flat|6|'=1+1 <b>dining</b>`,
		m + `|2|Jharokha mirror|||Meera|="+91 98290 41752"|All for one flat|1|`,
		m + `|1|Marwar chair|Metal|Charcoal|Meera|="+91 98290 41752"|All for one flat|2|for the balcony`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
