package accounts

import (
	"context"
	"errors"
	"net/http"
	"time"

	"studio/internal/store"
)

// cookieName is the session cookie's name (page.Kit.Cookie): over HTTPS
// __Host- prefixed, so a browser keeps it only if it is Secure, for this
// host alone and for path /.
func (h *Handler) cookieName(r *http.Request) string { return h.kit.Cookie(r, "studio") }

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
	now := h.kit.Now()
	if h.expired(s) {
		if err := h.sessions.DeleteSession(r.Context(), secret); err != nil {
			h.kit.Log.Error("studio: end expired session", "err", err)
		}
		return store.Session{}, "", errSignedOut
	}
	// One write a minute at most, not one per request.
	if now.Sub(s.Seen) > time.Minute {
		if err := h.sessions.TouchSession(r.Context(), secret, now); err != nil {
			h.kit.Log.Error("studio: touch session", "err", err)
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
	return err == nil && !h.expired(s)
}

// Live says whether r comes with a live session, keeping it alive as a
// page of the workspace does (the previews ask: releases.Sessions).
func (h *Handler) Live(r *http.Request) bool {
	ctx, cancel := context.WithTimeout(r.Context(), h.kit.DatabaseTimeout)
	defer cancel()
	_, _, err := h.session(r.WithContext(ctx))
	return err == nil
}
