package workspace

import (
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"strings"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store"
)

// The workspace's pages are template files: templates/layout.html around
// every page, templates/partials/ for the pieces pages share, and one file
// in templates/pages/ for each page, which defines "content". html/template
// escapes everything a visitor typed.
//
//go:embed templates
var templateFiles embed.FS

// workspacePage is one page of the workspace, named by its file in
// templates/pages/. Each is declared with newPage beside its handler, so
// that start-up can check that every page has its template.
type workspacePage string

// pageFiles are the pages declared with newPage.
var pageFiles []workspacePage

func newPage(file string) workspacePage {
	p := workspacePage(file)
	pageFiles = append(pageFiles, p)
	return p
}

// errorPage says what went wrong, with the way back to the inbox.
var errorPage = newPage("error.html")

// frame is what the layout shows around every page; each page's view
// model embeds it.
type frame struct {
	Title        string
	Account      string // who is signed in ("" on the sign-in page), set by render
	Section      string // the workspace's navigation item this page is ("insights"), marked as current
	Problem      string // what went wrong, said as role=alert
	Notice       string // what was done, said as role=status
	ShowReleases bool   // the releases page is on (Options.Releases): the navigation links to it; set by render
	ShowContent  bool   // the Content section is on (Options.Content); set by render
	Owner        bool   // the account signed in is an owner: the links and buttons of owners only are shown; set by render
}

func (f *frame) base() *frame { return f }

// view is a page's view model: a struct that embeds frame.
type view interface{ base() *frame }

type errorView struct {
	frame
	Back string // the list to go back to; "" for the inbox
}

// render writes a page with its view model.
func (h *Handler) render(w http.ResponseWriter, r *http.Request, status int, p workspacePage, v view) {
	v.base().Account = actor(r)
	v.base().ShowReleases = h.opts.Releases != nil
	v.base().ShowContent = h.opts.Content != nil
	v.base().Owner = current(r).Role == store.RoleOwner
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if status == http.StatusServiceUnavailable {
		// The database did not answer (in time): say when to try again.
		w.Header().Set("Retry-After", retryAfterSeconds)
	}
	w.WriteHeader(status)
	if err := h.pages[p].ExecuteTemplate(w, layoutFile, v); err != nil {
		h.log.Error("studio: render", "page", p, "err", err)
	}
}

// fail answers a request that could not be done with the error page:
// what went wrong and the way back, with the workspace's header for a
// signed-in person (not an empty list, which would say "no enquiries").
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, status int, title, problem, back string) {
	h.render(w, r, status, errorPage, &errorView{frame: frame{Title: title, Problem: problem}, Back: back})
}

const (
	layoutFile   = "layout.html"
	templatesDir = "templates"
)

// layoutHTML is the layout's text, whose stylesheet the page's policy
// allows by its hash (inboxPolicy).
var layoutHTML = func() string {
	b, err := fs.ReadFile(templateFiles, path.Join(templatesDir, layoutFile))
	if err != nil {
		panic(err)
	}
	return string(b)
}()

// uploadJS is the workspace's one script, which sends a product's
// photographs one by one; the product's form carries it inline, and the
// page's policy allows it by its hash.
var uploadJS = func() string {
	b, err := fs.ReadFile(templateFiles, path.Join(templatesDir, "upload.js"))
	if err != nil {
		panic(err)
	}
	return string(b)
}()

