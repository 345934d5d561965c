package inbox

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"studio/internal/store"
	"studio/internal/workspace/page"
)

// Erasing a person's data, when they ask to be forgotten (the customer
// page links here): a page that asks, then one POST that does it
// (store.ErasePerson) and goes back to the inbox saying how many
// enquiries it touched.

var confirmErasePage = newPage("confirm-erase.html")

type confirmEraseView struct {
	page.Frame
	Email string
	Back  string // where "Keep it" leads: the page that asked (?return=), or the inbox
}

// erasedAddress reads the address to erase (a query's or a form's
// email): "" when there is none fit to be one.
func erasedAddress(v string) string {
	v = strings.TrimSpace(v)
	if v == "" || len(v) > page.MaxEmailBytes || strings.ContainsAny(v, "\r\n") {
		return ""
	}
	return v
}

// ConfirmErase is GET /studio/customers/erase?email=…: it asks, and
// changes nothing.
// Owners only (routes).
func (h *Handler) ConfirmErase(w http.ResponseWriter, r *http.Request) {
	email := erasedAddress(r.URL.Query().Get("email"))
	if email == "" {
		h.kit.Fail(w, r, http.StatusBadRequest, "Whose data?", "Nothing was erased: the link names no e-mail address.", page.BackPath(r))
		return
	}
	h.pages.Render(w, r, http.StatusOK, confirmErasePage, &confirmEraseView{Frame: page.Frame{Title: "Erase " + email + "’s data?"}, Email: email, Back: page.BackPath(r)})
}

// Erase is POST /studio/customers/erase (form field email).
// Owners only (routes).
func (h *Handler) Erase(w http.ResponseWriter, r *http.Request) {
	email := erasedAddress(r.PostFormValue("email"))
	if email == "" {
		h.kit.Fail(w, r, http.StatusBadRequest, "Whose data?", "Nothing was erased: the form names no e-mail address.", page.BackPath(r))
		return
	}
	n, err := h.erasures.ErasePerson(r.Context(), email, page.Actor(r), h.kit.Now())
	if errors.Is(err, store.ErrNotOverwritten) {
		h.kit.Log.Error("studio: a person's data erased, its old copies not overwritten", "enquiries", n, "account", page.Actor(r), "err", err)
		h.kit.Fail(w, r, http.StatusServiceUnavailable, "Erased, not yet overwritten",
			erasedNotice(n)+" But the database could not overwrite the old copies of their data in its files yet. Erase again in a minute to try once more: there is nothing left to blank, only the copies to overwrite.", page.BackPath(r))
		return
	}
	if err != nil {
		h.kit.StoreFailed(w, r, "erase a person's data", err)
		return
	}
	// The log keeps that it happened, not whose data it was.
	h.kit.Log.Info("studio: a person's data erased", "enquiries", n, "account", page.Actor(r))
	http.Redirect(w, r, "/studio?"+url.Values{"erased": {strconv.Itoa(n)}}.Encode(), http.StatusSeeOther)
}

// erasedNotice is the inbox's notice after an erasure of n enquiries.
func erasedNotice(n int) string {
	if n == 1 {
		return "Erased 1 enquiry of that person."
	}
	return "Erased " + strconv.Itoa(n) + " enquiries of that person."
}
