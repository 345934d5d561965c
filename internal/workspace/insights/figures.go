package insights

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"studio/internal/analytics"
	"studio/internal/store"
	"studio/internal/workspace/page"
)

// figuresReader reads the days' counts of the site's analytics and the
// enquiries of a period.
type figuresReader interface {
	EventsPerDay(ctx context.Context, name, from, to string) ([]store.DayCount, error)
	TopValues(ctx context.Context, name, dim, from, to string, limit int) ([]store.ValueCount, error)
	EnquiriesByProduct(ctx context.Context, from, to time.Time) (map[int64]int64, error)
	CountEnquiries(ctx context.Context, from, to time.Time) (int64, error)
}

// The events the figures read, each checked against the list
// (contracts/analytics-events.json) at start-up: a name that leaves the
// list stops the server instead of showing zeros. customize_request is
// the server's own name for a quote_request of kind customize.
var (
	eventPageView         = analytics.Name("page_view")
	eventViewItem         = analytics.Name("view_item")
	eventQuoteRequest     = analytics.Name("quote_request")
	eventCustomizeRequest = "customize_request"
	eventAddToWishlist    = analytics.Name("add_to_wishlist")
	eventSearch           = analytics.Name("search")
	eventFilterUsage      = analytics.Name("filter_usage")
	eventChat             = analytics.Name("chatbot_interaction")
	eventContactAttempt   = analytics.Name("contact_attempt")
	eventOfferView        = analytics.Name("offer_modal_view")
	eventOfferClose       = analytics.Name("offer_modal_close")
	eventOfferConversion  = analytics.Name("offer_modal_conversion")
)

// The dimensions of the daily counts (internal/store/event_counts.go).
const (
	anyEvent = "*" // every event: a day's visitors

	dimNone     = "" // the event's own count
	dimPath     = "path"
	dimProduct  = "product"
	dimLabel    = "label"
	dimEmpty    = "empty" // how many found nothing
	dimReferrer = "referrer"
	dimCampaign = "campaign"
	dimDevice   = "device"

	// Labels the chat's events carry.
	chatOpened     = "open"
	chatTopic      = "topic: " // followed by the topic
	chatToWhatsApp = "chatbot: whatsapp"
)

const topRows = 20

// tableIDs are the insights' tables, in the page's order.
var tableIDs = []string{"days", "pages", "products", "searches", "filters", "chat", "offer", "referrers", "campaigns", "devices"}

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

// insightsFigures are a period's figures beside the period before's: what
// the insights page and its CSVs show, without the page.
type insightsFigures struct {
	Period, Previous period
	Totals           []total
	// Visitors per day, for the chart.
	Visitors, PreviousVisitors []store.DayCount
	Tables                     []table // in the order of tableIDs
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
	// DayColumns are the columns of days ("2026-11-23"): the CSV keeps
	// them so, the page writes them as the workspace writes a date.
	DayColumns []int
}

