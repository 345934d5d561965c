package workspace

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"studio/internal/enquiry"
	"studio/internal/input"
	"studio/internal/store"
	"studio/internal/workspace/accounts"
	"studio/internal/workspace/page"
)

// listStore reads the inbox's list.
type listStore interface {
	Enquiries(ctx context.Context, f store.EnquiryFilter) ([]enquiry.Enquiry, error)
	CountNew(ctx context.Context) (int, error)
	FailedSignInsSince(ctx context.Context, account string, since time.Time) (store.FailedSignIns, error)
}

var inboxPage = newPage("inbox.html")

// listView is the list of enquiries.
type listView struct {
	frame
	Enquiries    []enquiry.Enquiry
	Filter       filterForm
	NewCount     int
	Newer, Older string // the pages before and after, if any
	Return       string // this list's address, for the way back from an enquiry
	Export       string // the CSV of this list, every page of it
	Kinds        []enquiry.Kind
	Statuses     []enquiry.Status
	Products     []Product
	// The account's failed sign-ins in the last FailedSignInsDays days.
	FailedSignIns     store.FailedSignIns
	FailedSignInsDays int
}

func (h *Handler) newListView(title string) *listView {
	return &listView{frame: frame{Title: title}, Kinds: enquiry.Kinds, Statuses: enquiry.Statuses, Products: h.opts.Facts().Products}
}

// Inbox is GET /studio: the list of enquiries (its gate shows the
// sign-in form to anyone not signed in).
func (h *Handler) Inbox(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	p := h.newListView("Enquiries")
	p.Filter = filterFormOf(q)
	p.Return = r.URL.RequestURI()
	p.Export = "/studio/enquiries.csv?" + p.Filter.query().Encode()
	if id, err := strconv.ParseInt(q.Get("deleted"), 10, 64); err == nil {
		p.Notice = "Enquiry #" + strconv.FormatInt(id, 10) + " was deleted."
	}
	if n, err := strconv.Atoi(q.Get("erased")); err == nil && n >= 0 {
		p.Notice = erasedNotice(n)
	}
	f, problems := h.filter(p.Filter)
	p.Problem = strings.Join(problems, " ")
	f.Limit = pageSize + 1
	f.BeforeID, _ = strconv.ParseInt(q.Get("before"), 10, 64)
	f.AfterID, _ = strconv.ParseInt(q.Get("after"), 10, 64)
	// Text the database cannot keep is in no enquiry: no match, and the
	// database is not asked (package input).
	var list []enquiry.Enquiry
	var err error
	if input.Storable(f.Search) {
		list, err = h.list.Enquiries(r.Context(), f)
	}
	if err == nil {
		p.NewCount, err = h.list.CountNew(r.Context())
	}
	if err != nil {
		h.log.Error("studio: list", "err", err)
		h.fail(w, r, http.StatusServiceUnavailable, "Enquiries", "The enquiries cannot be read just now: the database did not answer. Try again in a minute.", "")
		return
	}
	// One more than a page was asked for, to know whether there is more
	// in the direction of travel; the way back is known by having come.
	more := len(list) > pageSize
	if more && f.AfterID > 0 {
		list = list[1:]
	} else if more {
		list = list[:pageSize]
	}
	p.Enquiries = list
	// The holder sees what was tried against their account, so that
	// guesses do not go unnoticed; the list shows without it if need be.
	failed, err := h.list.FailedSignInsSince(r.Context(), page.Actor(r), h.now().Add(-accounts.FailuresShown))
	if err != nil {
		h.log.Error("studio: read failed sign-ins", "err", err)
	}
	p.FailedSignIns, p.FailedSignInsDays = failed, int(accounts.FailuresShown/(24*time.Hour))
	if len(list) > 0 {
		newest, oldest := list[0].ID, list[len(list)-1].ID
		if (f.AfterID > 0 && more) || f.BeforeID > 0 {
			p.Newer = p.Filter.url("after", newest)
		}
		if (f.AfterID == 0 && more) || f.AfterID > 0 {
			p.Older = p.Filter.url("before", oldest)
		}
	}
	h.render(w, r, http.StatusOK, inboxPage, p)
}

// filterForm is the list's filter as the visitor typed it.
type filterForm struct {
	Search, Status, Kind, Product, From, To string
}

// filterKeys are the filter's keys in the list's address.
var filterKeys = []string{"q", "status", "kind", "product", "from", "to"}

func filterFormOf(q url.Values) filterForm {
	return filterForm{Search: q.Get("q"), Status: q.Get("status"), Kind: q.Get("kind"),
		Product: q.Get("product"), From: q.Get("from"), To: q.Get("to")}
}

// query is the filter as the list's query: its status always (the
// default, Open, is an empty one), the rest when chosen.
func (f filterForm) query() url.Values {
	v := url.Values{"status": {f.Status}}
	for key, value := range map[string]string{"q": f.Search, "kind": f.Kind, "product": f.Product, "from": f.From, "to": f.To} {
		if value != "" {
			v.Set(key, value)
		}
	}
	return v
}

// url is the list with this filter, a page before or after id.
func (f filterForm) url(direction string, id int64) string {
	v := f.query()
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

// filter turns the form into a store filter, with a sentence for each
// value it could not use (that part of the filter is left out).
func (h *Handler) filter(form filterForm) (store.EnquiryFilter, []string) {
	var f store.EnquiryFilter
	var problems []string
	switch st := enquiry.Status(form.Status); {
	case form.Status == viewOpen:
		for _, s := range enquiry.Statuses {
			if s.Open() {
				f.Statuses = append(f.Statuses, s)
			}
		}
	case form.Status == viewAll:
	case form.Status == viewSpam:
		f.Spam = true
	case st.Valid():
		f.Statuses = []enquiry.Status{st}
	default:
		problems = append(problems, "There is no status “"+form.Status+"”: showing every status.")
	}
	if form.Kind != "" {
		if k := enquiry.Kind(form.Kind); slices.Contains(enquiry.Kinds, k) {
			f.Kind = k
		} else {
			problems = append(problems, "There is no kind “"+form.Kind+"”: showing every kind.")
		}
	}
	if form.Product != "" {
		id, err := strconv.Atoi(form.Product)
		if err != nil || id <= 0 {
			problems = append(problems, "“"+form.Product+"” is not a product number: showing every product.")
		} else {
			f.ProductID = id
		}
	}
	day := func(value, label string) time.Time {
		if value == "" {
			return time.Time{}
		}
		t, err := time.ParseInLocation("2006-01-02", value, h.opts.Location)
		if err != nil {
			problems = append(problems, "The "+label+" date “"+value+"” is not a date like 2026-11-23: it is left out.")
		}
		return t
	}
	f.From = day(form.From, "from")
	if to := day(form.To, "to"); !to.IsZero() {
		f.To = to.AddDate(0, 0, 1) // the whole of the last day
	}
	f.Search = form.Search
	return f, problems
}
