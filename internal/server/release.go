package server

import (
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"

	"studio/internal/sitecontent"
)

// notFoundPage is the home page's content prerendered through the
// catch-all route (web/app/lib/paths.ts, NOT_FOUND_PATH).
const notFoundPage = "__not-found/index.html"

// embeddedRelease names the release New makes from the build embedded in
// bin/studio: the first one served, and the one to fall back to.
const embeddedRelease = "embedded"

// A release is one version of the site as the server serves it: a client
// build, the content it was made from, and everything the server derives
// from the two. It is made whole, checked, and never changed after, so a
// request that loaded it (Server.serveLive) answers wholly from it, pages,
// files and catalogue alike, whatever is switched in meanwhile.
type release struct {
	id       string
	header   []string // id as the Studio-Release header, made once: assigned, it costs nothing per request
	content  *sitecontent.Content
	client   fs.FS                    // the client build
	files    map[string]*file         // its files held in memory (with sitemap.xml and robots.txt), by path without the leading slash
	images   map[string]*streamedFile // its raster images, read from client on each request
	pages    map[string]*file         // prerendered pages by URL path: "/", "/products", ...
	notFound *file

	// routes answers a request from this release alone (Server.routes);
	// Server.makeRelease sets it before the release can be served.
	routes http.Handler
}

// newRelease reads the client build into memory and checks that it matches
// the catalogue, so a stale build is refused before a visitor sees it.
func newRelease(id string, client fs.FS, content *sitecontent.Content) (*release, error) {
	if !validReleaseID(id) {
		return nil, fmt.Errorf("server: release id %q: want 1 to 128 printable ASCII characters without spaces", id)
	}
	files, images, err := loadFiles(client)
	if err != nil {
		return nil, err
	}
	rel := &release{id: id, header: []string{id}, content: content, client: client, files: files, images: images, pages: make(map[string]*file)}
	for name, f := range files {
		switch {
		case name == notFoundPage:
			rel.notFound = f
		case strings.HasPrefix(name, "_"):
			// build internals (the SPA fallback), not pages of their own
		case name == "index.html":
			rel.pages["/"] = f
		case strings.HasSuffix(name, "/index.html"):
			rel.pages["/"+strings.TrimSuffix(name, "/index.html")] = f
		}
	}
	rel.setPolicy(newContentPolicy(content))
	if rel.notFound == nil || rel.pages["/"] == nil {
		return nil, fmt.Errorf("server: the client build has no home page or %s: run make build", notFoundPage)
	}
	// Where a form sent without JavaScript leads (forms.go): pages of the
	// front end (web/app/lib/paths.ts, THANKS_PATHS).
	for _, p := range []string{thanksPath, newsletterThanksPath} {
		if rel.pages[p] == nil {
			return nil, fmt.Errorf("server: the client build has no page %s: run make build", p)
		}
	}
	pagePaths := make([]string, 0, len(rel.pages))
	for p, f := range rel.pages {
		if !f.noindex {
			pagePaths = append(pagePaths, p)
		}
	}
	rel.files["sitemap.xml"] = generatedFile("sitemap.xml", sitemap(content.Site.BaseURL, pagePaths))
	rel.files["robots.txt"] = generatedFile("robots.txt", robotsTxt(content.Site.BaseURL))
	for _, p := range content.Products {
		if rel.pages[productPath(p.ID)] == nil {
			return nil, fmt.Errorf("server: product %d is in the catalogue but has no prerendered page: run make build", p.ID)
		}
	}
	return rel, nil
}

// setPolicy gives each page of the release its Content-Security-Policy.
func (rel *release) setPolicy(policy contentPolicy) {
	for name, f := range rel.files {
		if strings.HasSuffix(name, ".html") {
			f.csp = []string{policy.forPage(f.scripts, f.styles)}
		}
	}
}

// validReleaseID keeps an id fit to be a header's value and a log's field.
func validReleaseID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := range len(id) {
		if id[i] <= ' ' || id[i] > '~' {
			return false
		}
	}
	return true
}

func productPath(id int) string {
	return "/product/" + strconv.Itoa(id)
}

// makeRelease is newRelease with its routes: ready to be stored in s.live.
func (s *Server) makeRelease(id string, client fs.FS, content *sitecontent.Content) (*release, error) {
	rel, err := newRelease(id, client, content)
	if err != nil {
		return nil, err
	}
	rel.routes = s.routes(rel)
	return rel, nil
}

// Check makes a release of a client build and its content as Switch would:
// the smoke test of a release before it may go live. The release is kept
// among the recent ones, for the switch that follows.
func (s *Server) Check(id string, client fs.FS, content *sitecontent.Content) error {
	rel, err := s.makeRelease(id, client, content)
	if err == nil {
		s.recent.add(rel)
	}
	return err
}

