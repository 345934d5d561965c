// Package inbox is the workspace's inbox: the list of enquiries with its
// filter (list.go), one enquiry and its work, from New to Won or Lost,
// with notes, spam and not-spam, undo and deletion (enquiry.go), a reply
// mailed from it (reply.go, its form in replyform.go), a customer's page
// (customer.go) and the erasure of a person's data (erase.go).
package inbox

import (
	"context"
	"embed"
	"html/template"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store"
	"studio/internal/workspace/page"
	"studio/internal/workspace/upload"
)

// Store is what the inbox reads and writes (a *store.Store).
type Store interface {
	listStore
	enquiryStore
	customerStore
	personEraser
}

// listStore reads the inbox's list.
type listStore interface {
	Enquiries(ctx context.Context, f store.EnquiryFilter) ([]enquiry.Enquiry, error)
	CountNew(ctx context.Context) (int, error)
	FailedSignInsSince(ctx context.Context, account string, since time.Time) (store.FailedSignIns, error)
}

// enquiryStore reads one enquiry and the work on it, and does that work.
type enquiryStore interface {
	Enquiry(ctx context.Context, id int64) (enquiry.Enquiry, error)
	Notes(ctx context.Context, id int64) ([]store.Note, error)
	History(ctx context.Context, id int64) ([]store.Event, error)
	LastChange(ctx context.Context, id int64) (store.Event, bool, error)
	MailDeliveries(ctx context.Context, enquiryIDs []int64) (map[int64][]store.MailDelivery, error)
	Replies(ctx context.Context, enquiryIDs []int64) ([]store.Reply, error)
	AddReply(ctx context.Context, r store.Reply, at time.Time) (bool, error)
	SetStatus(ctx context.Context, id int64, status enquiry.Status, actor string, at time.Time) error
	SetSpam(ctx context.Context, id int64, spam bool, actor string, at time.Time) error
	Undo(ctx context.Context, id, eventID int64, actor string, at time.Time) error
	AddNote(ctx context.Context, id int64, author, body string, at time.Time) error
	DeleteEnquiry(ctx context.Context, id int64, actor string, at time.Time) error
}

// customerStore reads a customer's enquiries and what was done about them.
type customerStore interface {
	Enquiries(ctx context.Context, f store.EnquiryFilter) ([]enquiry.Enquiry, error)
	HistoryOf(ctx context.Context, ids []int64) ([]store.Event, error)
	NotesOf(ctx context.Context, ids []int64) (map[int64][]store.Note, error)
	Replies(ctx context.Context, enquiryIDs []int64) ([]store.Reply, error)
	MailDeliveries(ctx context.Context, enquiryIDs []int64) (map[int64][]store.MailDelivery, error)
	SubscriptionOf(ctx context.Context, email string) (store.Subscription, bool, error)
}

// personEraser erases what the studio holds about an address.
type personEraser interface {
	ErasePerson(ctx context.Context, email, actor string, at time.Time) (int, error)
}

// Options are what the inbox works with besides the store.
type Options struct {
	// WakeMail tells the mail worker that a reply is waiting; nil: mail is
	// off, and the inbox sends no replies.
	WakeMail func()
	// UploadPace is how slowly a reply's PDF may arrive.
	UploadPace upload.Pace
}

// The inbox's own pages: one template file each in templates/, and the
// partials they share in templates/partials/.
//
//go:embed templates
var templateFiles embed.FS

// ReplyJS is the reply form's script, which puts a template in at the
// cursor (templates/reply.js); the page carries it inline, and the
// workspace's policy allows it by its hash.
var ReplyJS = func() string {
	b, err := templateFiles.ReadFile("templates/reply.js")
	if err != nil {
		panic(err)
	}
	return string(b)
}()

// pageFiles are the pages declared with newPage.
var pageFiles page.Names

func newPage(file string) page.Name { return pageFiles.Declare(file) }

// Handler serves the inbox, the enquiries and the customers.
type Handler struct {
	list      listStore
	enquiries enquiryStore
	customers customerStore
	erasures  personEraser
	kit       *page.Kit
	pages     *page.Pages
	opts      Options
}

// New returns the inbox. It panics if a page's template is broken (it is
// built in: a mistake of the build's).
func New(st Store, kit *page.Kit, opts Options) *Handler {
	if opts.UploadPace == (upload.Pace{}) {
		opts.UploadPace = upload.PhonePace
	}
	return &Handler{list: st, enquiries: st, customers: st, erasures: st, kit: kit, opts: opts,
		pages: kit.MustParse(templateFiles, pageFiles, templateFuncs())}
}

// templateFuncs are the functions of the inbox's pages.
func templateFuncs() template.FuncMap {
	return template.FuncMap{
		"kindLabel":   kindLabel,
		"statusLabel": statusLabel,
		"eventText":   eventText,
		"mailTo":      mailTo,
		"customerURL": customerURL,
		"sizeText":    page.SizeText,
		"replyScript": func() template.JS { return template.JS(ReplyJS) },
	}
}
