// Package releases is the workspace's "Versions of the site" page and
// previews: each publish built into a release (internal/publish), what it
// changed (versions.go), which one is live, the way back to an earlier
// one, a build of the content again; and the editor's draft looked at on
// the site itself, at its real URLs, before it is published (preview.go).
package releases

import (
	"cmp"
	"embed"
	"net/http"
	"strings"
	"sync"

	published "studio/internal/publish/releases"
	"studio/internal/publish/repo"
	"studio/internal/workspace/page"
)

// Releases is the publisher (a *publish.Publisher) as the releases page
// uses it.
type Releases interface {
	List() ([]published.Release, error)           // newest first, the embedded build last
	Live() string                                 // the id of the live release
	CanBuild() bool                               // false: this server has no builder
	Publish() (string, error)                     // queues a build of main now
	PublishNew() (string, error)                  // the same, unless main is live or under way already (the Content page's)
	Release(id string) (published.Release, error) // any release, a preview too
	// Rollback switches to a release built before, at once, and makes its
	// content main's by a new commit by who, which it returns ("" when
	// main had its files already).
	Rollback(id string, who repo.Signature) (string, error)
	Problem() (string, bool) // what went wrong that the studio should know (a damaged release, what serves instead), "" when all is well; and whether the pages are held (503) for want of a release to serve
}

// Previews is the publisher (a *publish.Publisher) as the previews use it.
type Previews interface {
	Draft() (repo.Commit, bool, error) // the draft's commit, or main's (false) when nothing is unpublished
	CanPreview() error                 // nil when this server renders previews; else why not (no builder, another copy builds)
}

// Sessions tells whether a request comes with a live session (package
// accounts): a preview is shown only to the signed in.
type Sessions interface {
	Live(r *http.Request) bool
}

// Unpublished lists the content's changes not yet on main (the content
// repository), which an earlier release made live leaves unpublished.
type Unpublished interface {
	Unpublished() ([]repo.Commit, error)
}

// Options are what the releases and previews work with.
type Options struct {
	Releases Releases    // nil: no releases page
	Previews Previews    // nil: no previews
	Sessions Sessions    // whose previews are shown
	Content  Unpublished // nil: no Content section
	History  History     // nil: the versions do not say what they changed
	Words    Words       // nil: likewise
}

// History is the content repository's main and its history (a
// *repo.Repository).
type History interface {
	Main() (repo.Commit, error)
	Log(hash string, n int) ([]repo.Commit, error) // newest first, following first parents
}

// Words says the content's changes and a failed build's problems as the
// Content section names its parts (an *edit.Editor).
type Words interface {
	// Changes is what commit to's content changes from commit from's, one
	// line a part: "Yucca: description, new photograph".
	Changes(from, to string) ([]string, error)
	// Explain is a content check's line said where she fixes it, and the
	// address of the field ("" when it names none).
	Explain(commit, line string) (text, href string)
}

// memo keeps what the versions cost to work out: main's history (read
// again when main moves) and each pair of versions' changes (two commits
// never change).
type memo struct {
	mu      sync.Mutex
	main    string
	history []repo.Commit
	changes map[[2]string][]string
}

// The releases' own pages: one template file each in templates/.
//
//go:embed templates
var templateFiles embed.FS

// pageFiles are the pages declared with newPage.
var pageFiles page.Names

func newPage(file string) page.Name { return pageFiles.Declare(file) }

// Handler serves the releases page and the previews.
type Handler struct {
	kit   *page.Kit
	pages *page.Pages
	opts  Options
	memo  memo
}

// New returns the releases and previews. It panics if a page's template is
// broken (it is built in: a mistake of the build's).
func New(kit *page.Kit, opts Options) *Handler {
	return &Handler{kit: kit, pages: kit.MustParse(templateFiles, pageFiles, nil), opts: opts}
}

// Signature names the signed-in account as a commit's author: by its
// name, which the versions of the site show, or the first part of its
// e-mail while it has none.
func Signature(r *http.Request) repo.Signature {
	email := page.Actor(r)
	name, _, _ := strings.Cut(email, "@")
	return repo.Signature{Name: cmp.Or(strings.TrimSpace(page.Account(r).Name), name), Email: email}
}
