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
	if blocked, wait := l.blocked(key, now); blocked {
		return false, wait
	}
	l.hits[key] = append(l.hits[key], now)
	return true, 0
}

// Blocked tells whether key has used up its events, and for how long yet,
// without recording one: for limits that count only failures.
func (l *Limiter) Blocked(key string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.blocked(key, now)
}

// Add records an event for key at now, whatever its count.
func (l *Limiter) Add(key string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.blocked(key, now) // sweeps and trims
	l.hits[key] = append(l.hits[key], now)
}

// Reset forgets key's events.
func (l *Limiter) Reset(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.hits, key)
}

// blocked trims key's events to the window (and now and then every key's)
// and tells whether it is at its limit. l.mu is held.
func (l *Limiter) blocked(key string, now time.Time) (bool, time.Duration) {
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
	if len(times) == 0 {
		delete(l.hits, key)
		return false, 0
	}
	l.hits[key] = times
	if len(times) >= l.max {
		return true, times[0].Add(l.window).Sub(now)
	}
	return false, 0
}
