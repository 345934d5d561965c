package studio

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"studio/internal/store"
)

// The insights: what the site's visitors look for, from the site's own
// analytics (POST /api/events, internal/server/events.go), beside the
// enquiries that followed. Every table is also a CSV.

// Insights is what the insights page reads (a *store.Store).
type Insights interface {
	RollUpEvents(ctx context.Context, today string, keepDays int) error
	EventsPerDay(ctx context.Context, name, from, to string) ([]store.DayCount, error)
	TopValues(ctx context.Context, name, dim, from, to string, limit int) ([]store.ValueCount, error)
	EnquiriesByProduct(ctx context.Context, from, to time.Time) (map[int64]int64, error)
	CountEnquiries(ctx context.Context, from, to time.Time) (int64, error)
}

const (
	defaultRangeDays = 7
	maxRangeDays     = 366
	topRows          = 20
)

// period is a range of days, both ends included, as "YYYY-MM-DD".
type period struct{ From, To string }

func (p period) days() int {
	from, _ := time.Parse(time.DateOnly, p.From)
	to, _ := time.Parse(time.DateOnly, p.To)
	return int(to.Sub(from).Hours()/24) + 1
}

// before is the period of the same length just before p.
func (p period) before() period {
	from, _ := time.Parse(time.DateOnly, p.From)
	n := p.days()
	return period{from.AddDate(0, 0, -n).Format(time.DateOnly), from.AddDate(0, 0, -1).Format(time.DateOnly)}
}

// insightsPage is what the insights page shows.
type insightsPage struct {
	Period, Previous period
	CountedAt        time.Time // when the counts were last made from the events
	Latest           string    // this page's address, asking for the latest counts
	Presets          []preset
	Totals           []total
	Chart            chart
	Tables           []table
}

type preset struct {
	Label, URL string
	Current    bool
}

// total is a figure of the period beside the previous one's.
type total struct {
	Label       string
	Now, Before int64
	Change      string // "+12%", "−3%", "" when there is nothing to compare with
}

// table is one table of the page, and its CSV.
type table struct {
	ID, Title, Note string
	Header          []string
	Rows            [][]string
	Empty           string // said when there are no rows
}

// chart is the visitors per day of the period (a line) and of the one
// before (dashed), drawn in SVG by the template.
type chart struct {
	Width, Height int
	Now, Before   string // polyline points
	Max           int64
	Label         string // what the chart shows, for screen readers
}

var tableIDs = []string{"days", "pages", "products", "searches", "filters", "chat", "offer", "referrers", "campaigns", "devices"}

// Insights is GET /studio/insights: the period's figures, with from and to
// in the query (the last seven days by default).
func (h *Handler) Insights(w http.ResponseWriter, r *http.Request) {
	p, problem := h.period(r)
	data, err := h.insights(r.Context(), p, r.URL.Query().Has("latest"))
	if err != nil {
		h.log.Error("studio: insights", "err", err)
		h.page(w, r, http.StatusServiceUnavailable, &page{Title: "Insights", Problem: "The figures cannot be read just now: the database did not answer. Try again in a minute."})
		return
	}
	q := r.URL.Query()
	q.Set("latest", "")
	data.Latest = "/studio/insights?" + q.Encode()
	h.page(w, r, http.StatusOK, &page{Title: "Insights", Problem: problem, Insights: data})
}

// InsightsCSV is GET /studio/insights.csv?table=…: one table of the page,
// for the same period.
func (h *Handler) InsightsCSV(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("table")
	if !slices.Contains(tableIDs, id) {
		http.Error(w, "400 table must be one of: "+strings.Join(tableIDs, ", "), http.StatusBadRequest)
		return
	}
	p, problem := h.period(r)
	if problem != "" {
		http.Error(w, "400 "+problem, http.StatusBadRequest)
		return
	}
	data, err := h.insights(r.Context(), p, false)
	if err != nil {
		h.log.Error("studio: insights export", "err", err)
		http.Error(w, "500 the database did not answer", http.StatusInternalServerError)
		return
	}
	for _, t := range data.Tables {
		if t.ID == id {
			rows := make([][]string, len(t.Rows))
			for i, row := range t.Rows {
				rows[i] = make([]string, len(row))
				for j, cell := range row {
					rows[i][j] = Neutralise(cell)
				}
			}
			// Named for the period it holds, not the day it was saved.
			writeCSV(w, "insights-"+id+"-"+p.From+"-to-"+p.To, t.Header, rows)
			return
		}
	}
}

