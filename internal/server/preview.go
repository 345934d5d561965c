package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"studio/internal/sitecontent"
)

// Previews: a studio account that asked to preview the editor's draft
// (internal/workspace) sees the site at its real URLs as the draft makes
// it, each page rendered on request (DraftPages, draftpages.go) and shown
// under a banner that says so. Everyone else gets the live release,
// untouched.

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

// previewTree is the draft's tree to answer r from, or "" for the live
// release: for a GET of the site's pages and files (the routes of page and
// product; not the workspace, the API, the probes) by someone the
// workspace says is previewing. A request with no cookie, every visitor's,
// is answered at once.
func (s *Server) previewTree(r *http.Request, rel *release) string {
	if s.workspace == nil || s.drafts.pages == nil || r.Method != http.MethodGet && r.Method != http.MethodHead || len(r.Header["Cookie"]) == 0 {
		return ""
	}
	if mux, ok := rel.routes.(*http.ServeMux); ok {
		if _, pattern := mux.Handler(r); pattern != pagesPattern && pattern != productPattern {
			return ""
		}
	}
	return s.workspace.Previewing(r)
}

// servePreview answers r from the draft's tree: its pages, their data and
// the files the content makes rendered on request (draftpages.go); the
// code's files, the photographs the live release has, the sitemap and
// robots.txt from the live release rel; a photograph it has not, made.
func (s *Server) servePreview(w http.ResponseWriter, r *http.Request, rel *release, tree string) {
	r = r.Clone(r.Context())
	// The banner goes into the page as rendered, not a compressed
	// variant; and never a 304, which would show the page the browser
	// holds, the live one's when the draft left it unchanged.
	r.Header.Del("Accept-Encoding")
	r.Header.Del("If-None-Match")
	// A HEAD's length is the page's with the banner; net/http sends no body.
	if r.Method == http.MethodHead {
		r.Method = http.MethodGet
	}
	w.Header()["Studio-Release"] = []string{"draft-" + tree}
	pw := &previewWriter{ResponseWriter: w}
	name := strings.TrimPrefix(r.URL.Path, "/")
	switch {
	case strings.HasPrefix(name, "images/") && rel.files[name] == nil && rel.images[name] == nil:
		s.serveDraftImage(pw, r, tree, name)
	case strings.HasPrefix(name, "assets/") && rel.files[name] == nil:
		s.serveDraftAsset(pw, r, name)
	case strings.HasPrefix(name, "assets/"), strings.HasPrefix(name, "images/"), name == "sitemap.xml", name == "robots.txt", !madeByContent(r.URL.Path):
		rel.routes.ServeHTTP(pw, r)
	default:
		s.serveDraft(pw, r, tree)
	}
	pw.finish()
}

// serveDraft answers a page of the draft, or its route data: /_root.data
// is /'s, and /product/7.data is /product/7's whatever its ?_routes names
// (the data of every route of the page, as the build writes it).
func (s *Server) serveDraft(w http.ResponseWriter, r *http.Request, tree string) {
	urlPath := r.URL.Path
	data := strings.HasSuffix(urlPath, ".data")
	if data {
		if urlPath = strings.TrimSuffix(urlPath, ".data"); urlPath == "/_root" {
			urlPath = "/"
		}
	} else if trimmed := strings.TrimRight(urlPath, "/"); trimmed != urlPath && trimmed != "" {
		redirectKeepingQuery(w, r, trimmed, http.StatusMovedPermanently) // one URL per page, as live
		return
	}
	p, err := s.drafts.get(r.Context(), tree, urlPath)
	switch {
	case err != nil:
		s.draftFailed(w, r, tree, err, data)
	case !data:
		sendFile(w, r, p.body, p.status, cacheHTML)
	case p.data == nil:
		http.Error(w, "404 page not found", http.StatusNotFound)
	default:
		sendFile(w, r, p.data, http.StatusOK, cacheHTML)
	}
}

// render asks DraftPages for key's path and makes its files.
func (d *draftPages) render(ctx context.Context, key draftKey) (*draftPage, error) {
	pg, err := d.pages.Page(ctx, key.tree, key.path)
	if err != nil {
		return nil, err
	}
	p := &draftPage{key: key, status: pg.Status, size: len(pg.Body) + len(pg.Data)}
	if p.status == 0 {
		p.status = http.StatusOK
	}
	if p.status == http.StatusNotFound {
		pg.Body = fillDraftPath(pg.Body, key.path) // as live: "There is no page at /xyz"
	}
	p.body = newFile("page.html", pg.Body, nil, nil) // a page's type, unless the render says another
	if pg.Type != "" {
		p.body.contentType = []string{pg.Type}
	}
	if isHTML(p.body.contentType[0]) {
		policy, err := d.policyOf(key.tree)
		if err != nil {
			return nil, err
		}
		p.body.csp = []string{policy.forPage(inlineHashes(pg.Body, "script"), inlineHashes(pg.Body, "style"))}
	}
	if pg.Data != nil && (p.status == http.StatusOK || p.status == http.StatusGone) {
		p.data = newFile("page.data", pg.Data, nil, nil)
	}
	return p, nil
}

