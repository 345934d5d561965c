package server

import (
	"fmt"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"studio/internal/sitecontent"
)

// Where a sent form leads (forms.go): pages of the front end
// (web/app/lib/paths.ts, THANKS_PATHS), which newRelease checks are there.
const (
	thanksPath           = "/thank-you"
	newsletterThanksPath = "/thank-you/newsletter"
	// After a sign-up whose confirmation is mailed (newsletter.go).
	newsletterCheckInboxPath = "/newsletter/confirm"
)

// embeddedRelease names the release New makes from the build embedded in
// bin/studio: the first one served, and the one to fall back to.
const embeddedRelease = "embedded"

// A release is one version of the site as the server serves it: a client
// build, the content it was made from, and everything the server derives
// from the two. It is made whole, checked, and never changed after, so a
// request that loaded it (Server.serveLive) answers wholly from it, pages,
// files and catalogue alike, whatever is switched in meanwhile.
type release struct {
	id      string
	header  []string // id as the Studio-Release header, made once: assigned, it costs nothing per request
	content *sitecontent.Content
	client  fs.FS                    // the client build
	files   map[string]*file         // its files held in memory (with sitemap.xml and robots.txt), by path without the leading slash
	images  map[string]*streamedFile // its raster images, read from client on each request
	pages   map[string]*file         // prerendered pages by URL path: "/", "/products", ...
	gone    map[string]bool          // the pages of removed products (their own, their requests'): answered 410

	// The pages of addresses that have none (pathpage.go), answered 404: the
	// home page's, for an unknown path; the products list's, for an unknown
	// product's.
	notFound, unknownProduct *pathPage

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
	var notFound, unknownProduct *file
	for name, f := range files {
		switch {
		case name == notFoundPage:
			notFound = f
		case name == unknownProductPage:
			unknownProduct = f
		case strings.HasPrefix(name, "_"):
			// build internals (the SPA fallback), not pages of their own
		case name == "index.html":
			rel.pages["/"] = f
		case strings.HasSuffix(name, "/index.html"):
			rel.pages["/"+strings.TrimSuffix(name, "/index.html")] = f
		}
	}
	rel.setPolicy(newContentPolicy(content))
	if notFound == nil || unknownProduct == nil || rel.pages["/"] == nil {
		return nil, fmt.Errorf("server: the client build has no home page, %s or %s: run make build", notFoundPage, unknownProductPage)
	}
	if rel.notFound, err = newPathPage(client, notFoundPage, notFoundPath, notFound); err != nil {
		return nil, err
	}
	if rel.unknownProduct, err = newPathPage(client, unknownProductPage, unknownProductPath, unknownProduct); err != nil {
		return nil, err
	}
	// Where a form sent without JavaScript leads (forms.go): pages of the
	// front end (web/app/lib/paths.ts, THANKS_PATHS).
	for _, p := range []string{thanksPath, newsletterThanksPath} {
		if rel.pages[p] == nil {
			return nil, fmt.Errorf("server: the client build has no page %s: run make build", p)
		}
	}
	if err := rel.markGone(); err != nil {
		return nil, err
	}
	pagePaths := make([]string, 0, len(rel.pages))
	for p, f := range rel.pages {
		if !f.noindex && !rel.gone[p] {
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

// markGone finds the pages of the products taken out of the catalogue
// (content.Removed): each one's page, which the build must have made, and
// its requests' (/product/7/quote), all answered 410 Gone.
func (rel *release) markGone() error {
	rel.gone = make(map[string]bool)
	for _, p := range rel.content.Removed {
		own := productPath(p.ID)
		if rel.pages[own] == nil {
			return fmt.Errorf("server: product %d was removed from the catalogue but has no prerendered page saying so: run make build", p.ID)
		}
		for path := range rel.pages {
			if path == own || strings.HasPrefix(path, own+"/") {
				rel.gone[path] = true
			}
		}
	}
	return nil
}

// status is what a prerendered page is answered with: 410 for a removed
// product's, 200 for the rest.
func (rel *release) status(urlPath string) int {
	if rel.gone[urlPath] {
		return http.StatusGone
	}
	return http.StatusOK
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

// A publishingReport is what the publisher said went wrong (Report).
type publishingReport struct {
	problem string
	hold    bool // no release of the content can be served: pages answer 503
}
