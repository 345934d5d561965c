package server

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// Previews: a studio account that asked to preview the editor's draft
// (internal/workspace) sees the site at its real URLs as the draft's
// release (built by internal/publish, never live), each page under a
// banner that says so. Everyone else gets the live release, untouched.

//go:embed preview-banner.html
var bannerFile string

// banner is put first in the body of each preview page. React, hydrating
// the body, skips an element there that it did not render, as long as it
// is not of the type of the first one it did (the skip link, an <a>); and
// nothing may follow the banner before that element, not even a newline.
var banner = []byte(strings.TrimSpace(bannerFile))

// bannerStyle is the banner's stylesheet as a source the preview pages'
// Content-Security-Policy allows.
var bannerStyle = func() string {
	style := bannerFile[strings.Index(bannerFile, "<style>")+len("<style>") : strings.Index(bannerFile, "</style>")]
	sum := sha256.Sum256([]byte(style))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}()

// previewFor is the preview release to answer r from, or nil for the live
// one: for a GET of the site's pages and files (not the workspace's, not
// the API) by someone the workspace says is previewing.
func (s *Server) previewFor(r *http.Request) *release {
	if s.workspace == nil || s.previews.load == nil || r.Method != http.MethodGet && r.Method != http.MethodHead ||
		strings.HasPrefix(r.URL.Path, "/api/") || r.URL.Path == "/studio" || strings.HasPrefix(r.URL.Path, "/studio/") {
		return nil
	}
	id := s.workspace.Previewing(r)
	if id == "" {
		return nil
	}
	rel, err := s.previewRelease(id)
	if err != nil {
		s.log.Error("preview: the release cannot be served; the live one answers", "release", id, "err", err)
		return nil
	}
	return rel
}

// previewRelease makes release id as a switch would, with the banner's
// style allowed in its pages' policies, or returns it made before.
func (s *Server) previewRelease(id string) (*release, error) {
	s.previews.mu.Lock()
	defer s.previews.mu.Unlock()
	if last := s.previews.last; last != nil && last.id == id {
		return last, nil
	}
	client, content, err := s.previews.load(id)
	if err != nil {
		return nil, err
	}
	rel, err := s.makeRelease(id, client, content)
	if err != nil {
		return nil, err
	}
	policy := newContentPolicy(content)
	policy.styleSrc = append(policy.styleSrc, bannerStyle)
	rel.setPolicy(policy)
	s.previews.last = rel
	s.log.Info("preview: loaded", "release", id)
	return rel, nil
}

// servePreview answers r from the preview release rel.
func servePreview(w http.ResponseWriter, r *http.Request, rel *release) {
	r = r.Clone(r.Context())
	// The banner goes into the page as the build wrote it, not a compressed
	// variant; and never a 304, which would show the page the browser
	// holds, the live one's when the draft left it unchanged.
	r.Header.Del("Accept-Encoding")
	r.Header.Del("If-None-Match")
	// A HEAD's length is the page's with the banner; net/http sends no body.
	if r.Method == http.MethodHead {
		r.Method = http.MethodGet
	}
	w.Header()["Studio-Release"] = rel.header
	pw := &previewWriter{ResponseWriter: w}
	rel.routes.ServeHTTP(pw, r)
	pw.finish()
}

var (
	noStoreHeader = []string{"no-store"}
	noIndexHeader = []string{"noindex"}
)

// previewWriter passes a preview's response on, kept out of every cache
// and index, holding an HTML page's body to put the banner in.
type previewWriter struct {
	http.ResponseWriter
	status int           // the handler's, once it has set its headers
	page   *bytes.Buffer // an HTML page's body, held until finish
}

func (pw *previewWriter) WriteHeader(status int) {
	if pw.status != 0 {
		return
	}
	pw.status = status
	h := pw.Header()
	h["Cache-Control"] = noStoreHeader
	h["X-Robots-Tag"] = noIndexHeader
	delete(h, "Etag") // the body is not the one it names
	if strings.HasPrefix(h.Get("Content-Type"), "text/html") {
		pw.page = new(bytes.Buffer)
		return
	}
	pw.ResponseWriter.WriteHeader(status)
}

func (pw *previewWriter) Write(b []byte) (int, error) {
	if pw.status == 0 {
		pw.WriteHeader(http.StatusOK)
	}
	if pw.page != nil {
		return pw.page.Write(b)
	}
	return pw.ResponseWriter.Write(b)
}

// finish sends a held page with the banner.
func (pw *previewWriter) finish() {
	if pw.status == 0 {
		pw.WriteHeader(http.StatusOK)
	}
	if pw.page == nil {
		return
	}
	body := withBanner(pw.page.Bytes())
	pw.Header()["Content-Length"] = []string{strconv.Itoa(len(body))}
	pw.ResponseWriter.WriteHeader(pw.status)
	pw.ResponseWriter.Write(body)
}

// withBanner puts the banner right after page's <body> tag; a page with no
// body (a redirect's few words) is left as it is.
func withBanner(page []byte) []byte {
	start := bytes.Index(page, []byte("<body"))
	if start < 0 {
		return page
	}
	end := bytes.IndexByte(page[start:], '>')
	if end < 0 {
		return page
	}
	at := start + end + 1
	return slices.Concat(page[:at], banner, page[at:])
}
