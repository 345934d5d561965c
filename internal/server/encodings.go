package server

import (
	"net/http"
	"strconv"
	"strings"
)

// Cache policies.
const (
	cacheImmutable = "public, max-age=31536000, immutable" // hashed assets: the name changes with the content
	cacheHTML      = "no-cache"                            // pages: always revalidated, answered 304 when unchanged
	cachePublic    = "public, max-age=86400"               // unhashed files (images, favicon): a day, then revalidated
)

var (
	varyAcceptEncoding   = []string{"Accept-Encoding"}
	cacheImmutableHeader = []string{cacheImmutable}
	cacheHTMLHeader      = []string{cacheHTML}
	cachePublicHeader    = []string{cachePublic}
)

func cacheHeader(policy string) []string {
	switch policy {
	case cacheImmutable:
		return cacheImmutableHeader
	case cacheHTML:
		return cacheHTMLHeader
	case cachePublic:
		return cachePublicHeader
	}
	return []string{policy}
}

// sendFile writes f with the best encoding the client accepts, answering a
// matching If-None-Match with 304. Bodies are never compressed here: the
// variants were made at build time (or, for the few generated files, at
// start-up).
func sendFile(w http.ResponseWriter, r *http.Request, f *file, status int, cacheControl string) {
	v := f.identity
	switch accepts := parseAcceptEncoding(r.Header.Get("Accept-Encoding")); {
	case f.brotli != nil && accepts.br:
		v = f.brotli
	case f.gzip != nil && accepts.gzip:
		v = f.gzip
	}

	// Canonical keys assigned directly: http.Header.Set would canonicalise
	// and allocate on every request.
	h := w.Header()
	h["Cache-Control"] = cacheHeader(cacheControl)
	if f.csp != nil {
		h["Content-Security-Policy"] = f.csp
	}
	if f.brotli != nil || f.gzip != nil {
		h["Vary"] = varyAcceptEncoding
	}
	if status == http.StatusOK {
		h["Etag"] = v.headers
		if etagMatches(r.Header.Get("If-None-Match"), v.etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	h["Content-Type"] = f.contentType
	h["Content-Length"] = v.length
	if v.encoding != nil {
		h["Content-Encoding"] = v.encoding
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		v.writeBody(w)
	}
}

type acceptedEncodings struct{ br, gzip bool }

// parseAcceptEncoding reads which of br and gzip the client accepts; a
// coding with q=0 is refused, and * stands for both.
func parseAcceptEncoding(header string) acceptedEncodings {
	var a acceptedEncodings
	for header != "" {
		var part string
		part, header, _ = strings.Cut(header, ",")
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if refusedByQuality(params) {
			continue
		}
		switch coding = strings.TrimSpace(coding); {
		case strings.EqualFold(coding, "br"):
			a.br = true
		case strings.EqualFold(coding, "gzip"), strings.EqualFold(coding, "x-gzip"):
			a.gzip = true
		case coding == "*":
			a.br, a.gzip = true, true
		}
	}
	return a
}

func refusedByQuality(params string) bool {
	for params != "" {
		var p string
		p, params, _ = strings.Cut(params, ";")
		name, value, ok := strings.Cut(strings.TrimSpace(p), "=")
		if ok && strings.EqualFold(strings.TrimSpace(name), "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
			return err != nil || q <= 0
		}
	}
	return false
}

// etagMatches reports whether an If-None-Match header names etag (or *).
// Weak validators match too, as RFC 9110 asks for If-None-Match.
func etagMatches(header, etag string) bool {
	for header != "" {
		var candidate string
		candidate, header, _ = strings.Cut(header, ",")
		candidate = strings.TrimPrefix(strings.TrimSpace(candidate), "W/")
		if candidate == etag || candidate == "*" {
			return true
		}
	}
	return false
}
