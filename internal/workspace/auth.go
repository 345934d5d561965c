package workspace

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

// sessionStore keeps the sessions of those signed in.
type sessionStore interface {
	CreateSession(ctx context.Context, secretHash string, accountID int64, at, staleBefore time.Time) error
	SessionBySecret(ctx context.Context, secretHash string) (store.Session, error)
	TouchSession(ctx context.Context, secretHash string, at time.Time) error
	DeleteSession(ctx context.Context, secretHash string) error
	DeleteSessions(ctx context.Context, accountID int64) error
	RecordSignInAddress(ctx context.Context, base string, at time.Time) error
}

// signInStore checks an e-mail and password under the limits on failed
// sign-ins.
type signInStore interface {
	ReserveSignIn(ctx context.Context, account, address string, now time.Time, rule store.SignInRule) (time.Duration, error)
	AccountByEmail(ctx context.Context, email string) (store.Account, error)
	ClearSignInFailures(ctx context.Context, account, address string) error
}

// tokenStore finds the account of a script's token.
type tokenStore interface {
	AccountByToken(ctx context.Context, secretHash string, at time.Time) (store.Account, error)
}

var signInPage = newPage("sign-in.html")

type signInView struct {
	frame
	Email string // kept in the form after a failure
	Next  string // the page first asked for, opened after signing in
}

// showSignIn is the sign-in form, with a problem and the e-mail typed
// after a failure.
func (h *Handler) showSignIn(w http.ResponseWriter, r *http.Request, status int, email, problem string) {
	h.render(w, r, status, signInPage, &signInView{frame: frame{Title: "Sign in", Problem: problem}, Email: email, Next: nextPath(r)})
}

// nextPath is the page to open after signing in (?next=, or the form's
// next field): a plain path under /studio (inboxPath), or "" for the inbox.
func nextPath(r *http.Request) string {
	next := r.URL.Query().Get("next")
	if r.Method == http.MethodPost {
		next = r.PostFormValue("next")
	}
	if next = inboxPath(next); next == "/studio" {
		return ""
	}
	return next
}

// Cookie names. Over HTTPS the session cookie is __Host- prefixed, which a
// browser keeps only if it is Secure, for this host alone and for path /;
// plain HTTP (a machine of one's own, in development) cannot have that, so
// it gets a plain name, and each scheme reads only its own.
func (h *Handler) cookieName(r *http.Request) string { return h.hostCookie(r, "studio") }

// hostCookie is the workspace's cookie called name, as this request's
// scheme names it: __Host-name over HTTPS, name over plain HTTP.
func (h *Handler) hostCookie(r *http.Request, name string) string {
	if h.opts.Visitor.IsHTTPS(r) {
		return "__Host-" + name
	}
	return name
}

// errSignedOut is session's answer for a request without a live session.
var errSignedOut = errors.New("studio: not signed in")

// session finds the request's live session, ending it if it has expired:
// errSignedOut when there is none, another error when the database did
// not answer (a signed-in person is then told so, not sent to sign in).
func (h *Handler) session(r *http.Request) (store.Session, string, error) {
	s, secret, err := h.readSession(r)
	if err != nil {
		return s, secret, err
	}
	now := h.now()
	if h.expired(s) {
		if err := h.sessions.DeleteSession(r.Context(), secret); err != nil {
			h.log.Error("studio: end expired session", "err", err)
		}
		return store.Session{}, "", errSignedOut
	}
	// One write a minute at most, not one per request.
	if now.Sub(s.Seen) > time.Minute {
		if err := h.sessions.TouchSession(r.Context(), secret, now); err != nil {
			h.log.Error("studio: touch session", "err", err)
		}
	}
	return s, secret, nil
}

// readSession reads r's session as it is, expired or not, and changes
// nothing.
func (h *Handler) readSession(r *http.Request) (store.Session, string, error) {
	c, err := r.Cookie(h.cookieName(r))
	if err != nil || c.Value == "" {
		return store.Session{}, "", errSignedOut
	}
	secret := SecretHash(c.Value)
	s, err := h.sessions.SessionBySecret(r.Context(), secret)
	if errors.Is(err, store.ErrNoAccount) {
		return store.Session{}, "", errSignedOut
	}
	if err != nil {
		h.log.Error("studio: read session", "err", err)
		return store.Session{}, "", err
	}
	return s, secret, nil
}

// expired says whether s is past its idle or absolute limit.
func (h *Handler) expired(s store.Session) bool {
	now := h.now()
	return now.Sub(s.Seen) > idleLimit || now.Sub(s.Created) > absoluteLimit
}

// noDatabase is the page of a request whose session could not be read.
func (h *Handler) noDatabase(w http.ResponseWriter, r *http.Request) {
	h.fail(w, r, http.StatusServiceUnavailable, "Not now", "The workspace cannot be opened just now: the database did not answer. Try again in a minute.", "")
}

