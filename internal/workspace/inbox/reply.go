package inbox

import (
	"errors"
	"net/http"
	"strings"
	"studio/internal/enquiry"
	"studio/internal/store"
	"studio/internal/workspace/page"
	"studio/internal/workspace/upload"
)

// Reply is POST /studio/enquiries/{id}/reply (multipart: the PDF).
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
	a := page.Account(r)
	form := replyForm{
		To:        strings.TrimSpace(r.PostFormValue("to")),
		Subject:   strings.TrimSpace(r.PostFormValue("subject")),
		Body:      strings.TrimSpace(strings.ReplaceAll(r.PostFormValue("body"), "\r\n", "\n")),
		Key:       r.PostFormValue("key"),
		Templates: h.kit.Facts().ReplyTemplates,
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
