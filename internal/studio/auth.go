package studio

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"studio/internal/store"
)

// Cookie names. Over HTTPS the session cookie is __Host- prefixed, which a
// browser keeps only if it is Secure, for this host alone and for path /;
// plain HTTP (a machine of one's own, in development) cannot have that, so
// it gets a plain name, and each scheme reads only its own.
const (
	secureCookie = "__Host-studio"
	plainCookie  = "studio"
)

func (h *Handler) cookieName(r *http.Request) string {
	if h.opts.Visitor.IsHTTPS(r) {
		return secureCookie
	}
	return plainCookie
}

type accountKey struct{}

// actor is the e-mail of the account a request is made by.
func actor(r *http.Request) string {
	a, _ := r.Context().Value(accountKey{}).(store.Account)
	return a.Email
}

// session finds the request's live session, ending it if it has expired.
func (h *Handler) session(r *http.Request) (store.Session, string, bool) {
	c, err := r.Cookie(h.cookieName(r))
	if err != nil || c.Value == "" {
		return store.Session{}, "", false
	}
	secret := SecretHash(c.Value)
	s, err := h.store.SessionBySecret(r.Context(), secret)
	if err != nil {
		if !errors.Is(err, store.ErrNoAccount) {
			h.log.Error("studio: read session", "err", err)
		}
		return store.Session{}, "", false
	}
	now := h.now()
	if now.Sub(s.Seen) > idleLimit || now.Sub(s.Created) > absoluteLimit {
		if err := h.store.DeleteSession(r.Context(), secret); err != nil {
			h.log.Error("studio: end expired session", "err", err)
		}
		return store.Session{}, "", false
	}
	// One write a minute at most, not one per request.
	if now.Sub(s.Seen) > time.Minute {
		if err := h.store.TouchSession(r.Context(), secret, now); err != nil {
			h.log.Error("studio: touch session", "err", err)
		}
	}
	return s, secret, true
}

// signedIn lets a request through with a live session; others go to the
// sign-in page. Every form it guards must come from this site.
func (h *Handler) signedIn(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			if err := h.crossOrigin.Check(r); err != nil {
				h.page(w, r, http.StatusForbidden, &page{Title: "Refused", Problem: "This form must be sent from the studio's own site."})
				return
			}
		}
		s, _, ok := h.session(r)
		if !ok {
			http.Redirect(w, r, "/studio", http.StatusSeeOther)
			return
		}
		next(w, r.WithContext(context.WithValue(r.Context(), accountKey{}, s.Account)))
	}
}

// scripted lets a request through with a session, HTTP Basic auth as an
// account (e-mail and password), or "Authorization: Bearer" and a token
// from `studio token create`; it answers 401 otherwise.
func (h *Handler) scripted(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s, _, ok := h.session(r); ok {
			next(w, r.WithContext(context.WithValue(r.Context(), accountKey{}, s.Account)))
			return
		}
		if bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
			a, err := h.store.AccountByToken(r.Context(), SecretHash(strings.TrimSpace(bearer)), h.now())
			if err == nil {
				next(w, r.WithContext(context.WithValue(r.Context(), accountKey{}, a)))
				return
			}
			if !errors.Is(err, store.ErrNoAccount) {
				h.log.Error("studio: read token", "err", err)
				http.Error(w, "503 the database did not answer", http.StatusServiceUnavailable)
				return
			}
			h.log.Warn("studio: unknown token", "client", h.opts.Visitor.IP(r))
		} else if email, password, ok := r.BasicAuth(); ok {
			a, wait, err := h.checkPassword(r, email, password)
			switch {
			case wait > 0:
				w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
				http.Error(w, "429 too many failed attempts: wait, then try again", http.StatusTooManyRequests)
				return
			case err == nil:
				next(w, r.WithContext(context.WithValue(r.Context(), accountKey{}, a)))
				return
			case !errors.Is(err, errWrongPassword):
				http.Error(w, "503 the database did not answer", http.StatusServiceUnavailable)
				return
			}
		}
		w.Header().Set("WWW-Authenticate", basicAuthRealm)
		http.Error(w, "401 sign in at /studio, use HTTP Basic auth with an account's e-mail and password, or a token from `studio token create`", http.StatusUnauthorized)
	}
}

var errWrongPassword = errors.New("studio: wrong e-mail or password")

