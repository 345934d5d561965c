package inbox

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"studio/internal/enquiry"
	"studio/internal/input"
	"studio/internal/store"
	"studio/internal/workspace/accounts"
	"studio/internal/workspace/filter"
	"studio/internal/workspace/page"
)

// PageSize is how many enquiries a page of the list shows.
const PageSize = 50

var inboxPage = newPage("inbox.html")

// listView is the list of enquiries.
type listView struct {
	page.Frame
	Enquiries    []enquiry.Enquiry
	Filter       filter.Form
	NewCount     int
	Newer, Older string // the pages before and after, if any
	Return       string // this list's address, for the way back from an enquiry
	Export       string // the CSV of this list, every page of it
	Kinds        []enquiry.Kind
	Statuses     []enquiry.Status
	Products     []page.Product
	// The account's failed sign-ins in the last FailedSignInsDays days.
	FailedSignIns     store.FailedSignIns
	FailedSignInsDays int
}

func (h *Handler) newListView(title string) *listView {
	return &listView{Frame: page.Frame{Title: title}, Kinds: enquiry.Kinds, Statuses: enquiry.Statuses, Products: h.kit.Facts().Products}
}

// Inbox is GET /studio: the list of enquiries (its gate shows the
// sign-in form to anyone not signed in).
func (h *Handler) Inbox(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	p := h.newListView("Enquiries")
	p.Filter = filter.FormOf(q)
	p.Return = r.URL.RequestURI()
	p.Export = "/studio/enquiries.csv?" + p.Filter.Query().Encode()
	if id, err := strconv.ParseInt(q.Get("deleted"), 10, 64); err == nil {
		p.Notice = "Enquiry #" + strconv.FormatInt(id, 10) + " was deleted."
	}
	if n, err := strconv.Atoi(q.Get("erased")); err == nil && n >= 0 {
		p.Notice = erasedNotice(n)
	}
	f, problems := p.Filter.Filter(h.kit.Location)
	p.Problem = strings.Join(problems, " ")
	f.Limit = PageSize + 1
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
		h.kit.Log.Error("studio: list", "err", err)
		h.kit.Fail(w, r, http.StatusServiceUnavailable, "Enquiries", "The enquiries cannot be read just now: the database did not answer. Try again in a minute.", "")
		return
	}
	// One more than a page was asked for, to know whether there is more
	// in the direction of travel; the way back is known by having come.
	more := len(list) > PageSize
	if more && f.AfterID > 0 {
		list = list[1:]
	} else if more {
		list = list[:PageSize]
	}
	p.Enquiries = list
	// The holder sees what was tried against their account, so that
	// guesses do not go unnoticed; the list shows without it if need be.
	failed, err := h.list.FailedSignInsSince(r.Context(), page.Actor(r), h.kit.Now().Add(-accounts.FailuresShown))
	if err != nil {
		h.kit.Log.Error("studio: read failed sign-ins", "err", err)
	}
	p.FailedSignIns, p.FailedSignInsDays = failed, int(accounts.FailuresShown/(24*time.Hour))
	if len(list) > 0 {
		newest, oldest := list[0].ID, list[len(list)-1].ID
		if (f.AfterID > 0 && more) || f.BeforeID > 0 {
			p.Newer = p.Filter.URL("after", newest)
		}
		if (f.AfterID == 0 && more) || f.AfterID > 0 {
			p.Older = p.Filter.URL("before", oldest)
		}
	}
	h.pages.Render(w, r, http.StatusOK, inboxPage, p)
}
