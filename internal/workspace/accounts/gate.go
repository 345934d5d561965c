package accounts

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"studio/internal/store"
	"studio/internal/workspace/page"
)

// Gate is what every page of the workspace is behind (routes.go names
// one of its gates on each route's line).
type Gate struct{ h *Handler }

// Gate is the gate of h's sessions and accounts.
func (h *Handler) Gate() Gate { return Gate{h} }

// SignedIn lets a request through with a live session; others go to the
// sign-in page. Every form it guards must come from this site.
func (g Gate) SignedIn(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			if err := g.h.crossOrigin.Check(r); err != nil {
				g.h.kit.Fail(w, r, http.StatusForbidden, "Refused", "This form must be sent from the studio's own site.", "")
				return
			}
		}
		s, _, err := g.h.session(r)
		switch {
		case errors.Is(err, errSignedOut) && g.h.signInKeeping(w, r, err):
			return
		case errors.Is(err, errSignedOut):
			// The page asked for opens after signing in (the enquiry
			// linked from the studio's mail, say); a form's target does not.
			to := "/studio"
			if r.Method == http.MethodGet {
				if next := page.InboxPath(r.URL.RequestURI()); next != "/studio" {
					to += "?" + url.Values{"next": {next}}.Encode()
				}
			}
			http.Redirect(w, r, to, http.StatusSeeOther)
			return
		case err != nil:
			g.h.kit.NoDatabase(w, r)
			return
		}
		next(w, page.WithAccount(r, s.Account))
	}
}

// signInKeeping answers a form sent with a session that ended (why: err)
// with the sign-in page, which keeps what it was sending (kept.go), and
// tells whether it did: not for a script's request, nor a form with
// nothing to keep, nor one with no session at all (a stranger's body is
// never read).
func (h *Handler) signInKeeping(w http.ResponseWriter, r *http.Request, err error) bool {
	if !keepable(r) || !errors.Is(err, errExpired) && !errors.Is(err, errEndedElsewhere) {
		return false
	}
	kept := keepForm(w, r)
	if kept == nil {
		return false
	}
	v := &signInView{Frame: page.Frame{Title: "Sign in", Notice: signedOutWords(err)}, Kept: kept}
	h.pages.Render(w, r, http.StatusOK, signInPage, v)
	return true
}

// Scripted lets a request through with a session, HTTP Basic auth as an
// account (e-mail and password), or "Authorization: Bearer" and a token
// from `studio token create`; it answers 401 otherwise.
func (g Gate) Scripted(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s, _, err := g.h.session(r)
		switch {
		case err == nil:
			next(w, page.WithAccount(r, s.Account))
			return
		case !errors.Is(err, errSignedOut):
			databaseDidNotAnswer(w)
			return
		}
		if bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
			a, err := g.h.tokens.AccountByToken(r.Context(), SecretHash(strings.TrimSpace(bearer)), g.h.kit.Now())
			if err == nil {
				next(w, page.WithAccount(r, a))
				return
			}
			if !errors.Is(err, store.ErrNoAccount) {
				g.h.kit.Log.Error("studio: read token", "err", err)
				databaseDidNotAnswer(w)
				return
			}
			g.h.kit.Log.Warn("studio: unknown token", "client", g.h.kit.Visitor.IP(r))
		} else if email, password, ok := r.BasicAuth(); ok {
			a, wait, err := g.h.checkPassword(r, email, password)
			switch {
			case wait > 0:
				w.Header().Set("Retry-After", retryAfter(wait))
				http.Error(w, "429 too many failed attempts: wait "+WaitText(wait)+", then try again", http.StatusTooManyRequests)
				return
			case err == nil:
				ctx, cancel := g.h.afterHashing(r)
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

// databaseDidNotAnswer is the plain-text 503 of the scripts' routes.
func databaseDidNotAnswer(w http.ResponseWriter) {
	w.Header().Set("Retry-After", page.RetryAfterSeconds)
	http.Error(w, "503 the database did not answer", http.StatusServiceUnavailable)
}

// SignInFirst is GET /studio's gate: with a live session, as SignedIn;
// without one, the sign-in page in its place (the inbox's address is
// where one signs in).
func (g Gate) SignInFirst(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s, _, err := g.h.session(r)
		switch {
		case errors.Is(err, errSignedOut):
			g.h.pages.Render(w, r, http.StatusOK, signInPage, &signInView{Frame: page.Frame{Title: "Sign in", Notice: signedOutWords(err)}, Next: nextPath(r)})
			return
		case err != nil:
			g.h.kit.NoDatabase(w, r)
			return
		}
		next(w, page.WithAccount(r, s.Account))
	}
}

// OwnerOnly lets an owner through, and tells anyone else, with a 403 page,
// that only an owner can do what (“manage accounts”). It goes inside
// SignedIn or Scripted, which put the account in the context.
func (g Gate) OwnerOnly(what string, next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if a := page.Account(r); a.Role != store.RoleOwner {
			g.h.kit.Log.Warn("studio: refused to staff", "account", a.Email, "path", r.URL.Path)
			g.h.kit.Fail(w, r, http.StatusForbidden, "Only an owner", "Only an owner can "+what+". Your account is staff: ask an owner if you need this done.", "")
			return
		}
		next(w, r)
	}
}