// checkPassword checks an e-mail and password under the limits on failed
// attempts, per visitor and per account: wait > 0 when either is used up.
// Only failures count, and a success clears the visitor's.
func (h *Handler) checkPassword(r *http.Request, email, password string) (store.Account, time.Duration, error) {
	now := h.now()
	visitorKey, accountLimitKey := "visitor "+h.opts.Visitor.IP(r), "account "+store.AccountKey(email)
	for _, key := range []string{visitorKey, accountLimitKey} {
		if blocked, wait := h.failures.Blocked(key, now); blocked {
			return store.Account{}, wait, errWrongPassword
		}
	}
	a, err := h.store.AccountByEmail(r.Context(), email)
	if err != nil && !errors.Is(err, store.ErrNoAccount) {
		h.log.Error("studio: find account", "err", err)
		return a, 0, err
	}
	hash := a.Password
	if err != nil {
		hash = dummyHash() // as slow as a real check, so timing does not tell which e-mails have accounts
	}
	if !PasswordMatches(hash, password) || err != nil {
		h.failures.Add(visitorKey, now)
		h.failures.Add(accountLimitKey, now)
		h.log.Warn("studio: failed sign-in", "client", h.opts.Visitor.IP(r), "account", store.AccountKey(email))
		return store.Account{}, 0, errWrongPassword
	}
	h.failures.Reset(visitorKey)
	return a, 0, nil
}

// SignIn is POST /studio/sign-in.
func (h *Handler) SignIn(w http.ResponseWriter, r *http.Request) {
	if err := h.crossOrigin.Check(r); err != nil {
		h.page(w, r, http.StatusForbidden, &page{Title: "Sign in", SignIn: true, Problem: "This form must be sent from the studio's own site."})
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 8<<10)
	email := strings.TrimSpace(r.PostFormValue("email"))
	a, wait, err := h.checkPassword(r, email, r.PostFormValue("password"))
	switch {
	case wait > 0:
		w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
		h.page(w, r, http.StatusTooManyRequests, &page{Title: "Sign in", SignIn: true, Email: email,
			Problem: "Too many failed attempts. Wait " + minutes(wait) + ", then try again."})
		return
	case errors.Is(err, errWrongPassword):
		h.page(w, r, http.StatusUnauthorized, &page{Title: "Sign in", SignIn: true, Email: email, Problem: "That e-mail and password do not match an account."})
		return
	case err != nil:
		h.page(w, r, http.StatusServiceUnavailable, &page{Title: "Sign in", SignIn: true, Email: email, Problem: "You cannot sign in just now: the database did not answer. Try again in a minute."})
		return
	}
	secret := NewSecret()
	now := h.now()
	if err := h.store.CreateSession(r.Context(), SecretHash(secret), a.ID, now, now.Add(-idleLimit)); err != nil {
		h.log.Error("studio: create session", "err", err)
		h.page(w, r, http.StatusServiceUnavailable, &page{Title: "Sign in", SignIn: true, Email: email, Problem: "You cannot sign in just now: the database did not answer. Try again in a minute."})
		return
	}
	h.log.Info("studio: signed in", "account", a.Email, "client", h.opts.Visitor.IP(r))
	// No Expires: the cookie lives as long as the session may, and the
	// server decides when that ends.
	http.SetCookie(w, &http.Cookie{Name: h.cookieName(r), Value: secret, Path: "/", MaxAge: int(absoluteLimit.Seconds()),
		HttpOnly: true, Secure: h.opts.Visitor.IsHTTPS(r), SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, "/studio", http.StatusSeeOther)
}

func minutes(d time.Duration) string {
	m := int(d.Minutes()) + 1
	if m == 1 {
		return "a minute"
	}
	return strconv.Itoa(m) + " minutes"
}

// SignOut is POST /studio/sign-out: the session ends on the server, so a
// copy of the cookie opens nothing afterwards.
func (h *Handler) SignOut(w http.ResponseWriter, r *http.Request) {
	if _, secret, ok := h.session(r); ok {
		if err := h.store.DeleteSession(r.Context(), secret); err != nil {
			h.log.Error("studio: sign out", "err", err)
			h.page(w, r, http.StatusServiceUnavailable, &page{Title: "Sign out", Problem: "You are still signed in: the database did not answer. Try again in a minute."})
			return
		}
	}
	h.log.Info("studio: signed out", "account", actor(r))
	h.forgetCookie(w, r)
	http.Redirect(w, r, "/studio", http.StatusSeeOther)
}

// SignOutEverywhere is POST /studio/sign-out-everywhere: every session of
// the account ends, on every device.
func (h *Handler) SignOutEverywhere(w http.ResponseWriter, r *http.Request) {
	a, _ := r.Context().Value(accountKey{}).(store.Account)
	if err := h.store.DeleteSessions(r.Context(), a.ID); err != nil {
		h.log.Error("studio: sign out everywhere", "err", err)
		h.page(w, r, http.StatusServiceUnavailable, &page{Title: "Sign out", Problem: "You are still signed in: the database did not answer. Try again in a minute."})
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
