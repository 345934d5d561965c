package server

import (
	"net/http"
	"strconv"
	"strings"
)

// page serves a prerendered page, a file of the client build, or, for a
// path that is neither, the home page's content with status 404.
func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	urlPath := r.URL.Path
	if f, ok := s.pages[urlPath]; ok {
		send(w, r, f, http.StatusOK, cacheHTML)
		return
	}
	name := strings.TrimPrefix(urlPath, "/")
	if f, ok := s.files[name]; ok && !strings.HasPrefix(name, "_") && !strings.HasSuffix(name, ".html") {
		cache := cachePublic
		if strings.HasPrefix(name, "assets/") {
			cache = cacheImmutable
		}
		send(w, r, f, http.StatusOK, cache)
		return
	}
	// "/products/" is "/products": one URL per page.
	if trimmed := strings.TrimRight(urlPath, "/"); trimmed != urlPath && trimmed != "" {
		if _, ok := s.pages[trimmed]; ok || strings.HasPrefix(trimmed, "/product/") {
			redirectKeepingQuery(w, r, trimmed, http.StatusMovedPermanently)
			return
		}
	}
	if strings.HasPrefix(name, "assets/") {
		// A missing script or stylesheet gets a short answer, not a page.
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	send(w, r, s.notFound, http.StatusNotFound, cacheHTML)
}

// product serves /product/{id} for a product of the catalogue and sends
// any other id to the list of products.
func (s *Server) product(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.Atoi(r.PathValue("id"))
	if _, ok := s.catalogue.Product(id); err != nil || !ok || strconv.Itoa(id) != r.PathValue("id") {
		http.Redirect(w, r, "/products", http.StatusFound)
		return
	}
	send(w, r, s.pages[productPath(id)], http.StatusOK, cacheHTML)
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write([]byte(`{"status":"ok"}` + "\n"))
}

func redirectKeepingQuery(w http.ResponseWriter, r *http.Request, path string, status int) {
	if r.URL.RawQuery != "" {
		path += "?" + r.URL.RawQuery
	}
	http.Redirect(w, r, path, status)
}
