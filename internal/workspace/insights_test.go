package workspace

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store"
)

// row finds a table row of the insights page by its first cell and gives
// its cells.
func row(body, first string) []string {
	m := regexp.MustCompile(`<tr><th scope="row">` + regexp.QuoteMeta(first) + `</th>((?:<td class="n"[^>]*>[^<]*</td>)*)</tr>`).FindStringSubmatch(body)
	if m == nil {
		return nil
	}
	var cells []string
	for _, c := range regexp.MustCompile(`<td class="n"[^>]*>([^<]*)</td>`).FindAllStringSubmatch(m[1], -1) {
		cells = append(cells, c[1])
	}
	return cells
}

// addEvents stores events as one batch of the first one's day, without caps.
func addEvents(t testing.TB, st *store.Store, events ...store.InsightEvent) {
	t.Helper()
	if _, err := st.AddEvents(context.Background(), store.EventCaps{}, store.EventBatch{Day: events[0].Day, Events: events}); err != nil {
		t.Fatal(err)
	}
}

func TestInsights(t *testing.T) {
	h, st := setup(t)
	now := time.Now()
	day := now.In(h.opts.Location).Format(time.DateOnly)
	ev := func(visitor, device, name string, edit func(*store.InsightEvent)) store.InsightEvent {
		e := store.InsightEvent{At: now, Day: day, Visitor: visitor, Device: device, Name: name}
		if edit != nil {
			edit(&e)
		}
		return e
	}
	events := []store.InsightEvent{
		ev("a", "phone", "page_view", func(e *store.InsightEvent) { e.Path, e.Referrer = "/products", "google.com" }),
		ev("a", "phone", "search", func(e *store.InsightEvent) { e.Label = "chair" }),
		ev("a", "phone", "search", func(e *store.InsightEvent) { e.Label, e.Empty = "brass lamp", true }),
		ev("a", "phone", "view_item", func(e *store.InsightEvent) { e.Path, e.Product = "/product/1", 1 }),
		ev("a", "phone", "quote_request", func(e *store.InsightEvent) { e.Path, e.Product = "/product/1", 1 }),
		ev("a", "phone", "add_to_wishlist", func(e *store.InsightEvent) { e.Path, e.Product = "/products", 2 }),
		ev("b", "desktop", "page_view", func(e *store.InsightEvent) { e.Path = "/" }),
		ev("b", "desktop", "view_item", func(e *store.InsightEvent) { e.Path, e.Product = "/product/2", 2 }),
		ev("b", "desktop", "view_item", func(e *store.InsightEvent) { e.Path, e.Product = "/product/2", 2 }),
		ev("b", "desktop", "chatbot_interaction", func(e *store.InsightEvent) { e.Label = "open" }),
		ev("b", "desktop", "contact_attempt", func(e *store.InsightEvent) { e.Label = "chatbot: whatsapp" }),
	}
	addEvents(t, st, events...)
	add(t, st, enquiry.Enquiry{Kind: enquiry.Quote, Name: "Meera", ProductID: 1, CreatedAt: now})
	add(t, st, enquiry.Enquiry{Kind: enquiry.Quote, Name: "Bot", ProductID: 1, CreatedAt: now, Spam: true})

	if w := do(h, "GET", "/studio/insights", nil); w.Code != http.StatusSeeOther {
		t.Errorf("signed out: %d, want 303 to the sign-in", w.Code)
	}
	cookie := signIn(t, h, asha, ashaPassword)
	w := do(h, "GET", "/studio/insights", nil, withCookie(cookie))
	body := w.Body.String()
	if w.Code != http.StatusOK {
		t.Fatalf("insights: %d %s", w.Code, body)
	}
	for first, want := range map[string]string{
		// views, visitors, quote dialogs, customise dialogs, added to a shortlist, enquiries (spam left out)
		"Marwar chair":            "1 1 1 0 0 1",
		"Jharokha mirror":         "2 1 0 0 1 0",
		"brass lamp":              "1 1",
		"chair":                   "1 0",
		"google.com":              "1 1",
		"phone":                   "1 50%",
		"desktop":                 "1 50%",
		"/products":               "1 1",
		"Conversations opened":    "1 1",
		"Handed over to WhatsApp": "1 1",
	} {
		if got := strings.Join(row(body, first), " "); got != want {
			t.Errorf("row %q: %q, want %q", first, got, want)
		}
	}
	if strings.Index(body, ">brass lamp<") > strings.Index(body, ">chair<") {
		t.Error("searches that found nothing come first")
	}
	if !strings.Contains(body, `<dt>Visitors</dt><dd>2</dd>`) || !strings.Contains(body, `<dt>Enquiries</dt><dd>1</dd>`) {
		t.Error("totals: two visitors and one enquiry")
	}

	w = do(h, "GET", "/studio/insights.csv?table=products", nil, withCookie(cookie))
	records, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(w.Body.String(), "\uFEFF"))).ReadAll()
	if err != nil || w.Code != http.StatusOK {
		t.Fatalf("products CSV: %d %v", w.Code, err)
	}
	if got := fmt.Sprint(records[1]); got != "[Jharokha mirror 2 1 0 0 1 0]" || len(records) != 3 {
		t.Errorf("products CSV: %v", records)
	}

	for target, want := range map[string]int{
		"/studio/insights.csv?table=secrets":                             http.StatusBadRequest,
		"/studio/insights.csv?table=pages&from=2026-02-30&to=2026-03-01": http.StatusBadRequest,
	} {
		if w := do(h, "GET", target, nil, withCookie(cookie)); w.Code != want {
			t.Errorf("%s: %d, want %d", target, w.Code, want)
		}
	}
	// Events that come after the counts were made show when the latest are asked for.
	addEvents(t, st, ev("c", "phone", "search", func(e *store.InsightEvent) { e.Label = "jhoola" }))
	if row(do(h, "GET", "/studio/insights", nil, withCookie(cookie)).Body.String(), "jhoola") != nil {
		t.Error("the counts are read as they are, without counting again")
	}
	w = do(h, "GET", "/studio/insights?latest", nil, withCookie(cookie))
	if got := row(w.Body.String(), "jhoola"); fmt.Sprint(got) != "[1 0]" {
		t.Errorf("after Count the latest: %v", got)
	}

	w = do(h, "GET", "/studio/insights?from=2026-11-30&to=2026-11-01", nil, withCookie(cookie))
	if !strings.Contains(w.Body.String(), "The period ends before it starts") {
		t.Error("a period the wrong way round is said")
	}
}

