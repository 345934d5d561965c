package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"

	"studio/internal/sitecontent"
)

// contentPolicy builds the Content-Security-Policy of the site. Scripts
// come only from the site itself plus, per page, the hashes of the inline
// scripts React Router wrote into that page at build time: no
// 'unsafe-inline', no 'unsafe-eval'. Frames, images and connections are
// limited to what the content needs.
type contentPolicy struct {
	scriptSrc  []string
	styleSrc   []string
	connectSrc []string
	imgSrc     []string
	frameSrc   []string
}

// Google's tag, only when content/site.json names a GA4 measurement id.
var analyticsHosts = []string{"https://www.googletagmanager.com", "https://*.google-analytics.com", "https://*.analytics.google.com"}

func newContentPolicy(content *sitecontent.Content) contentPolicy {
	p := contentPolicy{
		scriptSrc:  []string{"'self'"},
		styleSrc:   []string{"'self'"},
		connectSrc: []string{"'self'"},
		imgSrc:     []string{"'self'"},
		frameSrc:   []string{},
	}
	if origin := originOf(content.Site.Map.EmbedURL); origin != "" {
		p.frameSrc = append(p.frameSrc, origin)
	}
	if content.Site.GA4MeasurementID != "" {
		p.scriptSrc = append(p.scriptSrc, analyticsHosts[0])
		p.connectSrc = append(p.connectSrc, analyticsHosts...)
		p.imgSrc = append(p.imgSrc, analyticsHosts...)
	}
	return p
}

// forPage is the policy of one HTML page, allowing its inline scripts and
// styles (the build inlines each page's stylesheets: web/scripts/first-paint.mjs).
func (p contentPolicy) forPage(scriptHashes, styleHashes []string) string {
	frameSrc := "'none'"
	if len(p.frameSrc) > 0 {
		frameSrc = strings.Join(p.frameSrc, " ")
	}
	directives := []string{
		"default-src 'self'",
		"script-src " + strings.Join(append(slices.Clone(p.scriptSrc), scriptHashes...), " "),
		"style-src " + strings.Join(append(slices.Clone(p.styleSrc), styleHashes...), " "),
		"img-src " + strings.Join(p.imgSrc, " "),
		"font-src 'self'",
		"connect-src " + strings.Join(p.connectSrc, " "),
		"frame-src " + frameSrc,
		"object-src 'none'",
		"base-uri 'none'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}
	return strings.Join(directives, "; ")
}

// defaultPolicy is sent with everything that is not a page (assets, the
// API, redirects): nothing may run or be framed.
const defaultPolicy = "default-src 'none'; img-src 'self'; style-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// inlineHashes returns the CSP hash source of each inline element (script
// or style) of an HTML page, in order of appearance: the body of each
// <script> or <style> without src=, each once. A scan, not a regular
// expression: Go's regexp took 9 s over the 300 KB product lists of a
// 300-product site, and a switch waits for it.
func inlineHashes(html []byte, element string) []string {
	var hashes []string
	start, stop := []byte("<"+element), []byte("</"+element+">")
	for rest := html; ; {
		i := bytes.Index(rest, start)
		if i < 0 {
			return hashes
		}
		rest = rest[i+len(start):]
		if len(rest) > 0 && isWordByte(rest[0]) {
			continue // <scripts…, <styles…: another element
		}
		end := bytes.IndexByte(rest, '>')
		if end < 0 {
			return hashes
		}
		attrs := rest[:end]
		rest = rest[end+1:]
		closing := bytes.Index(rest, stop)
		if closing < 0 {
			return hashes
		}
		body := rest[:closing]
		rest = rest[closing+len(stop):]
		if bytes.Contains(attrs, []byte("src=")) || len(body) == 0 {
			continue
		}
		sum := sha256.Sum256(body)
		hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		if !slices.Contains(hashes, hash) {
			hashes = append(hashes, hash)
		}
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// The headers every response carries, as canonical keys and values made
// once: assigned directly, they cost nothing per request. A list, not a
// map: ranging over a map costs more than assigning its six entries.
var (
	securityHeaders = []struct {
		key   string
		value []string
	}{
		{"Content-Security-Policy", []string{defaultPolicy}},
		{"X-Content-Type-Options", []string{"nosniff"}},
		{"Referrer-Policy", []string{"strict-origin-when-cross-origin"}},
		{"Permissions-Policy", []string{"camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()"}},
		{"Cross-Origin-Opener-Policy", []string{"same-origin"}},
		// No other site may embed the site's responses (pictures, scripts,
		// the API's JSON) in its own pages.
		{"Cross-Origin-Resource-Policy", []string{"same-origin"}},
	}
	hstsHeader = []string{"max-age=63072000; includeSubDomains"}
)

// secureHeaders sets the security headers every response carries. Pages
// replace the default CSP with their own (send). HSTS goes with HTTPS
// only, whether the server's own or a trusted proxy's (IsHTTPS).
func secureHeaders(trusted []netip.Prefix) Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			for _, sh := range securityHeaders {
				h[sh.key] = sh.value
			}
			if IsHTTPS(r, trusted) {
				h["Strict-Transport-Security"] = hstsHeader
			}
			next.ServeHTTP(w, r)
		})
	}
}
