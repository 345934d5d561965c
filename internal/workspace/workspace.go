// Package workspace is the studio's workspace at /studio: named accounts sign
// in (sessions kept in the database), and the inbox carries each enquiry
// from New to Won or Lost, with notes, spam and not-spam, undo, search and
// filters, and CSV exports for spreadsheets and scripts; the insights show
// what visitors look for, and the releases which content is live; the
// Content section edits the site (package editor). It is server-rendered
// HTML; its scripts (the layout's, which follow a build and say "Saving…",
// and the editor's, which sends photographs) help, and nothing needs them.
package workspace

import (
	"context"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"studio/internal/input"
	"studio/internal/workspace/accounts"
	"studio/internal/workspace/edit"
	"studio/internal/workspace/editor"
	"studio/internal/workspace/exports"
	"studio/internal/workspace/inbox"
	"studio/internal/workspace/insights"
	"studio/internal/workspace/page"
	"studio/internal/workspace/releases"
	"studio/internal/workspace/upload"
)

// Store is everything the workspace reads and writes (a *store.Store).
// Each part of the workspace declares, beside its handlers, the few
// methods it calls, and the Handler keeps the store as each of those.
type Store interface {
	accountStore
	accounts.Store
	inbox.Store
	exports.Store
	insights.Store
}

// accountStore tells whether the workspace is on.
type accountStore interface {
	HasAccounts(ctx context.Context) (bool, error)
}

// Options are the facts of the site the workspace needs.
type Options struct {
	Visitor  page.Visitor
	Location *time.Location // times are shown in the studio's time zone
	// Facts, when set, gives the live release's products and phone at each
	// request, so a product published is named in the inbox and Insights at
	// once; it replaces Products and StudioPhone.
	Facts    func() page.Facts
	Products []page.Product
	KeepDays int // INSIGHTS_KEEP_DAYS: how long analytics events are kept as they came
	// DATABASE_TIMEOUT, default 3s: the deadline of the database work that
	// follows a password's check (afterHashing).
	DatabaseTimeout time.Duration
	StudioPhone     string // an international number of the studio's (+91…), whose country code local numbers get in WhatsApp links
	// The publisher (a *publish.Publisher), for the releases page; nil: no
	// releases page and no link to it.
	Releases releases.Releases
	// The content repository, for the Content section; nil: no Content
	// section. Builder checks a change before it is saved and renders a
	// Markdown text's preview (nil: no change can be saved), in copies of
	// the content made under Scratch (on the file system of the
	// repository's blobs: the copies are hard links).
	Content edit.Content
	Builder edit.Builder
	Scratch string
	// Uploads is the folder a product's photographs wait in until their
	// form is saved (datadir's Uploads: it outlives a restart, which
	// empties Scratch); "": Scratch/uploads, for tests.
	Uploads string
	// UploadPace is how slowly a product's photographs and a reply's PDF
	// may arrive (the zero value: upload.PhonePace, 20 KB/s over any 30 s,
	// 10 minutes in all).
	UploadPace upload.Pace
	// The publisher again, for previews of the editor's draft at the site's
	// own URLs (preview.go); nil: no previews.
	Previews releases.Previews
	// WakeMail tells the mail worker that a mail is waiting (a reply, an
	// invitation, a password reset); nil: mail is off (no SMTP_HOST): the
	// inbox sends no replies, and invitations wait in the outbox.
	WakeMail func()
}

// Handler serves /studio and everything under it.
type Handler struct {
	hasAccounts accountStore
	accounts    *accounts.Handler
	releases    *releases.Handler
	gate        accounts.Gate
	inbox       *inbox.Handler
	exports     *exports.Handler
	insights    *insights.Handler

	log         *slog.Logger
	opts        Options
	crossOrigin *http.CrossOriginProtection
	mux         *http.ServeMux
	kit         *page.Kit
	now         func() time.Time

	editor  *edit.Editor    // the Content section's rules
	content *editor.Handler // the Content section
}

