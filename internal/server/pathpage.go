package server

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"net/url"
	"strconv"
	"sync"
)

// The prerendered pages that name the address they are sent for: the home
// page's, sent for an unknown path, and the products list's, sent for an
// unknown product (web/app/lib/paths.ts, NOT_FOUND_PATH and
// UNKNOWN_PRODUCT_PATH). Each says "There is no page at /xyz: …"
// (web/app/components/NotFoundNotice.tsx) and is rendered at its own path,
// which it holds as the text of one element: the server puts the path asked
// for there, so the notice is right without JavaScript.
const (
	notFoundPage       = "__not-found/index.html"
	notFoundPath       = "/__not-found"
	unknownProductPage = "product/__not-found/index.html"
	unknownProductPath = "/product/__not-found"
)

// shownPathMax is the longest address a notice shows whole; a longer one is
// cut to this many characters, the last an ellipsis (the front end's rule
// too: web/app/lib/notFound.ts, shownPath; contracts/cases/shown-path.json
// holds both to it).
const shownPathMax = 60

// shownPath is the address a notice names: the path as the request spells
// it (percent-encoded, as the browser's location.pathname, so the page
// hydrates with the same text), cut when very long.
func shownPath(escapedPath string) string {
	runes := []rune(escapedPath)
	if len(runes) <= shownPathMax {
		return escapedPath
	}
	return string(runes[:shownPathMax-1]) + "…"
}

// A pathPage is one of those pages, split where its own path is.
type pathPage struct {
	page       *file  // the page as built: its type and its Content-Security-Policy
	head, tail []byte // its HTML before and after its own path
}

// newPathPage reads the page name of the build, rendered at ownPath. The
// path must be the text of exactly one element (">/__not-found<"), or the
// build is not one this server can fill in.
func newPathPage(client fs.FS, name, ownPath string, page *file) (*pathPage, error) {
	body, err := unpacked(client, name, page.gzip != nil)
	if err != nil {
		return nil, err
	}
	marker := []byte(">" + ownPath + "<")
	if n := bytes.Count(body, marker); n != 1 {
		return nil, fmt.Errorf("server: the client build's %s shows its path %q %d times, not once: run make build", name, ownPath, n)
	}
	at := bytes.Index(body, marker) + 1
	return &pathPage{page: page, head: body[:at], tail: body[at+len(ownPath):]}, nil
}

// fill is the page's HTML naming path (the request's, escaped).
func (p *pathPage) fill(escapedPath string) []byte {
	shown := html.EscapeString(shownPath(escapedPath))
	body := make([]byte, 0, len(p.head)+len(shown)+len(p.tail))
	return append(append(append(body, p.head...), shown...), p.tail...)
}

// gzipWriters are reused: a writer holds 800 KB of tables.
var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed) // a valid level: never an error
	return w
}}

// send answers r with the page naming r's path.
func (p *pathPage) send(w http.ResponseWriter, r *http.Request, status int) {
	sendMade(w, r, p.page, p.fill(r.URL.EscapedPath()), status)
}

// sendMade answers r with body, page as made for this request (its path
// filled in, its chosen options marked: choices.go). Such a body differs by
// request, so it is compressed here, with gzip at its fastest (a 65 KB page
// in a fraction of a millisecond, to 17 KB; BenchmarkPathPage): the other
// pages, the same for everyone, keep their variants made at build time.
func sendMade(w http.ResponseWriter, r *http.Request, page *file, body []byte, status int) {
	h := w.Header()
	h["Cache-Control"] = cacheHTMLHeader
	h["Content-Type"] = page.contentType
	if page.csp != nil {
		h["Content-Security-Policy"] = page.csp
	}
	h["Vary"] = varyAcceptEncoding
	if parseAcceptEncoding(r.Header.Get("Accept-Encoding")).gzip {
		var buf bytes.Buffer
		zw := gzipWriters.Get().(*gzip.Writer)
		zw.Reset(&buf)
		zw.Write(body) // a bytes.Buffer never fails
		zw.Close()
		gzipWriters.Put(zw)
		body = buf.Bytes()
		h["Content-Encoding"] = []string{"gzip"}
	}
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// fillDraftPath is a draft's not-found page (rendered for a preview, at
// the path of one of the two) naming urlPath, as the live site's would.
func fillDraftPath(body []byte, urlPath string) []byte {
	for _, own := range []string{notFoundPath, unknownProductPath} {
		marker := []byte(">" + own + "<")
		if bytes.Count(body, marker) == 1 {
			shown := html.EscapeString(shownPath((&url.URL{Path: urlPath}).EscapedPath()))
			return bytes.Replace(body, marker, []byte(">"+shown+"<"), 1)
		}
	}
	return body
}
