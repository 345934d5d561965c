package insights

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"studio/internal/store"
	"studio/internal/workspace/page"
)

// visitorsOnly is a store of the visitors of some days: every other count
// is none, and a day it does not list had no visitors.
type visitorsOnly struct {
	figuresOnly
	visitors map[string]int64 // by day, "2026-11-29"
}

func (v visitorsOnly) EventsPerDay(_ context.Context, name, from, to string) ([]store.DayCount, error) {
	first, _ := time.Parse(time.DateOnly, from)
	last, _ := time.Parse(time.DateOnly, to)
	var list []store.DayCount
	for d := first; !d.After(last); d = d.AddDate(0, 0, 1) {
		c := store.DayCount{Day: d.Format(time.DateOnly)}
		if name == anyEvent {
			c.Visitors = v.visitors[c.Day]
		}
		list = append(list, c)
	}
	return list, nil
}

func (visitorsOnly) RollUpEvents(context.Context, string, int) error { return nil }

// insightsPageAt is the insights page at target, on 29 Nov 2026 in India,
// parsed.
func insightsPageAt(t *testing.T, visitors map[string]int64, target string) *html.Node {
	t.Helper()
	kolkata, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 11, 29, 10, 0, 0, 0, kolkata) }
	kit := page.NewKit(page.Kit{Log: slog.New(slog.DiscardHandler), Location: kolkata, Now: now, Facts: func() page.Facts { return page.Facts{} }})
	h := New(visitorsOnly{visitors: visitors}, kit, 90)
	r := page.WithAccount(httptest.NewRequest("GET", target, nil), store.Account{Email: "asha@studio.example"})
	w := httptest.NewRecorder()
	h.Insights(w, r)
	if w.Code != http.StatusOK {
		t.Fatalf("%s: %d %s", target, w.Code, w.Body)
	}
	doc, err := html.Parse(w.Body)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// find is every element under n that has all of the attributes given as
// name=value pairs ("class=now"); "tag=li" names the element.
func find(n *html.Node, pairs ...string) []*html.Node {
	var found []*html.Node
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && matches(d, pairs) {
			found = append(found, d)
		}
	}
	return found
}

func matches(n *html.Node, pairs []string) bool {
	for _, pair := range pairs {
		name, value, _ := strings.Cut(pair, "=")
		if name == "tag" {
			if n.Data != value {
				return false
			}
			continue
		}
		if !slices.ContainsFunc(n.Attr, func(a html.Attribute) bool {
			return a.Key == name && (a.Val == value || name == "class" && slices.Contains(strings.Fields(a.Val), value))
		}) {
			return false
		}
	}
	return true
}

// one is the only element under n that matches, or fails the test.
func one(t *testing.T, n *html.Node, pairs ...string) *html.Node {
	t.Helper()
	found := find(n, pairs...)
	if len(found) != 1 {
		t.Fatalf("%d elements %v, want one", len(found), pairs)
	}
	return found[0]
}

