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

// send writes f with the best encoding the client accepts, answering a
// matching If-None-Match with 304. Bodies are never compressed here: the
// variants were made at build time.
func send(w http.ResponseWriter, r *http.Request, f *file, status int, cacheControl string) {
	body, encoding, etag := f.body, "", f.etag+`"`
	switch accepts := parseAcceptEncoding(r.Header.Get("Accept-Encoding")); {
	case f.brotli != nil && accepts.br:
		body, encoding, etag = f.brotli, "br", f.etag+`-br"`
	case f.gzip != nil && accepts.gzip:
		body, encoding, etag = f.gzip, "gzip", f.etag+`-gz"`
	}

	h := w.Header()
	h.Set("Cache-Control", cacheControl)
	if f.csp != "" {
		h.Set("Content-Security-Policy", f.csp)
	}
	if f.brotli != nil || f.gzip != nil {
		h.Set("Vary", "Accept-Encoding")
	}
	if status == http.StatusOK {
		h.Set("ETag", etag)
		if etagMatches(r.Header.Get("If-None-Match"), etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	h.Set("Content-Type", f.contentType)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if encoding != "" {
		h.Set("Content-Encoding", encoding)
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

type acceptedEncodings struct{ br, gzip bool }

// parseAcceptEncoding reads which of br and gzip the client accepts; a
// coding with q=0 is refused, and * stands for both.
func parseAcceptEncoding(header string) acceptedEncodings {
	var a acceptedEncodings
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if refusedByQuality(params) {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(coding)) {
		case "br":
			a.br = true
		case "gzip", "x-gzip":
			a.gzip = true
		case "*":
			a.br, a.gzip = true, true
		}
	}
	return a
}

func refusedByQuality(params string) bool {
	for _, p := range strings.Split(params, ";") {
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
	for _, candidate := range strings.Split(header, ",") {
		candidate = strings.TrimPrefix(strings.TrimSpace(candidate), "W/")
		if candidate == etag || candidate == "*" {
			return true
		}
	}
	return false
}
