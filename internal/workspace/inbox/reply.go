package inbox

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"studio/internal/enquiry"
	"studio/internal/store"
	"studio/internal/workspace/page"
	"studio/internal/workspace/upload"
)

// UseTemplate is the value of the reply form's "use" button that puts the
// chosen template into the message instead of sending (the form's script
// does it in the page; this is the way without scripts).
const UseTemplate = "template"

// Reply is POST /studio/enquiries/{id}/reply (multipart: the PDF): it
// sends the reply, or with use=template puts the chosen template into the
// message, keeping what was typed.
func (h *Handler) Reply(w http.ResponseWriter, r *http.Request) {
	if upload.IsMultipart(r) {
		read, done, ok := h.readReplyForm(w, r)
		if !ok {
			return
		}
		defer done()
		r = read
	}
	e, ok := h.enquiryID(w, r)
	if !ok {
		return
	}
	if e.Erased() {
		h.kit.Fail(w, r, http.StatusConflict, "Not sent", "The reply was not sent: this customer asked to be forgotten and their details were erased, so there is no address to send it to.", page.BackPath(r))
		return
	}
	a := page.Account(r)
	form := replyForm{
		To:        strings.TrimSpace(r.PostFormValue("to")),
		Subject:   strings.TrimSpace(r.PostFormValue("subject")),
		Body:      strings.TrimSpace(strings.ReplaceAll(r.PostFormValue("body"), "\r\n", "\n")),
		Key:       r.PostFormValue("key"),
		Templates: h.replyTemplates(r, e),
	}
	if r.PostFormValue("use") == UseTemplate {
		h.templateInserted(w, r, e, form)
		return
	}
	reply := store.Reply{EnquiryID: e.ID, Author: a.Email, AuthorName: a.Name, To: form.To, Subject: form.Subject, Body: form.Body, FormKey: form.Key}
	problem := checkReply(&reply)
	if problem == "" {
		problem = readAttachment(r, &reply)
	}
	if problem != "" {
		if reply.AttachmentName != "" || hasAttachment(r) {
			problem += " Choose the PDF again: a refused form keeps no file."
		}
		p := &enquiryView{Reply: &form}
		p.Problem = "The reply was not sent: " + problem
		h.enquiryPage(w, r, http.StatusBadRequest, e, p)
		return
	}
	sent, err := h.enquiries.AddReply(r.Context(), reply, h.kit.Now())
	switch {
	case errors.Is(err, enquiry.ErrNotFound):
		h.kit.Fail(w, r, http.StatusNotFound, "Not found", "There is no enquiry #"+r.PathValue("id")+" any more: the reply was not sent.", page.BackPath(r))
		return
	case err != nil:
		h.kit.StoreFailed(w, r, "add reply", err)
		return
	}
	if sent {
		h.kit.Log.Info("studio: reply queued", "enquiry", e.ID, "account", a.Email)
		h.opts.WakeMail()
	}
	afterAction(w, r, e.ID, "replied")
}

// templateInserted shows the enquiry again with form as it was typed and
// the chosen template put in after its message; nothing is sent.
func (h *Handler) templateInserted(w http.ResponseWriter, r *http.Request, e enquiry.Enquiry, form replyForm) {
	n, _ := strconv.Atoi(r.PostFormValue("template"))
	if n < 1 || n > len(form.Templates) {
		p := &enquiryView{Reply: &form}
		p.Problem = "There is no such template any more: the message is as you left it."
		h.enquiryPage(w, r, http.StatusBadRequest, e, p)
		return
	}
	form.insertTemplate(n)
	form.Said = "“" + form.Templates[n-1].Name + "” is in the message, after what you had written. Nothing was sent yet."
	if hasAttachment(r) {
		form.Said += " Choose the PDF again: putting in a template keeps no file."
	}
	h.enquiryPage(w, r, http.StatusOK, e, &enquiryView{Reply: &form})
}
