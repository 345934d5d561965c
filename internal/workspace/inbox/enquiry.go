package inbox

import (
	"context"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"studio/internal/enquiry"
	"studio/internal/store"
	"studio/internal/workspace/page"
)

// One enquiry's page, the work done on it (status, spam, undo, notes) and
// its deletion.

// maxNote is the longest note, in characters.
const maxNote = 5000

var (
	enquiryPage       = newPage("enquiry.html")
	confirmDeletePage = newPage("confirm-delete.html")
)

// enquiryView is one enquiry and its work.
type enquiryView struct {
	page.Frame
	Enquiry     *enquiry.Enquiry
	Notes       []store.Note
	History     []store.Event
	Undo        *store.Event         // the last change, while it can be undone
	Mails       []store.MailDelivery // the enquiry's mails but its replies
	Replies     []sentReply
	Reply       *replyForm   // nil: mail is off, no replies can be sent
	Draft       string       // a refused note, to edit and send again
	ReplyURL    template.URL // "" when the customer's details were erased
	WhatsAppURL template.URL
	Back        string // the list it was opened from
	Statuses    []enquiry.Status
}

// confirmDeleteView asks before an enquiry is deleted.
type confirmDeleteView struct {
	page.Frame
	Enquiry *enquiry.Enquiry
	Back    string // the list it was opened from
}

// enquiryID reads {id}, answering 404 for none or a malformed one.
func (h *Handler) enquiryID(w http.ResponseWriter, r *http.Request) (enquiry.Enquiry, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	var e enquiry.Enquiry
	if err == nil && id > 0 {
		e, err = h.enquiries.Enquiry(r.Context(), id)
	} else {
		err = enquiry.ErrNotFound
	}
	switch {
	case errors.Is(err, enquiry.ErrNotFound):
		h.kit.Fail(w, r, http.StatusNotFound, "Not found", "There is no enquiry #"+r.PathValue("id")+". It may have been deleted.", page.BackPath(r))
		return e, false
	case err != nil:
		h.kit.StoreFailed(w, r, "read enquiry", err)
		return e, false
	}
	return e, true
}

// Enquiry is GET /studio/enquiries/{id}: the enquiry and its work.
func (h *Handler) Enquiry(w http.ResponseWriter, r *http.Request) {
	e, ok := h.enquiryID(w, r)
	if !ok {
		return
	}
	p := &enquiryView{Reply: h.replyForm(r, e)}
	if r.URL.Query().Get("done") == "replied" {
		p.Notice = "Your reply is on its way: its delivery shows under Replies."
	}
	h.enquiryPage(w, r, http.StatusOK, e, p)
}

// detail renders an enquiry's page, with a problem (and the note that
// caused it, kept for another try) when an action was refused.
func (h *Handler) detail(w http.ResponseWriter, r *http.Request, status int, e enquiry.Enquiry, problem, draft string) {
	p := &enquiryView{Draft: draft, Reply: h.replyForm(r, e)}
	p.Problem = problem
	h.enquiryPage(w, r, status, e, p)
}

// replyForm is the enquiry's reply form with the template asked for
// (?template=n), or nil when mail is off or there is no one to reply to.
func (h *Handler) replyForm(r *http.Request, e enquiry.Enquiry) *replyForm {
	if h.opts.WakeMail == nil || e.Erased() {
		return nil
	}
	n, _ := strconv.Atoi(r.URL.Query().Get("template"))
	f := h.newReplyForm(r, e, n)
	return &f
}

