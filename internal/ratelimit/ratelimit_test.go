package ratelimit

import (
	"testing"
	"time"
)

func TestLimiter(t *testing.T) {
	l := New(2, time.Minute)
	t0 := time.Unix(0, 0)
	for i, c := range []struct {
		key  string
		at   time.Duration
		want bool
		wait time.Duration
	}{
		{"a", 0, true, 0}, {"a", 10 * time.Second, true, 0}, {"a", 20 * time.Second, false, 40 * time.Second},
		{"b", 20 * time.Second, true, 0}, // keys are counted apart
		{"a", 60 * time.Second, true, 0}, {"a", 65 * time.Second, false, 5 * time.Second}, {"a", 70 * time.Second, true, 0},
		{"a", 10 * time.Minute, true, 0}, // after a sweep
	} {
		ok, wait := l.Allow(c.key, t0.Add(c.at))
		if ok != c.want || wait != c.wait {
			t.Errorf("event %d (%s at %v) = %v, %v; want %v, %v", i, c.key, c.at, ok, wait, c.want, c.wait)
		}
	}
}