// signedIn lets a request through with a live session; others go to the
// sign-in page. Every form it guards must come from this site.
func (h *Handler) signedIn(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			if err := h.crossOrigin.Check(r); err != nil {
				h.fail(w, r, http.StatusForbidden, "Refused", "This form must be sent from the studio's own site.", "")
				return
			}
		}
		s, _, err := h.session(r)
		switch {
		case errors.Is(err, errSignedOut):
			// The page asked for opens after signing in (the enquiry
			// linked from the studio's mail, say); a form's target does not.
			to := "/studio"
			if r.Method == http.MethodGet {
				if next := inboxPath(r.URL.RequestURI()); next != "/studio" {
					to += "?" + url.Values{"next": {next}}.Encode()
				}
			}
			http.Redirect(w, r, to, http.StatusSeeOther)
			return
		case err != nil:
			h.noDatabase(w, r)
			return
		}
		next(w, page.WithAccount(r, s.Account))
	}
}

// scripted lets a request through with a session, HTTP Basic auth as an
// account (e-mail and password), or "Authorization: Bearer" and a token
// from `studio token create`; it answers 401 otherwise.
func (h *Handler) scripted(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s, _, err := h.session(r)
		switch {
		case err == nil:
			next(w, page.WithAccount(r, s.Account))
			return
		case !errors.Is(err, errSignedOut):
			databaseDidNotAnswer(w)
			return
		}
		if bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
			a, err := h.tokens.AccountByToken(r.Context(), SecretHash(strings.TrimSpace(bearer)), h.now())
			if err == nil {
				next(w, page.WithAccount(r, a))
				return
			}
			if !errors.Is(err, store.ErrNoAccount) {
				h.log.Error("studio: read token", "err", err)
				databaseDidNotAnswer(w)
				return
			}
			h.log.Warn("studio: unknown token", "client", h.opts.Visitor.IP(r))
		} else if email, password, ok := r.BasicAuth(); ok {
			a, wait, err := h.checkPassword(r, email, password)
			switch {
			case wait > 0:
				w.Header().Set("Retry-After", retryAfter(wait))
				http.Error(w, "429 too many failed attempts: wait "+waitText(wait)+", then try again", http.StatusTooManyRequests)
				return
			case err == nil:
				ctx, cancel := h.afterHashing(r)
				defer cancel()
				next(w, page.WithAccount(r.WithContext(ctx), a))
				return
			case !errors.Is(err, errWrongPassword):
				databaseDidNotAnswer(w)
				return
			}
		}
		w.Header().Set("WWW-Authenticate", basicAuthRealm)
		http.Error(w, "401 sign in at /studio, use HTTP Basic auth with an account's e-mail and password, or a token from `studio token create`", http.StatusUnauthorized)
	}
}

var errWrongPassword = errors.New("studio: wrong e-mail or password")

// afterHashing is the context of the database work that follows a
// password's check. The request's deadline (DATABASE_TIMEOUT, set by the
// server) is for the database; argon2's CPU time and its queue are not
// the database's, so what follows them gets a deadline of its own.
func (h *Handler) afterHashing(r *http.Request) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(r.Context()), h.opts.DatabaseTimeout)
}

// checkPassword checks an e-mail and password under the limits on failed
// sign-ins (signInRule): wait > 0 when the pair or the address must wait
// first. Each try is recorded as a failure before its password is checked,
// so tries that come at once count each other; a right password takes it
// back, with the pair's earlier failures.
func (h *Handler) checkPassword(r *http.Request, email, password string) (store.Account, time.Duration, error) {
	ctx, address := r.Context(), h.opts.Visitor.IP(r)
	// Text no database can keep, or longer than any address, is no
	// account's: a wrong e-mail, never a key to look up (or a 5xx). It
	// still counts against the address, as the pair of no e-mail. (It is
	// checked before AccountKey, whose lower-casing would turn bytes that
	// are not UTF-8 into U+FFFD.)
	key := store.AccountKey(email)
	if !input.Storable(email) || len(key) > maxEmailBytes {
		key = ""
	}
	usable := key != "" && input.Storable(password)
	wait, err := h.signIns.ReserveSignIn(ctx, key, address, h.now(), signInRule)
	if err != nil {
		h.log.Error("studio: count failed sign-ins", "err", err)
		return store.Account{}, 0, err
	}
	if wait > 0 { // the request's log line (429) says it: no second line for each try of a flood
		return store.Account{}, wait, errWrongPassword
	}
	if !usable {
		h.log.Warn("studio: failed sign-in", "client", address, "account", key, "why", "text no database can keep")
		return store.Account{}, 0, errWrongPassword
	}
	a, err := h.signIns.AccountByEmail(ctx, key)
	if err != nil && !errors.Is(err, store.ErrNoAccount) {
		h.log.Error("studio: find account", "err", err)
		return a, 0, err
	}
	// No account (a.Password is ""), or an invited one that has set no
	// password, costs the same argon2 work as a real one (PasswordMatches):
	// timing does not tell which e-mails have accounts or invitations.
	if !PasswordMatches(a.Password, password) || err != nil {
		h.log.Warn("studio: failed sign-in", "client", address, "account", key)
		return store.Account{}, 0, errWrongPassword
	}
	// The person is in whatever happens here; a failure left behind only
	// costs them one free try.
	ctx, cancel := h.afterHashing(r)
	defer cancel()
	if err := h.signIns.ClearSignInFailures(ctx, key, address); err != nil {
		h.log.Error("studio: clear failed sign-ins", "err", err)
	}
	return a, 0, nil
}

