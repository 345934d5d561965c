package server

import "net/http"

// routes registers every route of bin/studio, in one place.
func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /readyz", s.readyz)
	mux.Handle("GET /metrics", s.metrics.handler())
	// The routes that use the database have a deadline on it (deadline.go).
	mux.Handle("POST /api/enquiries", s.databaseDeadline(s.api(s.createEnquiry)))
	mux.Handle("POST /api/newsletter", s.databaseDeadline(s.api(s.subscribe)))
	mux.HandleFunc("POST /api/form-start", s.formStart)
	mux.Handle("POST /api/events", s.databaseDeadline(s.api(s.events)))
	// Anything else under /api/ answers in JSON: 405 for another method on
	// an API route, 404 for a path that is none.
	mux.HandleFunc("/api/", s.apiFallback(mux))
	// The studio's workspace routes its own paths (internal/workspace).
	mux.Handle("/studio", s.databaseDeadline(http.HandlerFunc(s.serveWorkspace)))
	mux.Handle("/studio/", s.databaseDeadline(http.HandlerFunc(s.serveWorkspace)))
	mux.HandleFunc("GET /product/{id}", s.product)
	// Pages, assets, and /sitemap.xml and /robots.txt (made at start-up);
	// any method (page answers 405 to all but GET and HEAD), so that /api/
	// above is the more specific pattern.
	mux.HandleFunc("/{path...}", s.page)
	return mux
}