// enquiryPage renders an enquiry's page: p's problem, notice, note and
// reply form, and the rest read here.
func (h *Handler) enquiryPage(w http.ResponseWriter, r *http.Request, status int, e enquiry.Enquiry, p *enquiryView) {
	ctx := r.Context()
	p.Title = "#" + strconv.FormatInt(e.ID, 10) + " " + e.Name
	p.Enquiry, p.Back, p.Statuses = &e, page.BackPath(r), enquiry.Statuses
	var err error
	if p.Notes, err = h.enquiries.Notes(ctx, e.ID); err == nil {
		if p.History, err = h.enquiries.History(ctx, e.ID); err == nil {
			var ev store.Event
			var undoable bool
			if ev, undoable, err = h.enquiries.LastChange(ctx, e.ID); undoable {
				p.Undo = &ev
			}
			if err == nil {
				p.Mails, p.Replies, err = h.mailsOf(ctx, e.ID)
			}
		}
	}
	if err != nil {
		h.kit.Log.Error("studio: read enquiry's work", "id", e.ID, "err", err)
		h.kit.Fail(w, r, http.StatusServiceUnavailable, "Enquiries", "This enquiry cannot be read just now: the database did not answer. Try again in a minute.", "")
		return
	}
	if !e.Erased() {
		p.ReplyURL = replyURL(e, h.kit.Facts().StudioName, h.kit.Location)
	}
	p.WhatsAppURL = whatsAppURL(e.Phone, h.kit.Facts().StudioPhone)
	h.pages.Render(w, r, status, enquiryPage, p)
}

// mailsOf reads an enquiry's mails and its replies, each reply with its
// mail's delivery.
func (h *Handler) mailsOf(ctx context.Context, id int64) ([]store.MailDelivery, []sentReply, error) {
	deliveries, err := h.enquiries.MailDeliveries(ctx, []int64{id})
	if err != nil {
		return nil, nil, err
	}
	replies, err := h.enquiries.Replies(ctx, []int64{id})
	if err != nil {
		return nil, nil, err
	}
	byReply, mails := replyMails(deliveries[id])
	sent := make([]sentReply, len(replies))
	for i, rp := range replies {
		sent[i] = sentReply{Reply: rp, Mail: byReply[rp.ID]}
	}
	return mails, sent, nil
}

