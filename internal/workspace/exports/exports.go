// Package exports is the workspace's CSV exports for spreadsheets and
// scripts: the enquiries (what the inbox's filter chooses, or every one)
// and the newsletter's list; its cells and files (csv.go) are the
// insights' too.
package exports

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"studio/internal/enquiry"
	"studio/internal/input"
	"studio/internal/store"
	"studio/internal/workspace/filter"
	"studio/internal/workspace/page"
)

// Store reads what the CSV exports hold (a *store.Store).
type Store interface {
	Enquiries(ctx context.Context, f store.EnquiryFilter) ([]enquiry.Enquiry, error)
	NotesOf(ctx context.Context, ids []int64) (map[int64][]store.Note, error)
	Replies(ctx context.Context, enquiryIDs []int64) ([]store.Reply, error)
	Subscribers(ctx context.Context) ([]enquiry.Subscriber, error)
}

// Handler serves the CSV exports.
type Handler struct {
	store Store
	kit   *page.Kit
}

// New returns the exports.
func New(st Store, kit *page.Kit) *Handler { return &Handler{store: st, kit: kit} }

// EnquiriesCSV is GET /studio/enquiries.csv: the enquiries the inbox's
// filter chooses, or every one, spam included and marked; newest first. A
// shortlist's quote request is one row per piece, each with the enquiry's
// id and the rest of the enquiry repeated, so a spreadsheet can sort or
// filter the pieces and still tell whose they are; any other enquiry is one row, its quantity empty. quantity, note
// and notes come last, so the columns that were there before keep their
// places.
func (h *Handler) EnquiriesCSV(w http.ResponseWriter, r *http.Request) {
	// With the inbox's filter (its link carries it), what the inbox lists
	// with it, every page, a part it cannot use left out as the inbox
	// leaves it; with none (a script's), every enquiry, spam too.
	f := store.EnquiryFilter{AllSpam: true}
	if q := r.URL.Query(); slices.ContainsFunc(filter.Keys, q.Has) {
		f, _ = filter.FormOf(q).Filter(h.kit.Location)
	}
	var list []enquiry.Enquiry
	var notes map[int64][]store.Note
	replies := map[int64][]store.Reply{}
	var err error
	// Text the database cannot keep is in no enquiry (package input).
	if input.Storable(f.Search) {
		list, err = h.store.Enquiries(r.Context(), f)
	}
	if err == nil {
		ids := make([]int64, len(list))
		for i, e := range list {
			ids[i] = e.ID
		}
		notes, err = h.store.NotesOf(r.Context(), ids)
		if err == nil {
			var list []store.Reply
			list, err = h.store.Replies(r.Context(), ids)
			for _, rp := range list {
				replies[rp.EnquiryID] = append(replies[rp.EnquiryID], rp)
			}
		}
	}
	if err != nil {
		h.kit.Log.Error("studio: export enquiries", "err", err)
		http.Error(w, "500 the database did not answer", http.StatusInternalServerError)
		return
	}
	rows := make([][]string, 0, len(list))
	for _, e := range list {
		pieces := e.Items
		if len(pieces) == 0 {
			pieces = []enquiry.Item{{ProductID: e.ProductID, ProductName: e.ProductName, Material: e.Material, Finish: e.Finish}}
		}
		for _, it := range pieces {
			product, quantity := "", ""
			if it.ProductID != 0 {
				product = strconv.Itoa(it.ProductID)
			}
			if it.Quantity != 0 {
				quantity = strconv.Itoa(it.Quantity)
			}
			n := Neutralise
			rows = append(rows, []string{strconv.FormatInt(e.ID, 10), e.CreatedAt.In(h.kit.Location).Format(time.RFC3339), string(e.Kind),
				product, n(it.ProductName), n(it.Material), n(it.Finish), n(e.Name), n(e.Email), phoneCell(e.Phone), n(e.Message), string(e.Status), strconv.FormatBool(e.Spam),
				quantity, n(it.Note), n(notesCell(notes[e.ID], h.kit.Location)), n(repliesCell(replies[e.ID], h.kit.Location))})
		}
	}
	h.kit.Log.Info("studio: enquiries exported", "account", page.Actor(r), "enquiries", len(list), "rows", len(rows))
	WriteCSV(w, "enquiries-"+h.exportDay(), []string{"id", "received", "kind", "product_id", "product", "material", "finish", "name", "email", "phone", "message", "status", "spam", "quantity", "note", "notes", "replies"}, rows)
}

// repliesCell is an enquiry's replies in one cell, oldest first, each its
// line "2026-11-20 14:03 asha@… to meera@…: Re: …" and its text, a blank
// line between two.
func repliesCell(replies []store.Reply, loc *time.Location) string {
	parts := make([]string, len(replies))
	for i, rp := range replies {
		parts[i] = rp.CreatedAt.In(loc).Format("2006-01-02 15:04") + " " + rp.Author + " to " + rp.To + ": " + rp.Subject
		if rp.AttachmentName != "" {
			parts[i] += " (attached: " + rp.AttachmentName + ")"
		}
		parts[i] += "\n" + rp.Body
	}
	return strings.Join(parts, "\n\n")
}

// notesCell is an enquiry's notes in one cell, oldest first, a line each:
// "2026-11-20 14:03 asha@…: Called; she wants it in teak".
func notesCell(notes []store.Note, loc *time.Location) string {
	lines := make([]string, len(notes))
	for i, n := range notes {
		lines[i] = n.At.In(loc).Format("2006-01-02 15:04") + " " + n.Author + ": " + n.Body
	}
	return strings.Join(lines, "\n")
}

// NewsletterCSV is GET /studio/newsletter.csv.
func (h *Handler) NewsletterCSV(w http.ResponseWriter, r *http.Request) {
	list, err := h.store.Subscribers(r.Context())
	if err != nil {
		h.kit.Log.Error("studio: export newsletter", "err", err)
		http.Error(w, "500 the database did not answer", http.StatusInternalServerError)
		return
	}
	rows := make([][]string, 0, len(list))
	for _, s := range list {
		rows = append(rows, []string{Neutralise(s.Email), s.CreatedAt.In(h.kit.Location).Format(time.RFC3339)})
	}
	WriteCSV(w, "newsletter-"+h.exportDay(), []string{"email", "subscribed"}, rows)
}

// exportDay names an export of everything by the day it was saved, in
// the studio's time zone: at 01:40 in Jaipur on 29 November it is the
// 29th there, whatever the date in UTC.
func (h *Handler) exportDay() string {
	return h.kit.Now().In(h.kit.Location).Format(time.DateOnly)
}