// SignIn is POST /studio/sign-in.
func (h *Handler) SignIn(w http.ResponseWriter, r *http.Request) {
	if err := h.crossOrigin.Check(r); err != nil {
		h.showSignIn(w, r, http.StatusForbidden, "", "This form must be sent from the studio's own site.")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 8<<10)
	email := strings.TrimSpace(r.PostFormValue("email"))
	a, wait, err := h.checkPassword(r, email, r.PostFormValue("password"))
	if !input.Storable(email) {
		email = "" // not shown again in the form
	}
	switch {
	case wait > 0:
		w.Header().Set("Retry-After", retryAfter(wait))
		h.showSignIn(w, r, http.StatusTooManyRequests, email, "Too many failed attempts. Wait "+waitText(wait)+", then try again.")
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
	now := h.now()
	if err := h.sessions.CreateSession(ctx, SecretHash(secret), a.ID, now, now.Add(-idleLimit)); err != nil {
		h.log.Error("studio: create session", "err", err)
		h.showSignIn(w, r, http.StatusServiceUnavailable, a.Email, "You cannot sign in just now: the database did not answer. Try again in a minute.")
		return
	}
	h.log.Info("studio: signed in", "account", a.Email, "client", h.opts.Visitor.IP(r))
	h.rememberAddress(ctx, r, a)
	// No Expires: the cookie lives as long as the session may, and the
	// server decides when that ends.
	http.SetCookie(w, &http.Cookie{Name: h.cookieName(r), Value: secret, Path: "/", MaxAge: int(absoluteLimit.Seconds()),
		HttpOnly: true, Secure: h.opts.Visitor.IsHTTPS(r), SameSite: http.SameSiteStrictMode})
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
	if h.opts.Visitor.IsHTTPS(r) {
		scheme = "https"
	}
	u, err := url.Parse(scheme + "://" + r.Host)
	if err != nil || u.Host != r.Host || u.Hostname() == "" || u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" {
		h.log.Warn("studio: the address signed in at is not a host name: not kept for the mails' links", "host", r.Host)
		return
	}
	if err := h.sessions.RecordSignInAddress(ctx, u.Scheme+"://"+u.Host, h.now()); err != nil {
		h.log.Error("studio: keep the address signed in at", "err", err)
	}
}

// retryAfter is a wait in whole seconds, rounded up: a client that waits
// that long is let in.
func retryAfter(d time.Duration) string {
	return strconv.Itoa(int((d + time.Second - 1) / time.Second))
}

// waitText says a wait as a person reads it, rounded up.
func waitText(d time.Duration) string {
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
			h.log.Error("studio: sign out", "err", err)
			h.fail(w, r, http.StatusServiceUnavailable, "Sign out", "You are still signed in: the database did not answer. Try again in a minute.", "")
			return
		}
	}
	h.log.Info("studio: signed out", "account", page.Actor(r))
	h.forgetCookie(w, r)
	h.forgetPreview(w, r)
	http.Redirect(w, r, "/studio", http.StatusSeeOther)
}

// SignOutEverywhere is POST /studio/sign-out-everywhere: every session of
// the account ends, on every device.
func (h *Handler) SignOutEverywhere(w http.ResponseWriter, r *http.Request) {
	a := page.Account(r)
	if err := h.sessions.DeleteSessions(r.Context(), a.ID); err != nil {
		h.log.Error("studio: sign out everywhere", "err", err)
		h.fail(w, r, http.StatusServiceUnavailable, "Sign out", "You are still signed in: the database did not answer. Try again in a minute.", "")
		return
	}
	h.log.Info("studio: signed out everywhere", "account", a.Email)
	h.forgetCookie(w, r)
	http.Redirect(w, r, "/studio", http.StatusSeeOther)
}

func (h *Handler) forgetCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: h.cookieName(r), Value: "", Path: "/", MaxAge: -1, HttpOnly: true,
		Secure: h.opts.Visitor.IsHTTPS(r), SameSite: http.SameSiteStrictMode})
}

// databaseDidNotAnswer is the plain-text 503 of the scripts' routes.
func databaseDidNotAnswer(w http.ResponseWriter) {
	w.Header().Set("Retry-After", page.RetryAfterSeconds)
	http.Error(w, "503 the database did not answer", http.StatusServiceUnavailable)
}