// New returns the workspace. It panics if a page's template is broken or
// missing (they are built in, so that is a mistake of the build's).
func New(st Store, log *slog.Logger, opts Options) *Handler {
	if opts.Location == nil {
		opts.Location = time.UTC
	}
	if opts.UploadPace == (upload.Pace{}) {
		opts.UploadPace = upload.PhonePace
	}
	if opts.DatabaseTimeout == 0 {
		opts.DatabaseTimeout = 3 * time.Second
	}
	if opts.Facts == nil {
		facts := page.Facts{Products: opts.Products, StudioPhone: opts.StudioPhone}
		opts.Facts = func() page.Facts { return facts }
	}
	h := &Handler{
		hasAccounts: st,
		log:         log, opts: opts, crossOrigin: http.NewCrossOriginProtection(), now: time.Now,
	}
	h.kit = page.NewKit(page.Kit{Log: log, Location: opts.Location, Visitor: opts.Visitor, Facts: opts.Facts, DatabaseTimeout: opts.DatabaseTimeout,
		ShowReleases: opts.Releases != nil, ShowContent: opts.Content != nil, Now: func() time.Time { return h.now() }})
	h.accounts = accounts.New(st, h.kit, opts.WakeMail, func(w http.ResponseWriter, r *http.Request) { h.releases.ForgetPreview(w, r) })
	h.gate = h.accounts.Gate()
	h.inbox = inbox.New(st, h.kit, inbox.Options{WakeMail: opts.WakeMail, UploadPace: opts.UploadPace})
	h.exports = exports.New(st, h.kit)
	h.insights = insights.New(st, h.kit, opts.KeepDays)
	if opts.Uploads == "" {
		opts.Uploads = filepath.Join(opts.Scratch, "uploads")
	}
	// A builder that can make a photograph's files at upload is asked to.
	images, _ := opts.Builder.(edit.ImagePreparer)
	h.editor = &edit.Editor{Content: opts.Content, Builder: opts.Builder, Scratch: opts.Scratch, Log: log,
		Photos: &edit.Staging{Dir: opts.Uploads, Log: log, Thumbnails: &edit.Thumbnails{Dir: filepath.Join(opts.Scratch, "thumbnails")}, Images: images}}
	versions := releases.Options{Releases: opts.Releases, Previews: opts.Previews, Sessions: h.accounts, Content: opts.Content}
	if opts.Content != nil {
		versions.History, versions.Words = opts.Content, h.editor // what each version changed, in the Content section's words
	}
	h.releases = releases.New(h.kit, versions)
	h.content = editor.New(h.kit, editor.Options{Content: opts.Content, Releases: opts.Releases, Previews: opts.Previews != nil,
		Rules: h.editor, Scratch: opts.Scratch, Pace: opts.UploadPace})
	h.opts = opts
	h.mux = h.routes()
	return h
}

// On tells whether the workspace is on: once an account exists (made with
// `studio user add`, or from STUDIO_PASSWORD).
func (h *Handler) On(ctx context.Context) (bool, error) { return h.hasAccounts.HasAccounts(ctx) }

// ServeHTTP serves /studio and everything under it.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	privateHeaders(w)
	if r.Method == http.MethodPost && !h.storableForm(w, r) {
		return
	}
	h.mux.ServeHTTP(w, r)
}

// maxForm is the largest form the workspace reads (package page).
const maxForm = page.MaxForm

// storableForm is the workspace's edge for text a database cannot keep
// (package input): such a form changes nothing, and the page says which
// field. It parses the form for the handler after it.
func (h *Handler) storableForm(w http.ResponseWriter, r *http.Request) bool {
	if editor.TakesFiles(r) || upload.IsMultipart(r) && inbox.IsReply(r) {
		return true // photographs, a PDF: read by the editor or the inbox's Reply, once the session is known
	}
	limit := int64(maxForm)
	switch {
	case strings.HasPrefix(r.URL.Path, "/studio/content/"):
		limit = editor.MaxForm
	case r.URL.Path == "/studio/sign-in":
		limit = h.accounts.SignInFormLimit(r) // with a form kept through it
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	if r.ParseForm() != nil {
		return true // the handler says what is wrong with the form
	}
	problems := input.Form(r.PostForm)
	if len(problems) == 0 {
		return true
	}
	problem := "Nothing was changed: " + unstorable(problems)
	if h.accounts.RefuseForm(w, r, problem) {
		return false
	}
	h.kit.Fail(w, r, http.StatusBadRequest, "Not done", problem, page.BackPath(r))
	return false
}

// unstorable says which fields of a form hold text a database cannot keep.
func unstorable(problems map[string]string) string { return page.Unstorable(problems) }

// inboxPolicy allows the page's one inline stylesheet, the layout's
// scripts, the editor's (which sends photographs to the site's own
// address) and the reply form's, by their hashes, and nothing else.
var inboxPolicy = page.Policy(editor.UploadJS, inbox.ReplyJS)

func privateHeaders(w http.ResponseWriter) { page.PrivateHeaders(w, inboxPolicy) }

// SignedIn says whether r comes with a live session (server.Workspace):
// the analytics leave the studio's own visits out.
func (h *Handler) SignedIn(r *http.Request) bool { return h.accounts.SignedIn(r) }

// Previewing is the draft's tree this request may see the site as
// (server.Workspace): when its cookie asks for the preview and it comes
// with a live session; "" otherwise.
func (h *Handler) Previewing(r *http.Request) string { return h.releases.Previewing(r) }

// RollUp makes the insights' days' counts from the raw events and deletes
// events past KeepDays (package insights); the server runs it every few
// minutes.
func (h *Handler) RollUp(ctx context.Context) error { return h.insights.RollUp(ctx) }
