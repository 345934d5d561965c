package insights

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"studio/internal/store"
	"studio/internal/workspace/page"
)

// addEvents stores events as one batch of the first one's day, without caps.
func addEvents(t testing.TB, st *store.Store, events ...store.InsightEvent) {
	t.Helper()
	if _, err := st.AddEvents(context.Background(), store.EventCaps{}, store.EventBatch{Day: events[0].Day, Events: events}); err != nil {
		t.Fatal(err)
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
	h := New(st, page.NewKit(page.Kit{Log: slog.New(slog.DiscardHandler), Location: loc, Facts: func() page.Facts { return page.Facts{} }}), 90)
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
	t.Parallel()
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
	got, err := readInsights(context.Background(), st, p, time.UTC, page.Facts{Products: []page.Product{{ID: 1, Name: "Marwar chair"}, {ID: 2, Name: "Jharokha mirror"}},
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
	if _, err := readInsights(context.Background(), st, p, time.UTC, page.Facts{}); err != context.DeadlineExceeded {
		t.Errorf("with the database not answering: %v, want its error", err)
	}
}