// period reads from and to; a wrong one is said, and the default used.
func (h *Handler) period(r *http.Request) (period, string) {
	today := h.now().In(h.opts.Location)
	def := period{today.AddDate(0, 0, 1-defaultRangeDays).Format(time.DateOnly), today.Format(time.DateOnly)}
	q := r.URL.Query()
	if q.Get("from") == "" && q.Get("to") == "" {
		return def, ""
	}
	from, err1 := time.Parse(time.DateOnly, q.Get("from"))
	to, err2 := time.Parse(time.DateOnly, q.Get("to"))
	switch {
	case err1 != nil || err2 != nil:
		return def, "Dates are written as YYYY-MM-DD; showing the last seven days."
	case to.Before(from):
		return def, "The period ends before it starts; showing the last seven days."
	case to.Sub(from) >= maxRangeDays*24*time.Hour:
		return def, fmt.Sprintf("A period is at most %d days; showing the last seven days.", maxRangeDays)
	}
	return period{from.Format(time.DateOnly), to.Format(time.DateOnly)}, ""
}

// RollUp makes the days' counts from the raw events (today's and
// yesterday's again) and deletes events past KeepDays. The server runs it
// every few minutes; the insights page on asking ("Count the latest").
func (h *Handler) RollUp(ctx context.Context) error {
	now := h.now()
	if err := h.store.RollUpEvents(ctx, now.In(h.opts.Location).Format(time.DateOnly), h.opts.KeepDays); err != nil {
		return err
	}
	h.rolled.Lock()
	h.rolledAt = now
	h.rolled.Unlock()
	return nil
}

