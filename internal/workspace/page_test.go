package workspace

import (
	"net/http"
	"strings"
	"testing"
)

// The navigation marks the insights page as the current one, and no other.
func TestNavigationMarksTheCurrentPage(t *testing.T) {
	h, _ := setup(t)
	c := signIn(t, h, asha, ashaPassword)
	for target, current := range map[string]bool{"/studio/insights": true, "/studio": false} {
		w := do(h, "GET", target, nil, withCookie(c))
		if got := strings.Contains(w.Body.String(), `href="/studio/insights" aria-current="page"`); w.Code != http.StatusOK || got != current {
			t.Errorf("%s: %d, insights marked current: %v, want %v", target, w.Code, got, current)
		}
	}
}