// readInsights reads the figures of period p, days in loc, with the
// catalogue's products and the site's pages named.
func readInsights(ctx context.Context, st figuresReader, p period, loc *time.Location, facts page.Facts) (*insightsFigures, error) {
	products := facts.Products
	f := &figureReader{ctx: ctx, st: st, loc: loc}
	prev := p.before()
	visitors, views := f.perDay(anyEvent, p), f.perDay(eventPageView, p)
	prevVisitors, prevViews := f.perDay(anyEvent, prev), f.perDay(eventPageView, prev)
	// Enquiries count each enquiry once, whatever it asks about (a contact
	// message none, a shortlist many); products asked about count each
	// product of each enquiry, whatever its quantity (a quote one, a
	// shortlist of five products five).
	enquiries, prevEnquiries := f.enquiriesByProduct(p), f.enquiriesByProduct(prev)
	asked, prevAsked := f.countEnquiries(p), f.countEnquiries(prev)
	if f.err != nil {
		return nil, f.err
	}
	figures := &insightsFigures{
		Period: p, Previous: prev, Visitors: visitors, PreviousVisitors: prevVisitors,
		Totals: []total{
			newTotal("Visitors", sumVisitors(visitors), sumVisitors(prevVisitors)),
			newTotal("Page views", sumEvents(views), sumEvents(prevViews)),
			newTotal("Enquiries", asked, prevAsked),
			newTotal("Products asked about", sumMap(enquiries), sumMap(prevEnquiries)),
		},
		Tables: []table{
			daysTable(visitors, views, prevVisitors, prevViews),
			{ID: "pages", Title: "Pages most viewed", Header: []string{"Page", "Views", "Visitors"}, Empty: "No page views in this period.",
				Rows: pageRows(f.top(eventPageView, dimPath, p, topRows), facts.PageTitles)},
			productsTable(products, f.top(eventViewItem, dimProduct, p, 0), f.top(eventQuoteRequest, dimProduct, p, 0),
				f.top(eventCustomizeRequest, dimProduct, p, 0), f.top(eventAddToWishlist, dimProduct, p, 0), enquiries),
			{ID: "searches", Title: "Searches", Note: "Those that found nothing first: words the studio may want to answer.",
				Header: []string{"Search", "Times", "Times it found nothing"}, Empty: "No searches in this period.",
				Rows: withEmpty(f.top(eventSearch, dimLabel, p, 0), f.top(eventSearch, dimEmpty, p, 0))},
			{ID: "filters", Title: "Filters chosen on the products page", Header: []string{"Filter", "Times", "Times it found nothing"}, Empty: "No filters chosen in this period.",
				Rows: withEmpty(f.top(eventFilterUsage, dimLabel, p, 0), f.top(eventFilterUsage, dimEmpty, p, 0))},
			chatTable(f.top(eventChat, dimLabel, p, 0), f.top(eventContactAttempt, dimLabel, p, 0)),
			offerTable(f, p),
			{ID: "referrers", Title: "Where visitors came from", Note: "Other sites whose links were followed to this one; visitors who typed the address or came from an app are not listed.",
				Header: []string{"Site", "Page views", "Visitors"}, Empty: "No visits from other sites in this period.",
				Rows: countRows(f.top(eventPageView, dimReferrer, p, topRows))},
			{ID: "campaigns", Title: "Campaigns", Note: "Links with utm_source and utm_campaign in them, as source / campaign.",
				Header: []string{"Source / campaign", "Page views", "Visitors"}, Empty: "No campaign links in this period.",
				Rows: countRows(f.top(eventPageView, dimCampaign, p, topRows))},
			devicesTable(f.top(anyEvent, dimDevice, p, 0)),
		},
	}
	if f.err != nil {
		return nil, f.err
	}
	return figures, nil
}

// figureReader asks the store for counts until the first error, which it
// keeps; after that it asks nothing more and returns none.
type figureReader struct {
	ctx context.Context
	st  figuresReader
	loc *time.Location
	err error
}

func (f *figureReader) top(name, dim string, in period, limit int) []store.ValueCount {
	if f.err != nil {
		return nil
	}
	var v []store.ValueCount
	v, f.err = f.st.TopValues(f.ctx, name, dim, in.From, in.To, limit)
	return v
}

func (f *figureReader) perDay(name string, in period) []store.DayCount {
	if f.err != nil {
		return nil
	}
	var v []store.DayCount
	v, f.err = f.st.EventsPerDay(f.ctx, name, in.From, in.To)
	return v
}

func (f *figureReader) enquiriesByProduct(in period) map[int64]int64 {
	if f.err != nil {
		return nil
	}
	var m map[int64]int64
	m, f.err = f.st.EnquiriesByProduct(f.ctx, f.dayStart(in.From), f.dayStart(in.To).AddDate(0, 0, 1))
	return m
}

func (f *figureReader) countEnquiries(in period) int64 {
	if f.err != nil {
		return 0
	}
	var n int64
	n, f.err = f.st.CountEnquiries(f.ctx, f.dayStart(in.From), f.dayStart(in.To).AddDate(0, 0, 1))
	return n
}

