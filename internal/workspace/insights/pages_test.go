package insights

import (
	"log/slog"
	"testing"
	"time"

	"studio/internal/store"
	"studio/internal/workspace/page"
)

// The insights page renders, in the layout, with a zero view model and
// with a full one.
func TestEveryPageRenders(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 3, 2, 8, 30, 0, 0, time.UTC)
	figures := insightsFigures{Period: period{"2026-03-01", "2026-03-02"}, Previous: period{"2026-02-27", "2026-02-28"},
		Totals: []total{newTotal("Visitors", 3, 2)}, Tables: []table{{ID: "pages", Title: "Pages", Header: []string{"Page", "Views"}, Rows: [][]string{{"/", "3"}}}}}
	fixtures := map[page.Name][]page.View{
		insightsPage: {&insightsView{}, &insightsView{Frame: page.Frame{Title: "Insights", Section: "insights"}, insightsFigures: figures, CountedAt: at,
			Presets: []preset{{Label: "Last 7 days", URL: "/studio/insights", Current: true}}, Chart: newChart([]store.DayCount{{Day: "2026-03-01", Visitors: 3}, {Day: "2026-03-02"}}, nil, figures.Period, figures.Previous),
			Shown: showTables(figures.Tables)}},
	}
	pages := page.NewKit(page.Kit{Log: slog.New(slog.DiscardHandler)}).MustParse(templateFiles, pageFiles, nil)
	if err := pages.Check(pageFiles, fixtures); err != nil {
		t.Error(err)
	}
}
