package server

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"
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

// healthz answers 200 while the server can do its work, which includes
// reaching its database.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	if s.store != nil {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := s.store.Ping(ctx); err != nil {
			s.log.Error("healthz", "err", err)
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "database": "unreachable"})
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

func redirectKeepingQuery(w http.ResponseWriter, r *http.Request, path string, status int) {
	if r.URL.RawQuery != "" {
		path += "?" + r.URL.RawQuery
	}
	http.Redirect(w, r, path, status)
}
