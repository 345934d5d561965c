package page

import (
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"time"
)

// The workspace's pages are template files: layout/layout.html around
// every page, with the pieces it and every page share (layout/*.html);
// each part of the workspace has its own folder, templates/, with one file
// for each of its pages, which defines "content", and templates/partials/
// for the pieces only its pages share. html/template escapes everything a
// visitor typed.
//
//go:embed layout
var layoutFiles embed.FS

const (
	layoutDir  = "layout"
	layoutFile = "layout.html"
	// TemplatesDir is the folder of a part's own templates, embedded by it
	// and given to Parse.
	TemplatesDir = "templates"
)

// LayoutHTML is the layout's text, whose stylesheet the page's policy
// allows by its hash (Policy).
var LayoutHTML = layoutText(layoutFile)

// FollowJS is the script of a page that follows its own progress
// (Frame.Follow) and BusyJS that of every page, which says "Saving…" while
// a form is sent: the layout carries them inline, and the policy allows
// them by their hashes (Policy).
var (
	FollowJS = layoutText("follow.js")
	BusyJS   = layoutText("busy.js")
)

func layoutText(name string) string {
	b, err := fs.ReadFile(layoutFiles, path.Join(layoutDir, name))
	if err != nil {
		panic(err)
	}
	return string(b)
}

// Name is one page of the workspace, named by its file in its part's
// templates/. Each is declared with Declare beside its handler, so that
// start-up can check that every page has its template.
type Name string

// Names are the pages a part declares.
type Names []Name

// Declare adds a page, its file called file.
func (n *Names) Declare(file string) Name {
	p := Name(file)
	*n = append(*n, p)
	return p
}

// DayLayout is how the pages write a date ("29 Nov 2026"), and
// whenLayout a time, the date first.
const (
	DayLayout  = "2 Jan 2006"
	whenLayout = DayLayout + ", 15:04 MST"
)

// Day writes a day given as "2026-11-29" the way the pages write a date,
// "29 Nov 2026"; anything else is given back as it is.
func Day(day string) string {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return day
	}
	return t.Format(DayLayout)
}

// Funcs are the functions every page may call, with times shown in loc;
// a part adds its own (Parse).
func Funcs(loc *time.Location) template.FuncMap {
	return template.FuncMap{
		"when":         func(t time.Time) string { return t.In(loc).Format(whenLayout) },
		"day":          Day,
		"lower":        strings.ToLower,
		"followScript": func() template.JS { return template.JS(FollowJS) },
		"busyScript":   func() template.JS { return template.JS(BusyJS) },
		"inc":          func(n int) int { return n + 1 },
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

// Parse parses each page of pages from own's templates/ together with the
// layout and the partials, once, so a broken or missing template stops
// start-up instead of a page. A file of templates/ that no page declares
// is an error too: it would be a page no handler shows. funcs are added to
// Funcs(loc).
func Parse(own fs.FS, pages Names, loc *time.Location, funcs template.FuncMap) (map[Name]*template.Template, error) {
	return parse(layoutFiles, own, pages, loc, funcs)
}

func parse(shared, own fs.FS, pages Names, loc *time.Location, funcs template.FuncMap) (map[Name]*template.Template, error) {
	all := Funcs(loc)
	maps.Copy(all, funcs)
	if _, err := fs.Stat(shared, path.Join(layoutDir, layoutFile)); err != nil {
		return nil, err
	}
	base, err := template.New(layoutFile).Funcs(all).ParseFS(shared, path.Join(layoutDir, "*.html"))
	if err != nil {
		return nil, err
	}
	partials := path.Join(TemplatesDir, "partials", "*.html")
	if found, err := fs.Glob(own, partials); err != nil {
		return nil, err
	} else if len(found) > 0 {
		if base, err = base.ParseFS(own, partials); err != nil {
			return nil, err
		}
	}
	parsed := make(map[Name]*template.Template, len(pages))
	for _, p := range pages {
		t, err := base.Clone()
		if err == nil {
			t, err = t.ParseFS(own, path.Join(TemplatesDir, string(p)))
		}
		if err != nil {
			return nil, err
		}
		if t.Lookup("content") == nil {
			return nil, fmt.Errorf("studio: template %s defines no \"content\"", p)
		}
		// html/template checks a page (a template it calls that is missing,
		// an action where no value can go) when it first runs it: run each
		// once now, without data, and keep only those errors (*template.Error),
		// not those of running without data.
		var escaping *template.Error
		if err := t.ExecuteTemplate(io.Discard, layoutFile, nil); errors.As(err, &escaping) {
			return nil, fmt.Errorf("studio: template %s: %w", p, err)
		}
		parsed[p] = t
	}
	files, err := fs.Glob(own, path.Join(TemplatesDir, "*.html"))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if !slices.Contains(pages, Name(path.Base(f))) {
			return nil, errors.New("studio: template " + f + " is no page's: declare it beside its handler")
		}
	}
	return parsed, nil
}
