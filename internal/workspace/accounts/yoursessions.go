package accounts

import (
	"net/http"
	"strconv"

	"studio/internal/store"
	"studio/internal/workspace/page"
)

// One's own sessions on Your account: each named by its browser, system
// and network (devices.go), each other one signed out alone, or all
// others at once after asking. This browser stays signed in; the others
// are told why on their next request (session.go), and what they were
// sending is kept (kept.go).

var signOutOthersPage = newPage("sign-out-others.html")

type sessionRow struct {
	store.SessionInfo
	Browser     string // "Chrome on Android"
	Place       string // "This network", "Local network", "Network 203.0.113.0/24"
	Handle      string // names it in "Sign out this one"
	ThisBrowser bool
}

// sessionRows are the live sessions of account id, this browser's first;
// false when the page could not be made (answered).
func (h *Handler) sessionRows(w http.ResponseWriter, r *http.Request, id int64) ([]sessionRow, bool) {
	_, secret, err := h.readSession(r)
	if err != nil {
		h.kit.NoDatabase(w, r)
		return nil, false
	}
	list, err := h.people.AccountSessions(r.Context(), id)
	if err != nil {
		h.kit.Log.Error("studio: list sessions", "err", err)
		h.kit.NoDatabase(w, r)
		return nil, false
	}
	here := networkOf(h.kit.Visitor.IP(r))
	var rows []sessionRow
	for _, s := range list {
		if h.expired(store.Session{Created: s.Created, Seen: s.Seen}) {
			continue // over, though not cleared yet
		}
		row := sessionRow{SessionInfo: s, Browser: browserLabel(s.UserAgent), Place: placeLabel(s.Network, here),
			Handle: sessionHandle(s.SecretHash), ThisBrowser: s.SecretHash == secret}
		if row.ThisBrowser {
			rows = append([]sessionRow{row}, rows...)
		} else {
			rows = append(rows, row)
		}
	}
	return rows, true
}

type signOutOthersView struct {
	page.Frame
	Others int
}

// ConfirmSignOutOthers is GET /studio/account/sign-out-others: asks first.
func (h *Handler) ConfirmSignOutOthers(w http.ResponseWriter, r *http.Request) {
	rows, ok := h.sessionRows(w, r, page.Account(r).ID)
	if !ok {
		return
	}
	v := &signOutOthersView{Frame: page.Frame{Title: "Sign out everywhere else?", Section: "account"}}
	for _, row := range rows {
		if !row.ThisBrowser {
			v.Others++
		}
	}
	h.pages.Render(w, r, http.StatusOK, signOutOthersPage, v)
}

// SignOutOthers is POST /studio/account/sign-out-others: every session of
// the account but this browser's ends.
func (h *Handler) SignOutOthers(w http.ResponseWriter, r *http.Request) {
	h.endSessions(w, r, "signed-out-others", func(row sessionRow) bool { return !row.ThisBrowser })
}

// SignOutOne is POST /studio/account/sessions/{handle}/sign-out: one other
// session of the account ends.
func (h *Handler) SignOutOne(w http.ResponseWriter, r *http.Request) {
	handle := r.PathValue("handle")
	h.endSessions(w, r, "signed-out-one", func(row sessionRow) bool { return !row.ThisBrowser && row.Handle == handle })
}

// endSessions ends the account's sessions that which picks, then goes
// back to Your account to say done. None picked (one signed out
// meanwhile, or a handle that names none) ends nothing, and says so.
func (h *Handler) endSessions(w http.ResponseWriter, r *http.Request, done string, which func(sessionRow) bool) {
	a := page.Account(r)
	rows, ok := h.sessionRows(w, r, a.ID)
	if !ok {
		return
	}
	var hashes []string
	for _, row := range rows {
		if which(row) {
			hashes = append(hashes, row.SecretHash)
		}
	}
	n, err := h.sessions.EndSessions(r.Context(), a.ID, hashes, store.SessionEndedElsewhere, h.kit.Now())
	if err != nil {
		h.kit.Log.Error("studio: end sessions", "err", err)
		h.kit.Fail(w, r, http.StatusServiceUnavailable, "Not signed out", "No browser was signed out: the database did not answer. Try again in a minute.", "/studio/account")
		return
	}
	if n == 0 && done == "signed-out-one" {
		h.kit.Fail(w, r, http.StatusNotFound, "Already signed out", "That browser is signed out already: its session ended, or was ended from another browser.", "/studio/account")
		return
	}
	h.kit.Log.Info("studio: signed out other browsers", "account", a.Email, "sessions", strconv.Itoa(n))
	http.Redirect(w, r, "/studio/account?done="+done, http.StatusSeeOther)
}