func (h *Handler) insights(ctx context.Context, p period, latest bool) (*insightsPage, error) {
	today := h.now().In(h.opts.Location).Format(time.DateOnly)
	h.rolled.Lock()
	rolledAt := h.rolledAt
	h.rolled.Unlock()
	// Counting a day's events takes a moment with many of them (half a
	// second for a day of 33,000), so the page reads the counts as they are,
	// unless asked for the latest or none were made since start-up.
	if latest || rolledAt.IsZero() {
		if err := h.RollUp(ctx); err != nil {
			return nil, err
		}
		rolledAt = h.now()
	}
	prev := p.before()
	data := &insightsPage{Period: p, Previous: prev, CountedAt: rolledAt}
	for _, n := range []int{7, 30, 90} {
		pr := period{h.now().In(h.opts.Location).AddDate(0, 0, 1-n).Format(time.DateOnly), today}
		data.Presets = append(data.Presets, preset{Label: fmt.Sprintf("Last %d days", n), URL: "/studio/insights?from=" + pr.From + "&to=" + pr.To, Current: pr == p})
	}

	var err error
	get := func(name, dim string, in period, limit int) []store.ValueCount {
		if err != nil {
			return nil
		}
		var v []store.ValueCount
		v, err = h.store.TopValues(ctx, name, dim, in.From, in.To, limit)
		return v
	}
	perDay := func(name string, in period) []store.DayCount {
		if err != nil {
			return nil
		}
		var v []store.DayCount
		v, err = h.store.EventsPerDay(ctx, name, in.From, in.To)
		return v
	}
	visitors, views := perDay("*", p), perDay("page_view", p)
	prevVisitors, prevViews := perDay("*", prev), perDay("page_view", prev)
	// Enquiries count each enquiry once, whatever it asks about (a contact
	// message none, a shortlist many); pieces asked about count each
	// product of each enquiry (a quote one, a shortlist of five five).
	var enquiries, prevEnquiries map[int64]int64
	var asked, prevAsked int64
	if err == nil {
		enquiries, err = h.store.EnquiriesByProduct(ctx, h.dayStart(p.From), h.dayStart(p.To).AddDate(0, 0, 1))
	}
	if err == nil {
		prevEnquiries, err = h.store.EnquiriesByProduct(ctx, h.dayStart(prev.From), h.dayStart(prev.To).AddDate(0, 0, 1))
	}
	if err == nil {
		asked, err = h.store.CountEnquiries(ctx, h.dayStart(p.From), h.dayStart(p.To).AddDate(0, 0, 1))
	}
	if err == nil {
		prevAsked, err = h.store.CountEnquiries(ctx, h.dayStart(prev.From), h.dayStart(prev.To).AddDate(0, 0, 1))
	}
	if err != nil {
		return nil, err
	}

	data.Totals = []total{
		newTotal("Visitors", sumVisitors(visitors), sumVisitors(prevVisitors)),
		newTotal("Page views", sumEvents(views), sumEvents(prevViews)),
		newTotal("Enquiries", asked, prevAsked),
		newTotal("Pieces asked about", sumMap(enquiries), sumMap(prevEnquiries)),
	}
	data.Chart = newChart(visitors, prevVisitors)

	days := table{ID: "days", Title: "Visitors and page views per day", Header: []string{"Day", "Visitors", "Page views", "Same day of the period before", "Visitors then", "Page views then"}}
	for i := range visitors {
		row := []string{visitors[i].Day, itoa(visitors[i].Visitors), itoa(at(views, i).Events)}
		if i < len(prevVisitors) {
			row = append(row, prevVisitors[i].Day, itoa(prevVisitors[i].Visitors), itoa(at(prevViews, i).Events))
		}
		days.Rows = append(days.Rows, row)
	}

	pages := table{ID: "pages", Title: "Pages most viewed", Header: []string{"Page", "Views", "Visitors"}, Empty: "No page views in this period."}
	for _, v := range get("page_view", "path", p, topRows) {
		pages.Rows = append(pages.Rows, []string{v.Value, itoa(v.Events), itoa(v.Visitors)})
	}

	products := h.productsTable(get("view_item", "product", p, 0), get("quote_request", "product", p, 0), get("customize_request", "product", p, 0), get("add_to_wishlist", "product", p, 0), enquiries)

	searches := table{ID: "searches", Title: "Searches", Note: "Those that found nothing first: words the studio may want to answer.",
		Header: []string{"Search", "Times", "Times it found nothing"}, Empty: "No searches in this period."}
	searches.Rows = withEmpty(get("search", "label", p, 0), get("search", "empty", p, 0))

	filters := table{ID: "filters", Title: "Filters chosen on the products page", Header: []string{"Filter", "Times", "Times it found nothing"}, Empty: "No filters chosen in this period."}
	filters.Rows = withEmpty(get("filter_usage", "label", p, 0), get("filter_usage", "empty", p, 0))

	chat := table{ID: "chat", Title: "The chat", Header: []string{"What", "Times", "Visitors"}, Empty: "The chat was not opened in this period."}
	var topics []store.ValueCount
	for _, v := range get("chatbot_interaction", "label", p, 0) {
		switch {
		case v.Value == "open":
			chat.Rows = append([][]string{{"Conversations opened", itoa(v.Events), itoa(v.Visitors)}}, chat.Rows...)
		case strings.HasPrefix(v.Value, "topic: "):
			topics = append(topics, v)
		}
	}
	for _, v := range get("contact_attempt", "label", p, 0) {
		if v.Value == "chatbot: whatsapp" {
			chat.Rows = append(chat.Rows, []string{"Handed over to WhatsApp", itoa(v.Events), itoa(v.Visitors)})
		}
	}
	for _, v := range topics {
		chat.Rows = append(chat.Rows, []string{"Topic: " + strings.TrimPrefix(v.Value, "topic: "), itoa(v.Events), itoa(v.Visitors)})
	}

	offer := table{ID: "offer", Title: "The welcome offer", Header: []string{"What", "Times", "Visitors"}}
	for _, e := range []struct{ name, label string }{{"offer_modal_view", "Shown"}, {"offer_modal_close", "Closed"}, {"offer_modal_conversion", "Taken up (opened WhatsApp)"}} {
		v := at(get(e.name, "", p, 0), 0)
		offer.Rows = append(offer.Rows, []string{e.label, itoa(v.Events), itoa(v.Visitors)})
	}

	referrers := table{ID: "referrers", Title: "Where visitors came from", Note: "Other sites whose links were followed to this one; visitors who typed the address or came from an app are not listed.",
		Header: []string{"Site", "Page views", "Visitors"}, Empty: "No visits from other sites in this period."}
	for _, v := range get("page_view", "referrer", p, topRows) {
		referrers.Rows = append(referrers.Rows, []string{v.Value, itoa(v.Events), itoa(v.Visitors)})
	}
	campaigns := table{ID: "campaigns", Title: "Campaigns", Note: "Links with utm_source and utm_campaign in them, as source / campaign.",
		Header: []string{"Source / campaign", "Page views", "Visitors"}, Empty: "No campaign links in this period."}
	for _, v := range get("page_view", "campaign", p, topRows) {
		campaigns.Rows = append(campaigns.Rows, []string{v.Value, itoa(v.Events), itoa(v.Visitors)})
	}

	devices := table{ID: "devices", Title: "Phone or desktop", Header: []string{"Device", "Visitors", "Share"}, Empty: "No visitors in this period."}
	deviceCounts := get("*", "device", p, 0)
	var all int64
	for _, v := range deviceCounts {
		all += v.Visitors
	}
	for _, v := range deviceCounts {
		devices.Rows = append(devices.Rows, []string{v.Value, itoa(v.Visitors), percent(v.Visitors, all)})
	}
	if err != nil {
		return nil, err
	}
	data.Tables = []table{days, pages, products, searches, filters, chat, offer, referrers, campaigns, devices}
	return data, nil
}