// The headline counts enquiries, each once whatever it asks about, and
// beside them the products asked about, whatever their quantities: a
// contact message, a shortlist of five products (seven pieces) and a quote
// are three enquiries and six products.
func TestInsightsHeadlineCountsEnquiries(t *testing.T) {
	onBoth(t, func(t *testing.T, h *Handler, st *store.Store) {
		now := time.Now()
		var five []enquiry.Item
		for id := 1; id <= 5; id++ {
			five = append(five, enquiry.Item{ProductID: id, ProductName: fmt.Sprintf("Piece %d", id), Quantity: 1 + id/4})
		}
		add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Contact", CreatedAt: now.Add(-time.Hour)})
		add(t, st, enquiry.Enquiry{Kind: enquiry.Quote, Name: "Shortlist", Items: five, CreatedAt: now.Add(-2 * time.Hour)})
		add(t, st, enquiry.Enquiry{Kind: enquiry.Quote, Name: "Quote", ProductID: 2, CreatedAt: now.Add(-3 * time.Hour)})
		add(t, st, enquiry.Enquiry{Kind: enquiry.Quote, Name: "Bot", ProductID: 1, CreatedAt: now, Spam: true})
		add(t, st, enquiry.Enquiry{Kind: enquiry.Customize, Name: "Before", ProductID: 1, CreatedAt: now.AddDate(0, 0, -8)})

		w := do(h, "GET", "/studio/insights", nil, withCookie(signIn(t, h, asha, ashaPassword)))
		body := w.Body.String()
		for _, want := range []string{
			`<dt>Enquiries</dt><dd>3</dd><dd class="meta">1 before (&#43;200%)</dd>`, // the template escapes "+"
			`<dt>Products asked about</dt><dd>6</dd><dd class="meta">1 before (&#43;500%)</dd>`,
		} {
			if !strings.Contains(body, want) {
				t.Errorf("the headline lacks %s:\n%s", want, regexp.MustCompile(`(?s)<dl class="totals">.*?</dl>`).FindString(body))
			}
		}
	})
}

// An insights CSV is named for the period it holds; the exports of
// everything, for the day they were saved in the studio's time zone: at
// 20:10 UTC on 28 November it is 01:40 on the 29th in Jaipur.
func TestCSVFileNames(t *testing.T) {
	onBoth(t, func(t *testing.T, h *Handler, _ *store.Store) { csvFileNames(t, h) })
}

func csvFileNames(t *testing.T, h *Handler) {
	h.now = func() time.Time { return time.Date(2025, 11, 28, 20, 10, 0, 0, time.UTC) }
	cookie := withCookie(signIn(t, h, asha, ashaPassword))
	for target, want := range map[string]string{
		"/studio/insights.csv?table=products&from=2026-10-27&to=2026-11-25": "insights-products-2026-10-27-to-2026-11-25.csv",
		"/studio/insights.csv?table=searches":                               "insights-searches-2025-11-23-to-2025-11-29.csv",
		"/studio/enquiries.csv":                                             "enquiries-2025-11-29.csv",
		"/studio/newsletter.csv":                                            "newsletter-2025-11-29.csv",
	} {
		w := do(h, "GET", target, nil, cookie)
		if got := w.Header().Get("Content-Disposition"); w.Code != http.StatusOK || got != `attachment; filename="`+want+`"` {
			t.Errorf("%s: %d, Content-Disposition %q; want the file %s", target, w.Code, got, want)
		}
	}
}