// afterAction goes back to the enquiry's page, keeping the way back to
// the list; done, when given, says what was done (?done=).
func afterAction(w http.ResponseWriter, r *http.Request, id int64, done ...string) {
	target := "/studio/enquiries/" + strconv.FormatInt(id, 10)
	q := url.Values{}
	if back := page.BackPath(r); back != "/studio" {
		q.Set("return", back)
	}
	if len(done) > 0 {
		q.Set("done", done[0])
	}
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// SetStatus is POST /studio/enquiries/{id}/status.
func (h *Handler) SetStatus(w http.ResponseWriter, r *http.Request) {
	e, ok := h.enquiryID(w, r)
	if !ok {
		return
	}
	status := enquiry.Status(r.PostFormValue("status"))
	if !status.Valid() {
		h.detail(w, r, http.StatusBadRequest, e, "There is no status “"+string(status)+"”: nothing was changed.", "")
		return
	}
	if err := h.enquiries.SetStatus(r.Context(), e.ID, status, page.Actor(r), h.kit.Now()); err != nil {
		h.kit.StoreFailed(w, r, "set status", err)
		return
	}
	afterAction(w, r, e.ID)
}

// SetSpam is POST /studio/enquiries/{id}/spam, spam=true or false.
func (h *Handler) SetSpam(w http.ResponseWriter, r *http.Request) {
	e, ok := h.enquiryID(w, r)
	if !ok {
		return
	}
	spam, err := strconv.ParseBool(r.PostFormValue("spam"))
	if err != nil {
		h.detail(w, r, http.StatusBadRequest, e, "Say spam=true or spam=false: nothing was changed.", "")
		return
	}
	if err := h.enquiries.SetSpam(r.Context(), e.ID, spam, page.Actor(r), h.kit.Now()); err != nil {
		h.kit.StoreFailed(w, r, "set spam", err)
		return
	}
	afterAction(w, r, e.ID)
}

// Undo is POST /studio/enquiries/{id}/undo, change=the event's id.
func (h *Handler) Undo(w http.ResponseWriter, r *http.Request) {
	e, ok := h.enquiryID(w, r)
	if !ok {
		return
	}
	change, _ := strconv.ParseInt(r.PostFormValue("change"), 10, 64)
	err := h.enquiries.Undo(r.Context(), e.ID, change, page.Actor(r), h.kit.Now())
	switch {
	case errors.Is(err, store.ErrStale):
		h.detail(w, r, http.StatusConflict, e, "That change cannot be undone any more: it was undone already, or someone changed the enquiry since. Nothing was changed.", "")
		return
	case err != nil:
		h.kit.StoreFailed(w, r, "undo", err)
		return
	}
	afterAction(w, r, e.ID)
}

// AddNote is POST /studio/enquiries/{id}/notes.
func (h *Handler) AddNote(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	e, ok := h.enquiryID(w, r)
	if !ok {
		return
	}
	body := strings.TrimSpace(strings.ReplaceAll(r.PostFormValue("note"), "\r\n", "\n"))
	switch n := utf8.RuneCountInString(body); {
	case n == 0:
		h.detail(w, r, http.StatusBadRequest, e, "The note is empty: write it first.", "")
		return
	case n > maxNote:
		h.detail(w, r, http.StatusBadRequest, e, "The note is "+strconv.Itoa(n)+" characters long: keep it to "+strconv.Itoa(maxNote)+". It was not added.", body)
		return
	}
	if err := h.enquiries.AddNote(r.Context(), e.ID, page.Actor(r), body, h.kit.Now()); err != nil {
		h.kit.StoreFailed(w, r, "add note", err)
		return
	}
	afterAction(w, r, e.ID)
}

// ConfirmDelete is GET /studio/enquiries/{id}/delete: the question first.
func (h *Handler) ConfirmDelete(w http.ResponseWriter, r *http.Request) {
	e, ok := h.enquiryID(w, r)
	if !ok {
		return
	}
	h.pages.Render(w, r, http.StatusOK, confirmDeletePage, &confirmDeleteView{Frame: page.Frame{Title: "Delete #" + strconv.FormatInt(e.ID, 10) + "?"}, Enquiry: &e, Back: page.BackPath(r)})
}

// Delete is POST /studio/enquiries/{id}/delete.
func (h *Handler) Delete(w http.ResponseWriter, r *http.Request) {
	e, ok := h.enquiryID(w, r)
	if !ok {
		return
	}
	if err := h.enquiries.DeleteEnquiry(r.Context(), e.ID, page.Actor(r), h.kit.Now()); err != nil {
		h.kit.StoreFailed(w, r, "delete", err)
		return
	}
	h.kit.Log.Info("studio: enquiry deleted", "id", e.ID, "account", page.Actor(r))
	back, _ := url.Parse(page.BackPath(r))
	q := back.Query()
	q.Set("deleted", strconv.FormatInt(e.ID, 10))
	back.RawQuery = q.Encode()
	http.Redirect(w, r, back.String(), http.StatusSeeOther)
}

// replyURL opens the studio's mail program on a reply: the subject of the
// replies from the inbox (the acknowledgement's, after "Re: "), so the
// customer sees one conversation, and the visitor's message quoted.
func replyURL(e enquiry.Enquiry, studio string, loc *time.Location) template.URL {
	body := "\n\nOn " + e.CreatedAt.In(loc).Format("2 Jan 2006 at 15:04") + ", " + e.Name + " wrote:\n"
	for line := range strings.SplitSeq(e.Message, "\n") {
		body += "> " + line + "\n"
	}
	// RFC 6068 wants %20 for a space; "+" would show as a plus.
	escape := func(s string) string { return strings.ReplaceAll(url.QueryEscape(s), "+", "%20") }
	u := "mailto:" + url.PathEscape(e.Email) + "?subject=" + escape(e.ReplySubject(studio)) + "&body=" + escape(body)
	return template.URL(u) // built from escaped parts only
}

// whatsAppURL is a wa.me link to a phone, or "" when the phone cannot be
// read as a number. A number without a country code ("98290 41752",
// "098290 41752") is taken to be in the studio's country: it gets the
// country code of the studio's own number of that length.
func whatsAppURL(phone, studioPhone string) template.URL {
	digits := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, s)
	}
	number := digits(phone)
	switch trimmed := strings.TrimSpace(phone); {
	case number == "":
		return ""
	case strings.HasPrefix(trimmed, "+"):
	case strings.HasPrefix(number, "00"):
		number = number[2:]
	default:
		number = strings.TrimPrefix(number, "0")
		studio := digits(studioPhone)
		if !strings.HasPrefix(strings.TrimSpace(studioPhone), "+") || len(number) < 7 || len(studio) <= len(number) {
			return ""
		}
		number = studio[:len(studio)-len(number)] + number
	}
	if len(number) < 8 || len(number) > 15 { // E.164 numbers have at most 15 digits
		return ""
	}
	return template.URL("https://wa.me/" + number)
}