// productsTable is the funnel of each product: looked at, its dialogs
// opened, put in a shortlist, enquiries received; the most looked at first.
func (h *Handler) productsTable(views, quotes, customs, shortlisted []store.ValueCount, enquiries map[int64]int64) table {
	t := table{ID: "products", Title: "Products: looked at, asked about", Note: "Enquiries count every kind sent from the product's page (quote, customisation) and every shortlist that lists it, spam left out.",
		Header: []string{"Product", "Views", "Visitors", "Quote dialogs opened", "Customise dialogs opened", "Added to a shortlist", "Enquiries"}, Empty: "No product was looked at in this period."}
	byID := func(list []store.ValueCount) map[int64]store.ValueCount {
		m := map[int64]store.ValueCount{}
		for _, v := range list {
			id, _ := strconv.ParseInt(v.Value, 10, 64)
			m[id] = v
		}
		return m
	}
	v, q, c, s := byID(views), byID(quotes), byID(customs), byID(shortlisted)
	type row struct {
		name                                           string
		views, visitors, quotes, customs, shortlist, e int64
	}
	var rows []row
	for _, p := range h.opts.Products {
		id := int64(p.ID)
		r := row{p.Name, v[id].Events, v[id].Visitors, q[id].Events, c[id].Events, s[id].Events, enquiries[id]}
		if r.views+r.quotes+r.customs+r.shortlist+r.e > 0 {
			rows = append(rows, r)
		}
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		if a.views != b.views {
			return int(b.views - a.views)
		}
		return int(b.e - a.e)
	})
	for _, r := range rows {
		t.Rows = append(t.Rows, []string{r.name, itoa(r.views), itoa(r.visitors), itoa(r.quotes), itoa(r.customs), itoa(r.shortlist), itoa(r.e)})
	}
	return t
}

// withEmpty lists values with how often each found nothing, those that
// did first.
func withEmpty(all, empty []store.ValueCount) [][]string {
	none := map[string]int64{}
	for _, v := range empty {
		none[v.Value] = v.Events
	}
	sorted := slices.Clone(all)
	slices.SortStableFunc(sorted, func(a, b store.ValueCount) int {
		if (none[a.Value] > 0) != (none[b.Value] > 0) {
			if none[a.Value] > 0 {
				return -1
			}
			return 1
		}
		return 0
	})
	var rows [][]string
	for _, v := range sorted {
		rows = append(rows, []string{v.Value, itoa(v.Events), itoa(none[v.Value])})
	}
	return rows
}

func newTotal(label string, now, before int64) total {
	t := total{Label: label, Now: now, Before: before}
	if before > 0 {
		change := (now - before) * 100 / before
		t.Change = fmt.Sprintf("%+d%%", change)
	}
	return t
}

func newChart(now, before []store.DayCount) chart {
	c := chart{Width: 600, Height: 160}
	for _, d := range append(slices.Clone(now), before...) {
		c.Max = max(c.Max, d.Visitors)
	}
	points := func(days []store.DayCount) string {
		var b strings.Builder
		for i, d := range days {
			x := 0
			if len(days) > 1 {
				x = i * c.Width / (len(days) - 1)
			}
			y := c.Height
			if c.Max > 0 {
				y = c.Height - int(d.Visitors*int64(c.Height-8)/c.Max)
			}
			fmt.Fprintf(&b, "%d,%d ", x, y)
		}
		return strings.TrimSpace(b.String())
	}
	c.Now, c.Before = points(now), points(before)
	c.Label = fmt.Sprintf("Visitors per day: %d in this period, %d in the period before; at most %d in a day. The table below gives each day.", sumVisitors(now), sumVisitors(before), c.Max)
	return c
}

// dayStart is the first moment of a day in the studio's time zone.
func (h *Handler) dayStart(day string) time.Time {
	t, _ := time.ParseInLocation(time.DateOnly, day, h.opts.Location)
	return t
}

