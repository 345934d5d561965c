package server

import (
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"
)

// Enquiries and sign-ups allowed from one client per window. The counts
// live in each copy of the server: a limit per copy is enough to stop a
// flood, and losing them on restart loses nothing that matters.
const (
	enquiriesPerWindow = 10
	limitWindow        = 10 * time.Minute
)

// limiter allows max events per key in any sliding window.
type limiter struct {
	max    int
	window time.Duration

	mu        sync.Mutex
	hits      map[string][]time.Time
	lastSweep time.Time
}

func newLimiter(max int, window time.Duration) *limiter {
	return &limiter{max: max, window: window, hits: make(map[string][]time.Time)}
}

// allow records an event for key at now, if the key is under its limit;
// otherwise it says how long until the oldest event leaves the window.
func (l *limiter) allow(key string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastSweep) > l.window {
		for k, times := range l.hits {
			if now.Sub(times[len(times)-1]) >= l.window {
				delete(l.hits, k)
			}
		}
		l.lastSweep = now
	}
	times := l.hits[key]
	for len(times) > 0 && now.Sub(times[0]) >= l.window {
		times = times[1:]
	}
	if len(times) >= l.max {
		l.hits[key] = times
		return false, times[0].Add(l.window).Sub(now)
	}
	l.hits[key] = append(times, now)
	return true, 0
}

// clientIP is the address of the visitor: the connection's, or, when the
// connection comes from a trusted proxy, the last address in
// X-Forwarded-For that is not itself a trusted proxy.
func (s *Server) clientIP(r *http.Request) string {
	return clientIP(r, s.trusted)
}

func clientIP(r *http.Request, trusted []netip.Prefix) string {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	ip := ap.Addr().Unmap()
	isTrusted := func(a netip.Addr) bool {
		for _, p := range trusted {
			if p.Contains(a) {
				return true
			}
		}
		return false
	}
	if !isTrusted(ip) {
		return ip.String()
	}
	var hops []string
	for _, h := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(h, ",")...)
	}
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break
		}
		ip = a.Unmap()
		if !isTrusted(ip) {
			break
		}
	}
	return ip.String()
}
