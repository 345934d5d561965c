package server

import (
	"log/slog"
	"net/http"
	"net/netip"
	"time"
)

// Middleware wraps a handler with behaviour shared by every route.
type Middleware func(http.Handler) http.Handler

// chain wraps h in the middleware, listed in the order a request meets
// them: the first one listed runs first (outermost).
func chain(h http.Handler, middleware ...Middleware) http.Handler {
	for i := len(middleware) - 1; i >= 0; i-- {
		h = middleware[i](h)
	}
	return h
}

// statusRecorder remembers the status and size of a response, and when it
// began, for the log and the metrics.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
	start  time.Time
}

// recordResponse wraps w in a statusRecorder started now, or, when an
// outer middleware has wrapped it in one already (the log does, around
// the metrics), returns that one: one wrapper and one start time a
// request, however many middleware look at its response.
func recordResponse(w http.ResponseWriter) *statusRecorder {
	if rec, ok := w.(*statusRecorder); ok {
		return rec
	}
	return &statusRecorder{ResponseWriter: w, start: time.Now()}
}

func (r *statusRecorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}

func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// logRequests writes one structured line per request, with the visitor's
// address (ClientIP: through trusted proxies) and, behind a proxy, the
// proxy's.
//
// The line is the one log.LogAttrs would write, made without its costs
// that buy nothing here: the record is handed to the handler directly,
// without the caller's program counter (the handler does not print the
// source), and the time it ends is read once for both the duration and
// the line.
func logRequests(log *slog.Logger, trusted []netip.Prefix, warning *proxyWarning) Middleware {
	handler := log.Handler()
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rec := recordResponse(w)
			next.ServeHTTP(rec, r)
			warning.check(r)
			if rec.status == 0 {
				rec.status = http.StatusOK
			}
			ctx := r.Context()
			if !handler.Enabled(ctx, slog.LevelInfo) {
				return
			}
			end := time.Now()
			line := slog.NewRecord(end, slog.LevelInfo, "request", 0)
			line.AddAttrs(
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.Int("status", rec.status),
				slog.Int("bytes", rec.bytes),
				slog.Float64("duration_ms", float64(end.Sub(rec.start).Microseconds())/1000),
				slog.String("remote", ClientIP(r, trusted)),
				slog.String("peer", r.RemoteAddr),
			)
			_ = handler.Handle(ctx, line)
		})
	}
}

// recoverPanics turns a panic in a handler into a logged 500, so one bad
// request cannot take the server down.
func recoverPanics(log *slog.Logger) Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				if v := recover(); v != nil {
					if v == http.ErrAbortHandler {
						panic(v)
					}
					log.Error("panic", "path", r.URL.Path, "panic", v)
					http.Error(w, "500 internal server error", http.StatusInternalServerError)
				}
			}()
			next.ServeHTTP(w, r)
		})
	}
}
