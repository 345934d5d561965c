// Package page is what every page of the studio's workspace shares: the
// layout and the frame it shows around a page (Frame), the rendering of a
// page and of the error page (Kit), the account a request is made by, the
// site's facts (Facts) and the headers of every answer. The parts of the
// workspace (accounts, inbox, exports, insights, editor, releases) each
// render their own pages with it; package workspace puts them together.
package page

import (
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"studio/internal/store"
)

// Kit is what a part of the workspace needs to answer with a page: the
// site's facts, the clock and the log.
type Kit struct {
	Log      *slog.Logger
	Location *time.Location // times are shown in the studio's time zone
	Visitor  Visitor
	// Facts gives the live release's products and phone at each request.
	Facts func() Facts
	// DatabaseTimeout is the deadline of database work that does not follow
	// the request's own (after a password's check, an upload's body).
	DatabaseTimeout time.Duration
	ShowReleases    bool             // the releases page is on: the navigation links to it
	ShowContent     bool             // the Content section is on
	Now             func() time.Time // the clock (tests move it)

	errorPage *Pages
}

// Frame is what the layout shows around every page; each page's view
// model embeds it.
type Frame struct {
	Title        string
	Account      string // who is signed in ("" on the sign-in page), set by Render
	Section      string // the workspace's navigation item this page is ("insights"), marked as current
	Problem      string // what went wrong, said as role=alert
	Notice       string // what was done, said as role=status
	ShowReleases bool   // the releases page is on (Kit.ShowReleases): the navigation links to it; set by Render
	ShowContent  bool   // the Content section is on (Kit.ShowContent); set by Render
	Owner        bool   // the account signed in is an owner: the links and buttons of owners only are shown; set by Render
	// Follow is set while something the page shows is under way (a build
	// queued or running): the page follows it by itself (FollowJS, and a
	// refresh without JavaScript), and stops once a render leaves it unset.
	Follow bool
}

// Base is the frame of a view model.
func (f *Frame) Base() *Frame { return f }

// View is a page's view model: a struct that embeds Frame.
type View interface{ Base() *Frame }

//go:embed templates
var ownFiles embed.FS

var errorPages Names

// errorPage says what went wrong, with the way back to the inbox.
var errorPage = errorPages.Declare("error.html")

type errorView struct {
	Frame
	Back string // the list to go back to; "" for the inbox
}

// NewKit is k ready to render pages: its clock and zone set when they
// are not, its error page parsed. It panics if the error page's template
// is broken (it is built in: a mistake of the build's).
func NewKit(k Kit) *Kit {
	if k.Location == nil {
		k.Location = time.UTC
	}
	if k.Now == nil {
		k.Now = time.Now
	}
	if k.DatabaseTimeout == 0 {
		k.DatabaseTimeout = 3 * time.Second
	}
	kit := &k
	kit.errorPage = kit.MustParse(ownFiles, errorPages, nil)
	return kit
}

// Pages are a part's pages, parsed.
type Pages struct {
	kit    *Kit
	parsed map[Name]*template.Template
}

// MustParse parses a part's pages (Parse) with the kit's zone, and panics
// if one is broken or missing: they are built in, so that is a mistake of
// the build's, found at start-up.
func (k *Kit) MustParse(own fs.FS, pages Names, funcs template.FuncMap) *Pages {
	parsed, err := Parse(own, pages, k.Location, funcs)
	if err != nil {
		panic(err)
	}
	return &Pages{kit: k, parsed: parsed}
}

// Template is a page's template, whole (the layout around it).
func (p *Pages) Template(name Name) *template.Template { return p.parsed[name] }

// Names are the pages parsed, in no order.
func (p *Pages) Names() []Name { return slices.Collect(maps.Keys(p.parsed)) }

// Render writes a page with its view model.
func (p *Pages) Render(w http.ResponseWriter, r *http.Request, status int, name Name, v View) {
	a := Account(r)
	f := v.Base()
	f.Account, f.Owner = a.Email, a.Role == store.RoleOwner
	f.ShowReleases, f.ShowContent = p.kit.ShowReleases, p.kit.ShowContent
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if status == http.StatusServiceUnavailable {
		// The database did not answer (in time): say when to try again.
		w.Header().Set("Retry-After", RetryAfterSeconds)
	}
	w.WriteHeader(status)
	if err := p.parsed[name].ExecuteTemplate(w, layoutFile, v); err != nil {
		p.kit.Log.Error("studio: render", "page", name, "err", err)
	}
}

// Fail answers a request that could not be done with the error page:
// what went wrong and the way back, with the workspace's header for a
// signed-in person (not an empty list, which would say "no enquiries").
func (k *Kit) Fail(w http.ResponseWriter, r *http.Request, status int, title, problem, back string) {
	k.errorPage.Render(w, r, status, errorPage, &errorView{Frame: Frame{Title: title, Problem: problem}, Back: back})
}

// StoreFailed is the page of a change the database did not make (what
// names it in the log).
func (k *Kit) StoreFailed(w http.ResponseWriter, r *http.Request, what string, err error) {
	k.Log.Error("studio: "+what, "err", err)
	k.Fail(w, r, http.StatusServiceUnavailable, "Not done", "Nothing was changed: the database did not answer. Try again in a minute.", BackPath(r))
}

// NoDatabase is the page of a request whose session could not be read.
func (k *Kit) NoDatabase(w http.ResponseWriter, r *http.Request) {
	k.Fail(w, r, http.StatusServiceUnavailable, "Not now", "The workspace cannot be opened just now: the database did not answer. Try again in a minute.", "")
}

// Cookie is the workspace's cookie called name, as this request's scheme
// names it: over HTTPS __Host-name, which a browser keeps only if it is
// Secure, for this host alone and for path /; over plain HTTP (a machine
// of one's own, in development), which cannot have that, name. Each
// scheme reads only its own.
func (k *Kit) Cookie(r *http.Request, name string) string {
	if k.Visitor.IsHTTPS(r) {
		return "__Host-" + name
	}
	return name
}

// When is a time as the pages show it, in the studio's zone.
func (k *Kit) When(t time.Time) string { return t.In(k.Location).Format(whenLayout) }

// RetryAfterSeconds is the Retry-After of a page whose database did not
// answer.
var RetryAfterSeconds = strconv.Itoa(int(store.RetryAfter / time.Second))

// Unstorable says which fields of a form (input.Form's problems) hold
// text a database cannot keep.
func Unstorable(problems map[string]string) string {
	return strings.Join(slices.Sorted(maps.Keys(problems)), ", ") + " has a character that cannot be kept (a NUL, or bytes that are not UTF-8 text)."
}

// Check renders every page of names with each of its view models in
// fixtures (a part's tests give a zero one and one with something in
// every list and field), and says what failed: a page without fixtures, an
// error, or a page not inside the layout.
func (p *Pages) Check(names Names, fixtures map[Name][]View) error {
	var problems []error
	for _, name := range names {
		views, ok := fixtures[name]
		if !ok {
			problems = append(problems, fmt.Errorf("page %s has no fixture", name))
		}
		for i, v := range views {
			var b strings.Builder
			if err := p.parsed[name].ExecuteTemplate(&b, layoutFile, v); err != nil {
				problems = append(problems, fmt.Errorf("page %s, view %d: %w", name, i, err))
			} else if out := b.String(); !strings.Contains(out, "<main>") || !strings.HasSuffix(strings.TrimSpace(out), "</html>") {
				problems = append(problems, fmt.Errorf("page %s, view %d is not inside the layout:\n%s", name, i, out))
			}
		}
	}
	return errors.Join(problems...)
}