// dayStart is the first moment of a day in the studio's time zone.
func (f *figureReader) dayStart(day string) time.Time {
	t, _ := time.ParseInLocation(time.DateOnly, day, f.loc)
	return t
}

// daysTable gives each day of the period beside the same day of the one
// before.
func daysTable(visitors, views, prevVisitors, prevViews []store.DayCount) table {
	days := table{ID: "days", Title: "Visitors and page views per day", Header: []string{"Day", "Visitors", "Page views", "Same day of the period before", "Visitors then", "Page views then"},
		DayColumns: []int{0, 3}}
	for i := range visitors {
		row := []string{visitors[i].Day, itoa(visitors[i].Visitors), itoa(at(views, i).Events)}
		if i < len(prevVisitors) {
			row = append(row, prevVisitors[i].Day, itoa(prevVisitors[i].Visitors), itoa(at(prevViews, i).Events))
		}
		days.Rows = append(days.Rows, row)
	}
	return days
}

// countRows are rows of each value, its events and its visitors.
func countRows(values []store.ValueCount) [][]string {
	var rows [][]string
	for _, v := range values {
		rows = append(rows, []string{v.Value, itoa(v.Events), itoa(v.Visitors)})
	}
	return rows
}

// pageRows are the pages' counts, each page named by its title; one the
// site no longer has (a product taken out) by its path.
func pageRows(values []store.ValueCount, titles map[string]string) [][]string {
	rows := countRows(values)
	for _, row := range rows {
		if title := titles[row[0]]; title != "" {
			row[0] = title
		}
	}
	return rows
}

// chatTable is the chat: conversations opened first, then hand-overs to
// WhatsApp, then each topic asked.
func chatTable(chat, contacts []store.ValueCount) table {
	t := table{ID: "chat", Title: "The chat", Header: []string{"What", "Times", "Visitors"}, Empty: "The chat was not opened in this period."}
	var topics []store.ValueCount
	for _, v := range chat {
		switch {
		case v.Value == chatOpened:
			t.Rows = append([][]string{{"Conversations opened", itoa(v.Events), itoa(v.Visitors)}}, t.Rows...)
		case strings.HasPrefix(v.Value, chatTopic):
			topics = append(topics, v)
		}
	}
	for _, v := range contacts {
		if v.Value == chatToWhatsApp {
			t.Rows = append(t.Rows, []string{"Handed over to WhatsApp", itoa(v.Events), itoa(v.Visitors)})
		}
	}
	for _, v := range topics {
		t.Rows = append(t.Rows, []string{"Topic: " + strings.TrimPrefix(v.Value, chatTopic), itoa(v.Events), itoa(v.Visitors)})
	}
	return t
}

// offerTable is the welcome offer's funnel: shown, closed, taken up.
func offerTable(f *figureReader, p period) table {
	t := table{ID: "offer", Title: "The welcome offer", Header: []string{"What", "Times", "Visitors"}}
	for _, e := range []struct{ name, label string }{{eventOfferView, "Shown"}, {eventOfferClose, "Closed"}, {eventOfferConversion, "Taken up (opened WhatsApp)"}} {
		v := at(f.top(e.name, dimNone, p, 0), 0)
		t.Rows = append(t.Rows, []string{e.label, itoa(v.Events), itoa(v.Visitors)})
	}
	return t
}

// devicesTable is the visitors on each kind of device, and their share.
func devicesTable(devices []store.ValueCount) table {
	t := table{ID: "devices", Title: "Phone or desktop", Header: []string{"Device", "Visitors", "Share"}, Empty: "No visitors in this period."}
	var all int64
	for _, v := range devices {
		all += v.Visitors
	}
	for _, v := range devices {
		t.Rows = append(t.Rows, []string{v.Value, itoa(v.Visitors), percent(v.Visitors, all)})
	}
	return t
}

// productsTable is the funnel of each product: looked at, its dialogs
// opened, put in a shortlist, enquiries received; the most looked at first.
func productsTable(products []page.Product, views, quotes, customs, shortlisted []store.ValueCount, enquiries map[int64]int64) table {
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
	for _, p := range products {
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
