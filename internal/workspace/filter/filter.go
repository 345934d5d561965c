// Package filter is the inbox's filter: what the visitor chose in the
// list's address (Form), and the store's filter it becomes. The inbox
// lists with it, and the enquiries' CSV exports what the inbox lists.
package filter

import (
	"net/url"
	"slices"
	"strconv"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store"
)

// Form is the list's filter as the visitor typed it.
type Form struct {
	Search, Status, Kind, Product, From, To string
}

// Keys are the filter's keys in the list's address.
var Keys = []string{"q", "status", "kind", "product", "from", "to"}

// FormOf is the filter of a list's query.
func FormOf(q url.Values) Form {
	return Form{Search: q.Get("q"), Status: q.Get("status"), Kind: q.Get("kind"),
		Product: q.Get("product"), From: q.Get("from"), To: q.Get("to")}
}

// Query is the filter as the list's query: its status always (the
// default, Open, is an empty one), the rest when chosen.
func (f Form) Query() url.Values {
	v := url.Values{"status": {f.Status}}
	for key, value := range map[string]string{"q": f.Search, "kind": f.Kind, "product": f.Product, "from": f.From, "to": f.To} {
		if value != "" {
			v.Set(key, value)
		}
	}
	return v
}

// URL is the list with this filter, a page before or after id.
func (f Form) URL(direction string, id int64) string {
	v := f.Query()
	if f.Status == viewOpen {
		v.Del("status")
	}
	v.Set(direction, strconv.FormatInt(id, 10))
	return "/studio?" + v.Encode()
}

// statusViews are the choices of the status filter besides each status.
const (
	viewOpen = "" // the default: New, Replied and Quoted
	viewAll  = "all"
	viewSpam = "spam"
)

// Filter turns the form into a store filter, its dates days in loc, with
// a sentence for each value it could not use (that part of the filter is
// left out).
func (f Form) Filter(loc *time.Location) (store.EnquiryFilter, []string) {
	var sf store.EnquiryFilter
	var problems []string
	switch st := enquiry.Status(f.Status); {
	case f.Status == viewOpen:
		for _, s := range enquiry.Statuses {
			if s.Open() {
				sf.Statuses = append(sf.Statuses, s)
			}
		}
	case f.Status == viewAll:
	case f.Status == viewSpam:
		sf.Spam = true
	case st.Valid():
		sf.Statuses = []enquiry.Status{st}
	default:
		problems = append(problems, "There is no status “"+f.Status+"”: showing every status.")
	}
	if f.Kind != "" {
		if k := enquiry.Kind(f.Kind); slices.Contains(enquiry.Kinds, k) {
			sf.Kind = k
		} else {
			problems = append(problems, "There is no kind “"+f.Kind+"”: showing every kind.")
		}
	}
	if f.Product != "" {
		id, err := strconv.Atoi(f.Product)
		if err != nil || id <= 0 {
			problems = append(problems, "“"+f.Product+"” is not a product number: showing every product.")
		} else {
			sf.ProductID = id
		}
	}
	day := func(value, label string) time.Time {
		if value == "" {
			return time.Time{}
		}
		t, err := time.ParseInLocation("2006-01-02", value, loc)
		if err != nil {
			problems = append(problems, "The "+label+" date “"+value+"” is not a date like 2026-11-23: it is left out.")
		}
		return t
	}
	sf.From = day(f.From, "from")
	if to := day(f.To, "to"); !to.IsZero() {
		sf.To = to.AddDate(0, 0, 1) // the whole of the last day
	}
	sf.Search = f.Search
	return sf, problems
}