// policyOf is tree's pages' Content-Security-Policy as a release's
// (newRelease, setPolicy), the banner's style allowed.
func (d *draftPages) policyOf(tree string) (contentPolicy, error) {
	d.mu.Lock()
	last := d.policy
	d.mu.Unlock()
	if last != nil && last.tree == tree {
		return last.policy, nil
	}
	content, err := d.pages.Content(tree)
	if err != nil {
		return contentPolicy{}, err
	}
	policy := newContentPolicy(content)
	policy.styleSrc = append(policy.styleSrc, bannerStyle)
	d.mu.Lock()
	d.policy = &draftPolicy{tree: tree, policy: policy}
	d.mu.Unlock()
	return policy, nil
}

// serveDraftAsset answers a file of the code the previews are rendered
// with that the live release has not (its pages name the renderer's
// bundle, which a release built by other code does not hold).
func (s *Server) serveDraftAsset(w http.ResponseWriter, r *http.Request, name string) {
	file, err := s.drafts.pages.Asset(name)
	if err != nil {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	w.Header()["Content-Type"] = []string{contentTypeOf(name)}
	http.ServeFile(w, r, file)
}

// serveDraftImage answers an image of the draft that the live release
// has not: a new photograph's variant, made for this request.
func (s *Server) serveDraftImage(w http.ResponseWriter, r *http.Request, tree, name string) {
	if !hashedImage.MatchString(name) {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	file, err := s.drafts.pages.Image(r.Context(), tree, name)
	if err != nil {
		if r.Context().Err() == nil {
			s.log.Warn("preview: an image of the draft could not be made", "tree", tree, "image", name, "err", err)
		}
		http.Error(w, "503 the image could not be made: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	w.Header()["Content-Type"] = []string{contentTypeOf(name)}
	http.ServeFile(w, r, file)
}

//go:embed preview-problem.html
var problemFile string

// problemPage is the page a preview shows where the draft's page would
// be when it cannot be: the draft's problems, or why it was not made.
var problemPage = template.Must(template.New("problem").Parse(problemFile))

type problemView struct {
	Title, Heading string
	Lines          []string
	Problems       []string
}

// draftFailed answers a page of the draft that was not rendered: a draft
// that fails the content check with its problems (200: this is the
// draft, as it is), a render that failed with 503 and why; route data
// with the same words in plain text. The live site is untouched.
func (s *Server) draftFailed(w http.ResponseWriter, r *http.Request, tree string, err error, data bool) {
	if r.Context().Err() != nil {
		return // the browser has gone
	}
	status, view := http.StatusOK, problemView{}
	if problems := (*DraftProblems)(nil); errors.As(err, &problems) {
		view.Title = "Preview: problems in the draft"
		view.Heading = fmt.Sprintf("The draft has %d %s", len(problems.Problems), plural(len(problems.Problems), "problem", "problems"))
		view.Lines = []string{"The page is shown here once they are corrected in the workspace. The live site is unchanged."}
		view.Problems = problems.Problems
	} else {
		s.log.Error("preview: a page of the draft could not be made", "tree", tree, "path", r.URL.Path, "err", err)
		status = http.StatusServiceUnavailable
		view.Title, view.Heading = "Preview: not made", "The preview could not be made"
		view.Lines = []string{"The preview could not be made: " + err.Error(), "The live site is unchanged. Reload the page to try again."}
	}
	if data {
		http.Error(w, strings.Join(append(append([]string{view.Heading}, view.Lines...), view.Problems...), "\n"), status)
		return
	}
	var page bytes.Buffer
	problemPage.Execute(&page, view)
	h := w.Header()
	h["Content-Type"] = []string{contentTypes[".html"]}
	h["Content-Security-Policy"] = []string{problemPolicy.forPage(nil, inlineHashes(page.Bytes(), "style"))}
	w.WriteHeader(status)
	w.Write(page.Bytes())
}

// problemPolicy is problemPage's policy: a site's with nothing of its
// content (the draft's may not load), the banner's style allowed.
var problemPolicy = func() contentPolicy {
	p := newContentPolicy(&sitecontent.Content{})
	p.styleSrc = append(p.styleSrc, bannerStyle)
	return p
}()

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// isHTML says whether a Content-Type is a page's.
func isHTML(contentType string) bool { return strings.HasPrefix(contentType, "text/html") }

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
	if isHTML(h.Get("Content-Type")) {
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
