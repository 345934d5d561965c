package page

import (
	"context"
	"net/http"

	"studio/internal/store"
)

type accountKey struct{}

// WithAccount is r made by the account a: the gate that let r through
// (accounts.Gate) says so, and every page after it reads it (Account).
func WithAccount(r *http.Request, a store.Account) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), accountKey{}, a))
}

// Account is the account a request is made by (the zero one before the
// gate).
func Account(r *http.Request) store.Account {
	a, _ := r.Context().Value(accountKey{}).(store.Account)
	return a
}

// Actor is the e-mail of the account a request is made by.
func Actor(r *http.Request) string { return Account(r).Email }
