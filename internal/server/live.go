package server

import (
	"io"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"studio/internal/sitecontent"
)

// The live release, and what the publisher (internal/publish) calls to
// change it: Check, Switch, Report and ObserveBuild.

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
// account previewing the draft gets the draft's pages instead
// (preview.go).
func (s *Server) serveLive(w http.ResponseWriter, r *http.Request) {
	rel := s.live.Load()
	if tree := s.previewTree(r, rel); tree != "" {
		s.servePreview(w, r, rel, tree)
		return
	}
	w.Header()["Studio-Release"] = rel.header
	rel.routes.ServeHTTP(w, r)
}

// ObserveBuild is the publisher's report of a build: a stage beginning
// (result ""), or its end with its duration and result.
func (s *Server) ObserveBuild(stage string, seconds float64, result string) {
	s.builds.stage.Reset()
	if result == "" {
		s.builds.stage.WithLabelValues(stage).Set(1)
		return
	}
	s.builds.duration.WithLabelValues(result).Observe(seconds)
}
