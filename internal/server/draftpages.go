package server

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"studio/internal/sitecontent"
)

// The draft's pages as a preview shows them: rendered on request by
// DraftPages, kept by (tree, path) in a small cache, so the page's route
// data, asked for next by the browser, and a page looked at again are
// not rendered again. A new tree (a new save) is a new key: nothing is
// ever stale.

// DraftPages renders the editor's draft, a content tree (a git tree's
// hash), one page at a time, for the studio's preview (WithPreviews):
// internal/publish's Publisher, through cmd/studio.
type DraftPages interface {
	// Page renders path (a page's, "/product/7", or a resource route's,
	// "/search-index.json") from tree: a path that is none of its pages is
	// the not-found page, status 404. A draft that fails the content
	// check is a *DraftProblems.
	Page(ctx context.Context, tree, path string) (Page, error)
	// Image makes the image file name ("images/x.0123456789ab.640w.webp")
	// of tree, and returns where it is on disk.
	Image(ctx context.Context, tree, name string) (string, error)
	// Content is tree's content: its pages' Content-Security-Policy.
	Content(tree string) (*sitecontent.Content, error)
	// Asset is where the code's file name ("assets/entry.client-x.js") of
	// the code the previews are rendered with is on disk: the live
	// release, built by an older code (or bin/studio's), may not have it.
	Asset(name string) (string, error)
}

// A Page is one path of the draft as the front end renders it.
type Page struct {
	Status int    // 200, or 404 for the not-found page
	Type   string // the body's Content-Type
	Body   []byte // the page's HTML (or a resource route's body)
	Data   []byte // the page's route data (its .data file), nil for a resource route
}

// DraftProblems is DraftPages.Page's answer for a draft that fails the
// content check: its lines, "content/file: field: problem".
type DraftProblems struct{ Problems []string }

func (e *DraftProblems) Error() string {
	return fmt.Sprintf("%d problem(s) in the draft: %s", len(e.Problems), strings.Join(e.Problems, "; "))
}

// draftCacheBytes bounds the cache: a page and its data are under 100 KB,
// so it holds the few hundred pages a studio looks at in a sitting.
const draftCacheBytes = 32 << 20

// draftRenderLimit bounds one render whoever waits for it: the renderer
// has its own, shorter limit; this one keeps a lost answer from holding
// the requests that wait for it for ever.
const draftRenderLimit = 2 * time.Minute

// draftPages renders and keeps the draft's pages (DraftPages).
type draftPages struct {
	pages DraftPages // nil: no previews

	mu        sync.Mutex
	entries   map[draftKey]*list.Element // of *draftPage
	order     *list.List                 // the most recently used first
	size      int
	rendering map[draftKey]*draftRender // renders under way, which later requests for the key wait for
	policy    *draftPolicy              // the last tree's Content-Security-Policy
}

type draftKey struct{ tree, path string }

// A draftPage is a rendered path, ready to send (draftPages.render, in
// preview.go): its body (an HTML page's, with its policy, or a resource
// route's) and its route data (nil for a resource route, and for the
// not-found page).
type draftPage struct {
	key    draftKey
	status int
	body   *file
	data   *file
	size   int
}

// A draftRender is a render under way: done closes when page or err is set.
type draftRender struct {
	done chan struct{}
	page *draftPage
	err  error
}

// A draftPolicy is a tree's pages' policy, with the banner's style.
type draftPolicy struct {
	tree   string
	policy contentPolicy
}

// get is tree's path rendered, from the cache or now. Requests for one
// key while it renders wait for that render; a failure is not kept, so
// the next request renders again.
func (d *draftPages) get(ctx context.Context, tree, path string) (*draftPage, error) {
	key := draftKey{tree, path}
	d.mu.Lock()
	if e, ok := d.entries[key]; ok {
		d.order.MoveToFront(e)
		d.mu.Unlock()
		return e.Value.(*draftPage), nil
	}
	call, under := d.rendering[key]
	if !under {
		call = &draftRender{done: make(chan struct{})}
		if d.rendering == nil {
			d.rendering = make(map[draftKey]*draftRender)
		}
		d.rendering[key] = call
	}
	d.mu.Unlock()
	if !under {
		d.lead(ctx, key, call)
	}
	select {
	case <-call.done:
		return call.page, call.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// lead renders key for every request that waits for it (call), and
// keeps the page; whatever happens, even a panic, the waiters are let go.
func (d *draftPages) lead(ctx context.Context, key draftKey, call *draftRender) {
	call.err = errors.New("the page's render stopped unexpectedly")
	defer func() {
		d.mu.Lock()
		delete(d.rendering, key)
		if call.err == nil {
			d.keep(call.page)
		}
		d.mu.Unlock()
		close(call.done)
	}()
	// Not the request's own context: a closed tab does not fail the
	// others waiting for the same page.
	renderCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), draftRenderLimit)
	defer cancel()
	call.page, call.err = d.render(renderCtx, key)
}

// keep adds p to the cache, dropping the least recently used past
// draftCacheBytes; d.mu is held.
func (d *draftPages) keep(p *draftPage) {
	if p.size > draftCacheBytes {
		return
	}
	if d.entries == nil {
		d.entries, d.order = make(map[draftKey]*list.Element), list.New()
	}
	d.entries[p.key] = d.order.PushFront(p)
	d.size += p.size
	for d.size > draftCacheBytes {
		oldest := d.order.Back()
		d.order.Remove(oldest)
		gone := oldest.Value.(*draftPage)
		delete(d.entries, gone.key)
		d.size -= gone.size
	}
}
