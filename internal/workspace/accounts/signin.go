package accounts

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"studio/internal/input"
	"studio/internal/store"
	"studio/internal/workspace/page"
)

var signInPage = newPage("sign-in.html")

type signInView struct {
	page.Frame
	Email string    // kept in the form after a failure
	Next  string    // the page first asked for, opened after signing in
	Kept  *keptForm // a form sent after its session ended, sent once signed in (kept.go)
}

// showSignIn is the sign-in form, with a problem and the e-mail typed
// after a failure, and the form it keeps, if any.
func (h *Handler) showSignIn(w http.ResponseWriter, r *http.Request, status int, email, problem string) {
	v := &signInView{Frame: page.Frame{Title: "Sign in", Problem: problem}, Email: email, Next: nextPath(r)}
	if r.Method == http.MethodPost {
		v.Kept = keptFromSignIn(r)
	}
	h.pages.Render(w, r, status, signInPage, v)
}

// nextPath is the page to open after signing in (?next=, or the form's
// next field): a plain path under /studio (inboxPath), or "" for the inbox.
func nextPath(r *http.Request) string {
	next := r.URL.Query().Get("next")
	if r.Method == http.MethodPost {
		next = r.PostFormValue("next")
	}
	if next = page.InboxPath(next); next == "/studio" {
		return ""
	}
	return next
}

var errWrongPassword = errors.New("studio: wrong e-mail or password")

// afterHashing is the context of the database work that follows a
// password's check. The request's deadline (DATABASE_TIMEOUT, set by the
// server) is for the database; argon2's CPU time and its queue are not
// the database's, so what follows them gets a deadline of its own.
func (h *Handler) afterHashing(r *http.Request) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(r.Context()), h.kit.DatabaseTimeout)
}

// checkPassword checks an e-mail and password under the limits on failed
// sign-ins (signInRule): wait > 0 when the pair or the address must wait
// first. Each try is recorded as a failure before its password is checked,
// so tries that come at once count each other; a right password takes it
// back, with the pair's earlier failures.
func (h *Handler) checkPassword(r *http.Request, email, password string) (store.Account, time.Duration, error) {
	ctx, address := r.Context(), h.kit.Visitor.IP(r)
	// Text no database can keep, or longer than any address, is no
	// account's: a wrong e-mail, never a key to look up (or a 5xx). It
	// still counts against the address, as the pair of no e-mail. (It is
	// checked before AccountKey, whose lower-casing would turn bytes that
	// are not UTF-8 into U+FFFD.)
	key := store.AccountKey(email)
	if !input.Storable(email) || len(key) > page.MaxEmailBytes {
		key = ""
	}
	usable := key != "" && input.Storable(password)
	wait, err := h.signIns.ReserveSignIn(ctx, key, address, h.kit.Now(), signInRule)
	if err != nil {
		h.kit.Log.Error("studio: count failed sign-ins", "err", err)
		return store.Account{}, 0, err
	}
	if wait > 0 { // the request's log line (429) says it: no second line for each try of a flood
		return store.Account{}, wait, errWrongPassword
	}
	if !usable {
		h.kit.Log.Warn("studio: failed sign-in", "client", address, "account", key, "why", "text no database can keep")
		return store.Account{}, 0, errWrongPassword
	}
	a, err := h.signIns.AccountByEmail(ctx, key)
	if err != nil && !errors.Is(err, store.ErrNoAccount) {
		h.kit.Log.Error("studio: find account", "err", err)
		return a, 0, err
	}
	// No account (a.Password is ""), or an invited one that has set no
	// password, costs the same argon2 work as a real one (PasswordMatches):
	// timing does not tell which e-mails have accounts or invitations.
	if !PasswordMatches(a.Password, password) || err != nil {
		h.kit.Log.Warn("studio: failed sign-in", "client", address, "account", key)
		return store.Account{}, 0, errWrongPassword
	}
	// The person is in whatever happens here; a failure left behind only
	// costs them one free try.
	ctx, cancel := h.afterHashing(r)
	defer cancel()
	if err := h.signIns.ClearSignInFailures(ctx, key, address); err != nil {
		h.kit.Log.Error("studio: clear failed sign-ins", "err", err)
	}
	return a, 0, nil
}

// SignIn is POST /studio/sign-in.
func (h *Handler) SignIn(w http.ResponseWriter, r *http.Request) {
	if err := h.crossOrigin.Check(r); err != nil {
		h.showSignIn(w, r, http.StatusForbidden, "", "This form must be sent from the studio's own site.")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, h.SignInFormLimit(r))
	email := strings.TrimSpace(r.PostFormValue("email"))
	a, wait, err := h.checkPassword(r, email, r.PostFormValue("password"))
	if !input.Storable(email) {
		email = "" // not shown again in the form
	}
	switch {
	case wait > 0:
		w.Header().Set("Retry-After", retryAfter(wait))
		h.showSignIn(w, r, http.StatusTooManyRequests, email, "Too many failed attempts. Wait "+WaitText(wait)+", then try again.")
		return
	case errors.Is(err, errWrongPassword):
		h.showSignIn(w, r, http.StatusUnauthorized, email, "That e-mail and password do not match an account.")
		return
	case err != nil:
		h.showSignIn(w, r, http.StatusServiceUnavailable, email, "You cannot sign in just now: the database did not answer. Try again in a minute.")
		return
	}
	ctx, cancel := h.afterHashing(r)
	defer cancel()
	h.startSession(ctx, w, r, a)
}