// parsePages parses each page of pages from fsys together with the layout
// and the partials, once, so a broken or missing template stops start-up
// instead of a page. A file in pages/ that no page declares is an error
// too: it would be a page no handler shows.
func parsePages(fsys fs.FS, pages []workspacePage, funcs template.FuncMap) (map[workspacePage]*template.Template, error) {
	base, err := template.New(layoutFile).Funcs(funcs).ParseFS(fsys, path.Join(templatesDir, layoutFile), path.Join(templatesDir, "partials", "*.html"))
	if err != nil {
		return nil, err
	}
	parsed := make(map[workspacePage]*template.Template, len(pages))
	for _, p := range pages {
		t, err := base.Clone()
		if err == nil {
			t, err = t.ParseFS(fsys, path.Join(templatesDir, "pages", string(p)))
		}
		if err != nil {
			return nil, err
		}
		if t.Lookup("content") == nil {
			return nil, fmt.Errorf("studio: template pages/%s defines no \"content\"", p)
		}
		// html/template checks a page (a template it calls that is missing,
		// an action where no value can go) when it first runs it: run each
		// once now, without data, and keep only those errors (*template.Error),
		// not those of running without data.
		var escaping *template.Error
		if err := t.ExecuteTemplate(io.Discard, layoutFile, nil); errors.As(err, &escaping) {
			return nil, fmt.Errorf("studio: template pages/%s: %w", p, err)
		}
		parsed[p] = t
	}
	files, err := fs.Glob(fsys, path.Join(templatesDir, "pages", "*.html"))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if !slices.Contains(pages, workspacePage(path.Base(f))) {
			return nil, errors.New("studio: template " + f + " is no page's: declare it with newPage beside its handler")
		}
	}
	return parsed, nil
}

var statusLabels = map[enquiry.Status]string{enquiry.New: "New", enquiry.Replied: "Replied", enquiry.Quoted: "Quoted",
	enquiry.Won: "Won", enquiry.Lost: "Lost", enquiry.Archived: "Archived"}

var kindLabels = map[enquiry.Kind]string{enquiry.Contact: "Message", enquiry.Quote: "Quote", enquiry.Customize: "Customisation"}

// eventText says one entry of an enquiry's history.
func eventText(ev store.Event) string {
	value := func(v string) string {
		switch v {
		case "true":
			return "spam"
		case "false":
			return "not spam"
		}
		return statusLabels[enquiry.Status(v)]
	}
	switch ev.Action {
	case store.ActionStatus:
		return "moved it from " + value(ev.From) + " to " + value(ev.To)
	case store.ActionSpam:
		return "marked it as " + value(ev.To)
	case store.ActionNote:
		return "added a note"
	case store.ActionUndo:
		return "undid the change to " + value(ev.From) + ", back to " + value(ev.To)
	case store.ActionDelete:
		return "deleted it"
	case store.ActionReply:
		return "sent a reply"
	case store.ActionErase:
		return "erased the person's data"
	}
	return ev.Action
}

// templateFuncs are the templates' functions, with times shown in loc.
func templateFuncs(loc *time.Location) template.FuncMap {
	return template.FuncMap{
		"when":        func(t time.Time) string { return t.In(loc).Format("2 Jan 2006, 15:04 MST") },
		"kindLabel":   func(k enquiry.Kind) string { return kindLabels[k] },
		"statusLabel": func(s enquiry.Status) string { return statusLabels[s] },
		"eventText":   eventText,
		"mailTo": func(recipient string) string {
			switch recipient {
			case store.RecipientVisitor:
				return "Acknowledgement to the visitor"
			case store.RecipientReply:
				return "Reply to the customer"
			}
			return "Copy to the studio"
		},
		"lower":        strings.ToLower,
		"customerURL":  customerURL,
		"inc":          func(n int) int { return n + 1 },
		"thumbnail":    thumbnailURL,
		"uploadScript": func() template.JS { return template.JS(uploadJS) },
		"photoLimit":   func() int { return maxPhotoBytes }, // a photograph's most bytes
		"excerpt": func(s string) string {
			if r := []rune(s); len(r) > 240 {
				return strings.TrimSpace(string(r[:240])) + "…"
			}
			return s
		},
		// html/template allows only http(s) and mailto links; a phone number
		// holds nothing but digits and +, so its tel: link is built from those.
		"telURL": func(phone string) template.URL {
			return template.URL("tel:" + strings.Map(func(r rune) rune {
				if r == '+' || (r >= '0' && r <= '9') {
					return r
				}
				return -1
			}, phone))
		},
	}
}
