package page

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
)

// Policy is the pages' Content-Security-Policy: the layout's one inline
// stylesheet, its scripts (FollowJS, BusyJS) and the scripts given (inline
// texts; the workspace has one, which sends photographs to the site's own
// address), by their hashes, and nothing else.
func Policy(scripts ...string) string {
	style := LayoutHTML[strings.Index(LayoutHTML, "<style>")+len("<style>") : strings.Index(LayoutHTML, "</style>")]
	var scriptSources []string
	for _, s := range append([]string{FollowJS, BusyJS}, scripts...) {
		scriptSources = append(scriptSources, sourceHash(s))
	}
	return "default-src 'none'; img-src 'self'; style-src " + sourceHash(style) + "; script-src " + strings.Join(scriptSources, " ") +
		"; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
}

// sourceHash is the policy's source expression of an inline text.
func sourceHash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// PrivateHeaders are the headers of every answer of the workspace: never
// kept, indexed or framed, under policy (Policy).
func PrivateHeaders(w http.ResponseWriter, policy string) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Robots-Tag", "noindex")
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("Content-Security-Policy", policy)
	w.Header().Set("Referrer-Policy", "same-origin")
}
