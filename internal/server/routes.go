package server

import "net/http"

// routes registers every route of bin/studio, in one place, for one
// release: its handlers are given rel, the release the request was
// answered from (serveLive), and read pages, files and content from it
// alone.
func (s *Server) routes(rel *release) *http.ServeMux {
	from := func(h func(http.ResponseWriter, *http.Request, *release)) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { h(w, r, rel) }
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /readyz", from(s.readyz))
	mux.Handle("GET /metrics", s.metrics.handler())
	// The routes that use the database have a deadline on it (deadline.go).
	mux.Handle("POST /api/enquiries", s.databaseDeadline(s.api(rel, s.createEnquiry)))
	mux.Handle("POST /api/newsletter", s.databaseDeadline(s.api(rel, s.subscribe)))
	mux.HandleFunc("POST /api/form-start", s.formStart)
	// The newsletter's mailed links (newsletter.go): a page, and its button.
	mux.Handle("GET /newsletter/confirm", s.databaseDeadline(from(s.newsletterConfirm)))
	mux.Handle("POST /newsletter/confirm", s.databaseDeadline(from(s.newsletterConfirm)))
	mux.Handle("GET /newsletter/unsubscribe", s.databaseDeadline(from(s.newsletterUnsubscribe)))
	mux.Handle("POST /newsletter/unsubscribe", s.databaseDeadline(from(s.newsletterUnsubscribe)))
	mux.Handle("POST /api/events", s.databaseDeadline(s.api(rel, s.events)))
	// Anything else under /api/ answers in JSON: 405 for another method on
	// an API route, 404 for a path that is none.
	mux.HandleFunc("/api/", s.apiFallback(mux))
	// The studio's workspace routes its own paths (internal/workspace).
	mux.Handle("/studio", s.databaseDeadline(from(s.serveWorkspace)))
	mux.Handle("/studio/", s.databaseDeadline(from(s.serveWorkspace)))
	mux.Handle(productPattern, s.unlessHeld(s.product(rel)))
	// Pages, assets, and /sitemap.xml and /robots.txt (made with the
	// release); any method (page answers 405 to all but GET and HEAD), so
	// that /api/ above is the more specific pattern.
	mux.Handle(pagesPattern, s.unlessHeld(from(s.page)))
	return mux
}

// The routes of the site's pages and files: what a preview answers from
// the draft (preview.go), every other route as live.
const (
	productPattern = "GET /product/{id}"
	pagesPattern   = "/{path...}"
)
