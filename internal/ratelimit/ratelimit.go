// Package ratelimit counts events per key (a client's address) in a
// sliding window. The counts live in one process: a limit per copy of the
// server is enough to stop a flood, and losing them on restart loses
// nothing that matters.
package ratelimit

import (
	"sync"
	"time"
)

// Limiter allows max events per key in any window.
type Limiter struct {
	max    int
	window time.Duration

	mu        sync.Mutex
	hits      map[string][]time.Time
	lastSweep time.Time
}

// New returns a limiter of max events per window.
func New(max int, window time.Duration) *Limiter {
	return &Limiter{max: max, window: window, hits: make(map[string][]time.Time)}
}

// Allow records an event for key at now if the key is under its limit;
// otherwise it says how long until the oldest event leaves the window.
func (l *Limiter) Allow(key string, now time.Time) (bool, time.Duration) {
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