// startSession signs a in on this browser and opens the page first asked
// for (nextPath), or the inbox.
func (h *Handler) startSession(ctx context.Context, w http.ResponseWriter, r *http.Request, a store.Account) {
	secret := NewSecret()
	now := h.kit.Now()
	// Sessions ended or expired are cleared only once their cookie is
	// gone too: until then their browser is told why (session.go).
	if err := h.sessions.CreateSession(ctx, SecretHash(secret), a.ID, now, now.Add(-AbsoluteLimit)); err != nil {
		h.kit.Log.Error("studio: create session", "err", err)
		h.showSignIn(w, r, http.StatusServiceUnavailable, a.Email, "You cannot sign in just now: the database did not answer. Try again in a minute.")
		return
	}
	h.kit.Log.Info("studio: signed in", "account", a.Email, "client", h.kit.Visitor.IP(r))
	h.recordUse(ctx, r, SecretHash(secret))
	h.rememberAddress(ctx, r, a)
	// No Expires: the cookie lives as long as the session may, and the
	// server decides when that ends.
	http.SetCookie(w, &http.Cookie{Name: h.cookieName(r), Value: secret, Path: "/", MaxAge: int(AbsoluteLimit.Seconds()),
		HttpOnly: true, Secure: h.kit.Visitor.IsHTTPS(r), SameSite: http.SameSiteStrictMode})
	if k := keptFromSignIn(r); k != nil {
		h.showSendKept(w, page.WithAccount(r, a), k)
		return
	}
	to := nextPath(r)
	if to == "" {
		to = "/studio"
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// rememberAddress keeps the address an owner signed in at (scheme://host)
// for the mails' links, which lead there when the server is told no
// address of its own (PUBLIC_URL, DOMAIN: cmd/studio). An owner's only:
// staff must not be able to send the owners' password resets elsewhere by
// signing in at a forged Host. Never a request's that anyone may send (the
// reset form's, a visitor's): its Host is the sender's to choose.
func (h *Handler) rememberAddress(ctx context.Context, r *http.Request, a store.Account) {
	if a.Role != store.RoleOwner {
		return
	}
	scheme := "http"
	if h.kit.Visitor.IsHTTPS(r) {
		scheme = "https"
	}
	u, err := url.Parse(scheme + "://" + r.Host)
	if err != nil || u.Host != r.Host || u.Hostname() == "" || u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" {
		h.kit.Log.Warn("studio: the address signed in at is not a host name: not kept for the mails' links", "host", r.Host)
		return
	}
	if err := h.sessions.RecordSignInAddress(ctx, u.Scheme+"://"+u.Host, h.kit.Now()); err != nil {
		h.kit.Log.Error("studio: keep the address signed in at", "err", err)
	}
}

// retryAfter is a wait in whole seconds, rounded up: a client that waits
// that long is let in.
func retryAfter(d time.Duration) string {
	return strconv.Itoa(int((d + time.Second - 1) / time.Second))
}

// WaitText says a wait as a person reads it, rounded up.
func WaitText(d time.Duration) string {
	switch s, m := (d+time.Second-1)/time.Second, (d+time.Minute-1)/time.Minute; {
	case s <= 1:
		return "a second"
	case s < 60:
		return strconv.Itoa(int(s)) + " seconds"
	case m == 1:
		return "a minute"
	default:
		return strconv.Itoa(int(m)) + " minutes"
	}
}

// SignOut is POST /studio/sign-out: the session ends on the server, so a
// copy of the cookie opens nothing afterwards.
func (h *Handler) SignOut(w http.ResponseWriter, r *http.Request) {
	if _, secret, err := h.session(r); err == nil {
		if err := h.sessions.DeleteSession(r.Context(), secret); err != nil {
			h.kit.Log.Error("studio: sign out", "err", err)
			h.kit.Fail(w, r, http.StatusServiceUnavailable, "Sign out", "You are still signed in: the database did not answer. Try again in a minute.", "")
			return
		}
	}
	h.kit.Log.Info("studio: signed out", "account", page.Actor(r))
	h.forgetCookie(w, r)
	if h.signedOut != nil {
		h.signedOut(w, r)
	}
	http.Redirect(w, r, "/studio", http.StatusSeeOther)
}

func (h *Handler) forgetCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: h.cookieName(r), Value: "", Path: "/", MaxAge: -1, HttpOnly: true,
		Secure: h.kit.Visitor.IsHTTPS(r), SameSite: http.SameSiteStrictMode})
}
