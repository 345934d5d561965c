package accounts

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"studio/internal/store"
)

// cookieName is the session cookie's name (page.Kit.Cookie): over HTTPS
// __Host- prefixed, so a browser keeps it only if it is Secure, for this
// host alone and for path /.
func (h *Handler) cookieName(r *http.Request) string { return h.kit.Cookie(r, "studio") }

// errSignedOut is session's answer for a request without a live session;
// errExpired and errEndedElsewhere are two of its kinds, which the
// sign-in page tells apart (signedOutWords).
var (
	errSignedOut      = errors.New("studio: not signed in")
	errExpired        = fmt.Errorf("%w: the session expired", errSignedOut)
	errEndedElsewhere = fmt.Errorf("%w: the session was ended from another browser", errSignedOut)
)

// signedOutWords is what the sign-in page says of a session that ended,
// "" when there was none.
func signedOutWords(err error) string {
	switch {
	case errors.Is(err, errEndedElsewhere):
		return "You were signed out from another browser."
	case errors.Is(err, errExpired):
		return "You were signed out: a session ends after 12 hours without use, and 7 days after signing in."
	}
	return ""
}

// session finds the request's live session: errSignedOut (or one of its
// kinds) when there is none, another error when the database did not
// answer (a signed-in person is then told so, not sent to sign in). A
// session that ended is left as it is, so its browser is told why until
// it signs in again; it is cleared once its cookie would be gone too
// (startSession).
func (h *Handler) session(r *http.Request) (store.Session, string, error) {
	s, secret, err := h.readSession(r)
	switch {
	case err != nil:
		return s, secret, err
	case !s.Ended.IsZero():
		return store.Session{}, "", errEndedElsewhere
	case h.expired(s):
		return store.Session{}, "", errExpired
	}
	// One write a minute at most, not one per request.
	if now := h.kit.Now(); now.Sub(s.Seen) > time.Minute {
		h.recordUse(r.Context(), r, secret)
	}
	return s, secret, nil
}

// recordUse keeps when, in which browser and from which network the
// session of secret was last used (Your account shows them).
func (h *Handler) recordUse(ctx context.Context, r *http.Request, secret string) {
	if err := h.sessions.TouchSession(ctx, secret, h.kit.Now(), r.UserAgent(), networkOf(h.kit.Visitor.IP(r))); err != nil {
		h.kit.Log.Error("studio: touch session", "err", err)
	}
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
		h.kit.Log.Error("studio: read session", "err", err)
		return store.Session{}, "", err
	}
	return s, secret, nil
}

// expired says whether s is past its idle or absolute limit.
func (h *Handler) expired(s store.Session) bool {
	now := h.kit.Now()
	return now.Sub(s.Seen) > IdleLimit || now.Sub(s.Created) > AbsoluteLimit
}

// SignedIn says whether r comes with a live session (server.Workspace):
// the analytics leave the studio's own visits out. It only reads: browsing
// the site keeps no session alive. A request without the session cookie,
// a visitor's, is answered before any database work.
func (h *Handler) SignedIn(r *http.Request) bool {
	if _, err := r.Cookie(h.cookieName(r)); err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.kit.DatabaseTimeout)
	defer cancel()
	s, _, err := h.readSession(r.WithContext(ctx))
	return err == nil && s.Ended.IsZero() && !h.expired(s)
}

// Live says whether r comes with a live session, keeping it alive as a
// page of the workspace does (the previews ask: releases.Sessions).
func (h *Handler) Live(r *http.Request) bool {
	ctx, cancel := context.WithTimeout(r.Context(), h.kit.DatabaseTimeout)
	defer cancel()
	_, _, err := h.session(r.WithContext(ctx))
	return err == nil
}
