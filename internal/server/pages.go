package server

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"studio/internal/store"
	"time"
)

// page serves a prerendered page, a file of the client build, or, for a
// path that is neither, the home page's content with status 404.
func (s *Server) page(w http.ResponseWriter, r *http.Request, rel *release) {
	if r.Method == http.MethodPost && isFormPost(r) && rel.pages[r.URL.Path] != nil {
		s.pageFormPost(w, r, rel) // a form sent without JavaScript to its page's address (forms.go)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
		return
	}
	urlPath := r.URL.Path
	if f, ok := rel.pages[urlPath]; ok {
		if r.URL.RawQuery != "" && sendChosen(w, r, f, rel.status(urlPath)) {
			return // the options chosen on the product page, marked (choices.go)
		}
		sendFile(w, r, f, rel.status(urlPath), cacheHTML)
		return
	}
	name := strings.TrimPrefix(urlPath, "/")
	if f, ok := rel.files[name]; ok && public(name) {
		sendFile(w, r, f, http.StatusOK, cachePolicy(name))
		return
	}
	if img, ok := rel.images[name]; ok {
		s.sendImage(w, r, rel, name, img)
		return
	}
	// "/products/" is "/products": one URL per page.
	if trimmed := strings.TrimRight(urlPath, "/"); trimmed != urlPath && trimmed != "" {
		if _, ok := rel.pages[trimmed]; ok || strings.HasPrefix(trimmed, "/product/") {
			redirectKeepingQuery(w, r, trimmed, http.StatusMovedPermanently)
			return
		}
	}
	if strings.HasPrefix(name, "assets/") || hashedImage.MatchString(name) || strings.HasSuffix(name, ".data") {
		// A missing script, stylesheet, image or page data gets a short
		// answer, not a page.
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	rel.notFound.send(w, r, http.StatusNotFound)
}

// serveWorkspace hands /studio to the studio's workspace once it is on (an
// account exists); until then, and without a database, it is a page that
// does not exist.
func (s *Server) serveWorkspace(w http.ResponseWriter, r *http.Request, rel *release) {
	if s.workspace != nil {
		on, err := s.workspace.On(r.Context())
		if err != nil {
			s.log.Error("studio: is the workspace on", "err", err)
			setRetryAfter(w, store.RetryAfter)
			http.Error(w, "503 the database did not answer", http.StatusServiceUnavailable)
			return
		}
		if on {
			s.workspace.ServeHTTP(w, r)
			return
		}
	}
	s.page(w, r, rel)
}

// public reports whether a file of the build is served at its own path:
// not the pages' HTML (served at their routes) nor the build's internals
// (the SPA fallback), but the route data React Router fetches when it
// navigates (/_root.data, /product/1.data).
func public(name string) bool {
	if strings.HasSuffix(name, ".data") {
		return true
	}
	return !strings.HasPrefix(name, "_") && !strings.HasSuffix(name, ".html")
}

// cachePolicy: hashed names (scripts, styles, the pipeline's images) never
// change; route data changes with each build, like the pages; the rest
// (favicon, the site's link preview) is kept a day.
func cachePolicy(name string) string {
	switch {
	case strings.HasPrefix(name, "assets/"), hashedImage.MatchString(name):
		return cacheImmutable
	case strings.HasSuffix(name, ".data"):
		return cacheHTML
	}
	return cachePublic
}

// sendImage streams one raster image from the build, with ranges and
// conditional requests (http.ServeContent), never holding it in memory.
func (s *Server) sendImage(w http.ResponseWriter, r *http.Request, rel *release, name string, img *streamedFile) {
	f, err := rel.client.Open(name)
	if err != nil {
		s.log.Error("open image", "name", name, "err", err)
		http.Error(w, "500 internal server error", http.StatusInternalServerError)
		return
	}
	defer f.Close()
	content, ok := f.(io.ReadSeeker)
	if !ok {
		s.log.Error("image is not seekable", "name", name)
		http.Error(w, "500 internal server error", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h["Cache-Control"] = cacheHeader(cachePolicy(name))
	h["Etag"] = img.etag
	h["Content-Type"] = img.contentType
	http.ServeContent(w, r, name, time.Time{}, content)
}

// product serves /product/{id} for a product of the release's catalogue,
// says 410 Gone with its own page for one taken out of it, and answers any
// other id with 404 and the list of products under a line saying so (no
// redirect: the address stays, and says what was not found). /product/{id}.data is the page's route
// data, a file of the build. The pages are found once, by id as a path
// writes it ("7", never "07"), so a request is one map lookup.
func (s *Server) product(rel *release) http.HandlerFunc {
	type answer struct {
		page   *file
		status int
	}
	pages := make(map[string]answer, len(rel.content.Products)+len(rel.content.Removed))
	for _, p := range rel.content.Products {
		pages[strconv.Itoa(p.ID)] = answer{rel.pages[productPath(p.ID)], http.StatusOK} // newRelease checked that each has one
	}
	for _, p := range rel.content.Removed {
		pages[strconv.Itoa(p.ID)] = answer{rel.pages[productPath(p.ID)], http.StatusGone} // and markGone, these
	}
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		if a, ok := pages[id]; ok {
			sendFile(w, r, a.page, a.status, cacheHTML)
			return
		}
		if strings.HasSuffix(id, ".data") {
			s.page(w, r, rel)
			return
		}
		rel.unknownProduct.send(w, r, http.StatusNotFound)
	}
}

func redirectKeepingQuery(w http.ResponseWriter, r *http.Request, path string, status int) {
	if r.URL.RawQuery != "" {
		path += "?" + r.URL.RawQuery
	}
	http.Redirect(w, r, path, status)
}