// recentReleases holds the releases last made (checked or served), so a
// switch to one of them (the release just built; an undo, back to the one
// live before) is instant: a 300-product release takes half a second to
// read. A release never changes once made, so one made earlier is as good.
type recentReleases struct {
	mu   sync.Mutex
	list []*release // the newest first
}

// keptReleases is how many releases recentReleases holds: the live one and
// two others (each holds its pages' brotli bodies, 10 MB for 300 products).
const keptReleases = 3

func (r *recentReleases) get(id string) *release {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rel := range r.list {
		if rel.id == id {
			return rel
		}
	}
	return nil
}

func (r *recentReleases) add(rel *release) {
	r.mu.Lock()
	defer r.mu.Unlock()
	list := []*release{rel}
	for _, old := range r.list {
		if old.id != rel.id && len(list) < keptReleases {
			list = append(list, old)
		}
	}
	r.list = list
}

// Switch makes a release of a client build and its content, with the
// checks New makes, and serves it from the next request on; requests under
// way finish with the release they started with. A release that fails its
// checks changes nothing and its error is returned. The publisher
// (internal/publish) calls it.
func (s *Server) Switch(id string, client fs.FS, content *sitecontent.Content) error {
	rel := s.recent.get(id)
	if rel == nil {
		var err error
		if rel, err = s.makeRelease(id, client, content); err != nil {
			return err
		}
	}
	s.recent.add(rel)
	previous := s.live.Swap(rel)
	s.builds.switched(id)
	s.log.Info("release switched", "release", id, "previous", previous.id)
	return nil
}

// A publishingReport is what the publisher said went wrong (Report).
type publishingReport struct {
	problem string
	hold    bool // no release of the content can be served: pages answer 503
}

// Report is the publisher's word on what went wrong ("" when all is well),
// said by /readyz. With hold, no release of the studio's content can be
// served (a restore's first start, every release damaged): the pages
// answer 503 until one is, rather than the embedded build's shipped
// content in its place; the API, the workspace and the probes answer.
func (s *Server) Report(problem string, hold bool) {
	if problem == "" && !hold {
		s.report.Store(nil)
		return
	}
	s.report.Store(&publishingReport{problem: problem, hold: hold})
}

// heldPage is what a page answers while no release can be served.
const heldPage = `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Back in a minute</title>
<main><h1>Back in a minute</h1><p>The site is being updated. Please try again in a minute.</p></main></html>
`

// unlessHeld answers 503 with heldPage while the publisher holds the pages
// (Report), and is h otherwise. What is held is what the content makes: the
// pages, their data, the sitemap and the JSON the site reads; the code's
// files (scripts, styles, the icon a workspace page shows) are served.
func (s *Server) unlessHeld(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rep := s.report.Load(); rep != nil && rep.hold && madeByContent(r.URL.Path) {
			w.Header().Set("Retry-After", "60")
			w.Header().Set("Cache-Control", "no-store")
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusServiceUnavailable)
			if r.Method != http.MethodHead {
				io.WriteString(w, heldPage)
			}
			return
		}
		h.ServeHTTP(w, r)
	})
}

// madeByContent says whether a path of the site is made from the content:
// a page (no extension), its data, or a document of its facts.
func madeByContent(urlPath string) bool {
	switch path.Ext(urlPath) {
	case "", ".data", ".html", ".xml", ".json", ".txt":
		return true
	}
	return false
}

// Content is the live release's content: for work outside a request (the
// mails), which takes the facts published last.
func (s *Server) Content() *sitecontent.Content { return s.live.Load().content }

// PageTitles are the live release's pages' titles by path ("/product/8":
// "Marwar chair, accent chair"), without the studio's name that ends them.
func (s *Server) PageTitles() map[string]string {
	rel := s.live.Load()
	titles := make(map[string]string, len(rel.pages))
	for p, f := range rel.pages {
		titles[p] = strings.TrimSuffix(f.title, " | "+rel.content.Site.Name)
	}
	return titles
}

// serveLive answers a request from the release live when it arrives,
// loaded here once and named in the Studio-Release header; the handlers
// below get it as an argument (routes), never from s.live. A studio
// account previewing the draft gets the preview's release instead
// (preview.go).
func (s *Server) serveLive(w http.ResponseWriter, r *http.Request) {
	if rel := s.previewFor(r); rel != nil {
		servePreview(w, r, rel)
		return
	}
	rel := s.live.Load()
	w.Header()["Studio-Release"] = rel.header
	rel.routes.ServeHTTP(w, r)
}