func sumVisitors(days []store.DayCount) (n int64) {
	for _, d := range days {
		n += d.Visitors
	}
	return n
}

func sumEvents(days []store.DayCount) (n int64) {
	for _, d := range days {
		n += d.Events
	}
	return n
}

func sumMap(m map[int64]int64) (n int64) {
	for _, v := range m {
		n += v
	}
	return n
}

// at is the i-th element, or a zero one past the end.
func at[T any](list []T, i int) T {
	var zero T
	if i < len(list) {
		return list[i]
	}
	return zero
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func percent(n, of int64) string {
	if of == 0 {
		return ""
	}
	return strconv.FormatInt((n*100+of/2)/of, 10) + "%"
}

// insightsHTML is the insights page, inside layoutHTML (page.go). The chart
// is inline SVG with presentation attributes (the page's policy allows no
// style attributes); the table of days below it gives the same figures.
const insightsHTML = `
{{define "insights"}}
  <h1>Insights</h1>
  <p class="meta">{{.Period.From}} to {{.Period.To}}, beside {{.Previous.From}} to {{.Previous.To}}. Counted on this server, without cookies: a visitor is counted once a day.</p>
  <p class="meta">Counted up to {{when .CountedAt}}; the counts are brought up to date every five minutes. <a href="{{.Latest}}">Count the latest events now</a></p>
  <nav aria-label="Period" class="actions">
    {{range .Presets}}<a class="button{{if not .Current}} quiet{{end}}" href="{{.URL}}"{{if .Current}} aria-current="true"{{end}}>{{.Label}}</a>{{end}}
  </nav>
  <form class="filter" method="get" action="/studio/insights" aria-label="Period">
    <label>From <input type="date" name="from" value="{{.Period.From}}"></label>
    <label>To <input type="date" name="to" value="{{.Period.To}}"></label>
    <button>Show</button>
  </form>

  <h2>This period and the one before</h2>
  <dl class="totals">{{range .Totals}}
    <div><dt>{{.Label}}</dt><dd>{{.Now}}</dd><dd class="meta">{{.Before}} before{{if .Change}} ({{.Change}}){{end}}</dd></div>
  {{end}}</dl>
  <p class="meta">Enquiries: every kind, spam left out, each counted once. Pieces asked about: each product of each enquiry, so a shortlist of five pieces counts five and a contact message none.</p>

  {{with .Chart}}
  <h2 id="chart-title">Visitors per day</h2>
  <svg class="chart" viewBox="-4 -4 {{.Width}} {{.Height}}" role="img" aria-labelledby="chart-title chart-desc" preserveAspectRatio="none">
    <desc id="chart-desc">{{.Label}}</desc>
    <line x1="0" y1="{{.Height}}" x2="{{.Width}}" y2="{{.Height}}" stroke="#e8d5b5" stroke-width="1"/>
    {{if .Before}}<polyline points="{{.Before}}" fill="none" stroke="#8a6d2f" stroke-width="2" stroke-dasharray="6 5" vector-effect="non-scaling-stroke"/>{{end}}
    {{if .Now}}<polyline points="{{.Now}}" fill="none" stroke="#23305e" stroke-width="3" vector-effect="non-scaling-stroke"/>{{end}}
  </svg>
  <p class="legend meta"><span>Solid line: this period</span> <span>Dashed line: the period before</span> <span>Highest day: {{.Max}} visitors</span></p>
  {{end}}

  {{$period := .Period}}
  {{range .Tables}}
  <section class="insight" aria-labelledby="table-{{.ID}}">
    <h2 id="table-{{.ID}}">{{.Title}}</h2>
    {{if .Note}}<p class="meta">{{.Note}}</p>{{end}}
    {{if .Rows}}
    <div class="table-wrap" tabindex="0" role="group" aria-labelledby="table-{{.ID}}"><table>
      <thead><tr>{{range $i, $h := .Header}}<th scope="col"{{if $i}} class="n"{{end}}>{{$h}}</th>{{end}}</tr></thead>
      <tbody>{{range .Rows}}<tr>{{range $i, $c := .}}{{if $i}}<td class="n">{{$c}}</td>{{else}}<th scope="row">{{$c}}</th>{{end}}{{end}}</tr>{{end}}</tbody>
    </table></div>
    <p><a href="/studio/insights.csv?table={{.ID}}&amp;from={{$period.From}}&amp;to={{$period.To}}" download>{{.Title}} as CSV</a></p>
    {{else}}<p>{{.Empty}}</p>{{end}}
  </section>
  {{end}}
{{end}}
`
