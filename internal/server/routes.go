package server

import "net/http"

// routes registers every route of bin/studio, in one place.
func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /product/{id}", s.product)
	// Pages, assets, and /sitemap.xml and /robots.txt (made at start-up).
	mux.HandleFunc("GET /{path...}", s.page)
	return mux
}
