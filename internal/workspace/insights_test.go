package workspace

import (
	"context"
	"encoding/csv"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store"
	"studio/internal/workspace/page"
)

// row finds a table row of the insights page by its first cell and gives
// its cells.
func row(body, first string) []string {
	m := regexp.MustCompile(`<tr><th scope="row">` + regexp.QuoteMeta(first) + `</th>((?:<td class="n">[^<]*</td>)*)</tr>`).FindStringSubmatch(body)
	if m == nil {
		return nil
	}
	var cells []string
	for _, c := range regexp.MustCompile(`<td class="n">([^<]*)</td>`).FindAllStringSubmatch(m[1], -1) {
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

// BenchmarkInsightsPage is the insights page over 30 days, with 1,000,000
// events stored (make bench-events prints the figure).
func BenchmarkInsightsPage(b *testing.B) {
	st, err := store.OpenSQLite(context.Background(), filepath.Join(b.TempDir(), "studio.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	loc, _ := time.LoadLocation("Asia/Kolkata")
	now := time.Now().In(loc)
	const days, perDay = 30, 1_000_000 / 30
	names := []string{"page_view", "page_view", "page_view", "view_item", "search", "filter_usage", "quote_request", "chatbot_interaction", "scroll_depth"}
	for d := range days {
		at := now.AddDate(0, 0, -d)
		day := at.Format(time.DateOnly)
		batch := make([]store.InsightEvent, 0, perDay)
		for i := range perDay {
			batch = append(batch, store.InsightEvent{At: at, Day: day, Visitor: fmt.Sprintf("v%d", i/5), Name: names[i%len(names)],
				Path: fmt.Sprintf("/product/%d", i%12+1), Product: int64(i%12 + 1), Label: fmt.Sprintf("term %d", i%300), Empty: i%7 == 0,
				Device: []string{"phone", "desktop"}[i%2], Referrer: []string{"", "google.com", "instagram.com"}[i%3]})
		}
		addEvents(b, st, batch...)
	}
	if err := st.RollUpEvents(context.Background(), now.Format(time.DateOnly), 90); err != nil {
		b.Fatal(err)
	}
	h := New(st, slog.New(slog.DiscardHandler), Options{Location: loc, KeepDays: 90})
	if err := h.RollUp(context.Background()); err != nil {
		b.Fatal(err)
	}
	target := "/studio/insights?from=" + now.AddDate(0, 0, 1-days).Format(time.DateOnly) + "&to=" + now.Format(time.DateOnly)
	// As the page opens (the counts as they are), and when the latest are
	// asked for after a new event (today's events counted again first).
	for name, url := range map[string]string{"counted": target, "latest": target + "&latest"} {
		b.Run(name, func(b *testing.B) {
			r := httptest.NewRequest("GET", url, nil)
			r = page.WithAccount(r, store.Account{Email: "bench@studio.example"})
			began := time.Now()
			for range b.N {
				if name == "latest" {
					// A new event of today, so that today's counts are made again.
					b.StopTimer()
					addEvents(b, st, store.InsightEvent{At: now, Day: now.Format(time.DateOnly), Visitor: "new", Name: "page_view", Path: "/"})
					b.StartTimer()
				}
				w := httptest.NewRecorder()
				h.Insights(w, r)
				if w.Code != http.StatusOK {
					b.Fatalf("%d %s", w.Code, w.Body)
				}
			}
			b.ReportMetric(float64(time.Since(began).Microseconds())/1000/float64(b.N), "ms/page")
		})
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
// everything, for the day they were saved.
func TestCSVFileNames(t *testing.T) {
	onBoth(t, func(t *testing.T, h *Handler, _ *store.Store) { csvFileNames(t, h) })
}

func csvFileNames(t *testing.T, h *Handler) {
	cookie := withCookie(signIn(t, h, asha, ashaPassword))
	today := h.now().In(h.opts.Location)
	for target, want := range map[string]string{
		"/studio/insights.csv?table=products&from=2026-10-27&to=2026-11-25": "insights-products-2026-10-27-to-2026-11-25.csv",
		"/studio/insights.csv?table=searches":                               "insights-searches-" + today.AddDate(0, 0, -6).Format(time.DateOnly) + "-to-" + today.Format(time.DateOnly) + ".csv",
		"/studio/enquiries.csv":                                             "enquiries-" + time.Now().UTC().Format(time.DateOnly) + ".csv",
		"/studio/newsletter.csv":                                            "newsletter-" + time.Now().UTC().Format(time.DateOnly) + ".csv",
	} {
		w := do(h, "GET", target, nil, cookie)
		if got := w.Header().Get("Content-Disposition"); w.Code != http.StatusOK || got != `attachment; filename="`+want+`"` {
			t.Errorf("%s: %d, Content-Disposition %q; want the file %s", target, w.Code, got, want)
		}
	}
}

// figuresOnly is the insights' store and nothing more: counts by event
// name and dimension, and a store that fails when failing is set.
type figuresOnly struct {
	perDay    map[string][]store.DayCount
	top       map[string][]store.ValueCount // by "event/dimension"
	byProduct map[int64]int64
	enquiries int64
	failing   error
}

func (f figuresOnly) EventsPerDay(_ context.Context, name, _, _ string) ([]store.DayCount, error) {
	return f.perDay[name], f.failing
}

func (f figuresOnly) TopValues(_ context.Context, name, dim, _, _ string, _ int) ([]store.ValueCount, error) {
	return f.top[name+"/"+dim], f.failing
}

func (f figuresOnly) EnquiriesByProduct(context.Context, time.Time, time.Time) (map[int64]int64, error) {
	return f.byProduct, f.failing
}

func (f figuresOnly) CountEnquiries(context.Context, time.Time, time.Time) (int64, error) {
	return f.enquiries, f.failing
}

// The figures are read without a page: totals, and each table in order.
func TestReadInsights(t *testing.T) {
	st := figuresOnly{
		perDay: map[string][]store.DayCount{
			anyEvent:      {{Day: "2026-03-01", Visitors: 4}, {Day: "2026-03-02", Visitors: 6}},
			eventPageView: {{Day: "2026-03-01", Events: 9}, {Day: "2026-03-02", Events: 11}},
		},
		top: map[string][]store.ValueCount{
			eventViewItem + "/" + dimProduct: {{Value: "2", Events: 5, Visitors: 3}},
			eventPageView + "/" + dimPath:    {{Value: "/product/2", Events: 7, Visitors: 4}, {Value: "/product/99", Events: 2, Visitors: 1}, {Value: "/", Events: 1, Visitors: 1}},
			eventChat + "/" + dimLabel:       {{Value: "topic: delivery", Events: 1, Visitors: 1}, {Value: chatOpened, Events: 2, Visitors: 2}},
			anyEvent + "/" + dimDevice:       {{Value: "phone", Visitors: 3}, {Value: "desktop", Visitors: 1}},
		},
		byProduct: map[int64]int64{2: 1},
		enquiries: 1,
	}
	p := period{"2026-03-01", "2026-03-02"}
	got, err := readInsights(context.Background(), st, p, time.UTC, Facts{Products: []Product{{ID: 1, Name: "Marwar chair"}, {ID: 2, Name: "Jharokha mirror"}},
		PageTitles: map[string]string{"/product/2": "Jharokha mirror, wall mirror", "/": "Jharokha Studio: furniture"}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Previous != (period{"2026-02-27", "2026-02-28"}) {
		t.Errorf("the period before = %v", got.Previous)
	}
	// The period before has the same counts here: the fake ignores dates.
	for i, want := range []total{{"Visitors", 10, 10, "+0%"}, {"Page views", 20, 20, "+0%"}, {"Enquiries", 1, 1, "+0%"}, {"Products asked about", 1, 1, "+0%"}} {
		if got.Totals[i] != want {
			t.Errorf("total %d = %+v, want %+v", i, got.Totals[i], want)
		}
	}
	var ids []string
	rows := map[string][][]string{}
	for _, table := range got.Tables {
		ids = append(ids, table.ID)
		rows[table.ID] = table.Rows
	}
	if strings.Join(ids, ",") != strings.Join(tableIDs, ",") {
		t.Errorf("tables %v, want %v", ids, tableIDs)
	}
	for id, want := range map[string]string{
		"days":     "2026-03-01 4 9 2026-03-01 4 9|2026-03-02 6 11 2026-03-02 6 11",
		"products": "Jharokha mirror 5 3 0 0 0 1",
		"chat":     "Conversations opened 2 2|Topic: delivery 1 1",
		"devices":  "phone 3 75%|desktop 1 25%",
		"offer":    "Shown 0 0|Closed 0 0|Taken up (opened WhatsApp) 0 0",
		// By title; a page the site no longer has by its path.
		"pages": "Jharokha mirror, wall mirror 7 4|/product/99 2 1|Jharokha Studio: furniture 1 1",
	} {
		var lines []string
		for _, row := range rows[id] {
			lines = append(lines, strings.Join(row, " "))
		}
		if got := strings.Join(lines, "|"); got != want {
			t.Errorf("table %s = %q, want %q", id, got, want)
		}
	}

	st.failing = context.DeadlineExceeded
	if _, err := readInsights(context.Background(), st, p, time.UTC, Facts{}); err != context.DeadlineExceeded {
		t.Errorf("with the database not answering: %v, want its error", err)
	}
}
