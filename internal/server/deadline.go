package server

import (
	"context"
	"net/http"
	"strconv"
	"time"
)

// databaseDeadline gives the database work of a request s.dbTimeout
// (DATABASE_TIMEOUT): past it, every store call of the request returns
// context.DeadlineExceeded and the answer is 503 with Retry-After at once,
// instead of the visitor, and the server's goroutines, waiting on a
// database that has stopped answering. Only the routes that use the
// database are wrapped; pages and assets never wait on it.
func (s *Server) databaseDeadline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), s.dbTimeout)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// setRetryAfter says when to try again, in whole seconds, rounded up.
func setRetryAfter(w http.ResponseWriter, wait time.Duration) {
	w.Header().Set("Retry-After", strconv.Itoa(int((wait+time.Second-1)/time.Second)))
}