func attr(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

// text is n's text, its spaces collapsed.
func text(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// texts are the texts of each element.
func texts(list []*html.Node) []string {
	var out []string
	for _, n := range list {
		out = append(out, text(n))
	}
	return out
}

// dots are the points of a path of dots ("M10 100h0M30 50h0"), as "x y".
func dots(path string) []string {
	var points []string
	for _, m := range regexp.MustCompile(`M([\d.]+) ([\d.]+)h0`).FindAllStringSubmatch(path, -1) {
		points = append(points, m[1]+" "+m[2])
	}
	return points
}

// axisDays are the days axis' words under each column, those shown on
// a phone and those shown on a wide screen only ("" where none).
func axisDays(t *testing.T, n *html.Node) (phone, wide []string) {
	t.Helper()
	for _, li := range find(one(t, n, "class=x-axis"), "tag=li") {
		if matches(li, []string{"class=wide"}) {
			phone, wide = append(phone, ""), append(wide, text(li))
		} else {
			phone, wide = append(phone, text(li)), append(wide, "")
		}
	}
	return phone, wide
}

func isEmpty(s string) bool { return s == "" }

// A week with visitors on its last day only: the visitors axis has its
// ticks down to 0, every day is a dot (those without visitors on the 0
// line), the days are named under their dots, and the legend names both
// periods in the workspace's dates.
func TestTheChartHasAxesAndEveryDay(t *testing.T) {
	t.Parallel()
	doc := insightsPageAt(t, map[string]int64{"2026-11-29": 3, "2026-11-20": 1}, "/studio/insights")
	figure := one(t, doc, "tag=figure", "class=chart")
	if got := texts(find(one(t, figure, "class=y-axis"), "tag=li")); strings.Join(got, " ") != "3 2 1 0" {
		t.Errorf("the visitors axis: %q, want 3 2 1 0", got)
	}
	// Seven columns; every other day named on a phone, each on a wide screen.
	if phone, wide := axisDays(t, figure); strings.Join(phone, "|") != "23 Nov||25 Nov||27 Nov||29 Nov" || strings.Join(wide, "|") != "|24 Nov||26 Nov||28 Nov|" {
		t.Errorf("the days axis: %q on a phone, and %q on a wide screen only", phone, wide)
	}
	svg := one(t, figure, "tag=svg", "role=img")
	if attr(svg, "viewBox") != "0 0 140 100" {
		t.Errorf("the plot is %s, want seven columns of 20 and a height of 100", attr(svg, "viewBox"))
	}
	// The days in the middle of their columns; the 29th at the top (3 of 3).
	want := "10 100|30 100|50 100|70 100|90 100|110 100|130 0"
	if got := dots(attr(one(t, svg, "class=now-days"), "d")); strings.Join(got, "|") != want {
		t.Errorf("this period's dots: %q, want %s", got, want)
	}
	if got := attr(one(t, svg, "class=now"), "points"); got != "10,100 30,100 50,100 70,100 90,100 110,100 130,0" {
		t.Errorf("this period's line: %s", got)
	}
	// The 20th, the period before's fifth day, at a third of the height.
	if got := dots(attr(one(t, svg, "class=before-days"), "d")); len(got) != 7 || got[4] != "90 66.67" {
		t.Errorf("the period before's dots: %q", got)
	}
	legend := texts(find(one(t, figure, "tag=figcaption"), "tag=li"))
	if strings.Join(legend, "|") != "This period: 23 Nov 2026 to 29 Nov 2026|Previous 7 days: 16 Nov 2026 to 22 Nov 2026" {
		t.Errorf("the legend: %q", legend)
	}
	for _, date := range find(figure, "tag=span", "class=date") {
		if !regexp.MustCompile(`^\d{1,2} [A-Z][a-z]{2} \d{4}$`).MatchString(text(date)) {
			t.Errorf("a date of the legend: %q", text(date))
		}
	}
	if desc := text(one(t, svg, "tag=desc")); !strings.Contains(desc, "3 in all, at most 3 in a day") || !strings.Contains(desc, "Previous 7 days, 16 Nov 2026 to 22 Nov 2026: 1 in all") {
		t.Errorf("the chart's description: %q", desc)
	}
}

// A period of one day is a dot, not a line from nowhere, under its day.
func TestOneDayIsADot(t *testing.T) {
	t.Parallel()
	doc := insightsPageAt(t, map[string]int64{"2026-11-29": 5}, "/studio/insights?from=2026-11-29&to=2026-11-29")
	figure := one(t, doc, "tag=figure", "class=chart")
	svg := one(t, figure, "tag=svg", "role=img")
	// 5 on an axis to 6.
	if got := dots(attr(one(t, svg, "class=now-days"), "d")); strings.Join(got, "|") != "10 16.67" {
		t.Errorf("the day's dot: %q", got)
	}
	if got := attr(one(t, svg, "class=now"), "points"); strings.Contains(got, " ") {
		t.Errorf("one day draws a line: %s", got)
	}
	if phone, _ := axisDays(t, figure); strings.Join(phone, "|") != "29 Nov" {
		t.Errorf("the days axis: %q", phone)
	}
	if got := texts(find(one(t, figure, "class=y-axis"), "tag=li")); strings.Join(got, " ") != "6 4 2 0" {
		t.Errorf("the visitors axis: %q, want 6 4 2 0", got)
	}
	if legend := text(one(t, figure, "tag=figcaption")); legend != "This period: 29 Nov 2026 Previous day: 28 Nov 2026" {
		t.Errorf("the legend: %q", legend)
	}
}

// 28 days: four named on a phone, more on a wide screen, each 28 a dot.
func TestFourWeeksNameSomeDays(t *testing.T) {
	t.Parallel()
	doc := insightsPageAt(t, nil, "/studio/insights?from=2026-11-02&to=2026-11-29")
	phone, wide := axisDays(t, doc)
	if got := strings.Join(slices.DeleteFunc(phone, isEmpty), "|"); got != "2 Nov|11 Nov|20 Nov|29 Nov" {
		t.Errorf("days named on a phone: %s", got)
	}
	if got := strings.Join(slices.DeleteFunc(wide, isEmpty), "|"); got != "5 Nov|8 Nov|14 Nov|17 Nov|23 Nov|26 Nov" {
		t.Errorf("days named only on a wide screen: %s", got)
	}
	if got := dots(attr(one(t, doc, "class=now-days"), "d")); len(got) != 28 {
		t.Errorf("%d dots, want 28", len(got))
	}
	// No visitors at all: still an axis, from 0 to 1.
	if got := texts(find(one(t, doc, "class=y-axis"), "tag=li")); strings.Join(got, " ") != "1 0" {
		t.Errorf("the visitors axis without visitors: %q", got)
	}
}

// The tables write days as the workspace writes a date, never ISO; a
// table too wide for a phone is stacked there, each cell named by its
// column.
func TestTablesWriteDatesAndNameTheirCells(t *testing.T) {
	t.Parallel()
	doc := insightsPageAt(t, map[string]int64{"2026-11-29": 3}, "/studio/insights")
	days := one(t, doc, "tag=section", "aria-labelledby=table-days")
	table := one(t, days, "tag=table")
	if !matches(table, []string{"class=stacked"}) {
		t.Error("the days table (six columns) is not stacked on a phone")
	}
	header := texts(find(table, "tag=th", "scope=col"))
	rows := find(one(t, table, "tag=tbody"), "tag=tr")
	if len(rows) != 7 {
		t.Fatalf("%d days, want 7", len(rows))
	}
	last := rows[6]
	if got := text(one(t, last, "tag=th", "scope=row")); got != "29 Nov 2026" {
		t.Errorf("the last day is %q, want 29 Nov 2026", got)
	}
	var labels, cells []string
	for _, td := range find(last, "tag=td") {
		labels, cells = append(labels, attr(td, "data-label")), append(cells, text(td))
	}
	if !slices.Equal(labels, header[1:]) {
		t.Errorf("the cells are labelled %q, want the columns' %q", labels, header[1:])
	}
	if strings.Join(cells, "|") != "3|0|22 Nov 2026|0|0" {
		t.Errorf("the last day's cells: %q", cells)
	}
	// No ISO date anywhere in the page's text.
	if iso := regexp.MustCompile(`\d{4}-\d{2}-\d{2}`).FindString(text(one(t, doc, "tag=main"))); iso != "" {
		t.Errorf("the page writes %s", iso)
	}
	// Three columns still read as a table on a phone.
	offer := one(t, insightsPageAt(t, nil, "/studio/insights"), "tag=section", "aria-labelledby=table-offer")
	if matches(one(t, offer, "tag=table"), []string{"class=stacked"}) {
		t.Error("the welcome offer's table (three columns) is stacked")
	}
}

// The visitors axis steps by 1, 2 or 5 times a power of ten, in at most
// four steps, and always has one.
func TestTicks(t *testing.T) {
	t.Parallel()
	for most, want := range map[int64][2]int64{0: {1, 1}, 1: {1, 1}, 3: {1, 3}, 4: {1, 4}, 5: {2, 6}, 8: {2, 8}, 9: {5, 10}, 13: {5, 15}, 21: {10, 30}, 41: {20, 60}, 33000: {10000, 40000}} {
		if step, top := ticks(most); step != want[0] || top != want[1] {
			t.Errorf("ticks(%d) = %d to %d, want %d to %d", most, step, top, want[0], want[1])
		}
	}
}
