package inbox

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/mail"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"studio/internal/enquiry"
	"studio/internal/input"
	"studio/internal/store"
	"studio/internal/workspace/accounts"
	"studio/internal/workspace/page"
	"studio/internal/workspace/upload"
)

// Replying to a customer from an enquiry's page: the form, its reply
// templates (content/replies.json, edited in the Content section) and
// sending, through the mail outbox (store.AddReply).

const (
	maxReplySubject    = 200   // characters
	maxReplyBody       = 20000 // characters
	maxAttachmentBytes = 10 << 20
	ReplyPath          = "/reply" // after /studio/enquiries/{id}
)

// replyForm is the reply form as it is shown: filled in for a first
// reply, or as it was sent when it was refused or a template was put in.
type replyForm struct {
	To        string
	Subject   string
	Body      string
	Key       string // the form's own key (store.Reply.FormKey)
	Templates []replyTemplate
	Template  int    // the template chosen (1-based); 0: none
	Said      string // what the form says of itself (a template put in), beside the message
}

// replyTemplate is one of the studio's ready answers, filled in for the
// enquiry: the form's script puts Text in at the cursor, and without
// scripts the server puts it after what was typed (insertTemplate).
type replyTemplate struct {
	Name string
	Text string
}

// sentReply is a reply with its mail's delivery, as the enquiry shows it.
type sentReply struct {
	store.Reply
	Mail *store.MailDelivery // nil when it is not in the outbox (mail is off)
}

// newReplyForm is the form for a first reply to e, with template n
// (1-based; 0 or out of range: none) filled in.
func (h *Handler) newReplyForm(r *http.Request, e enquiry.Enquiry, n int) replyForm {
	f := replyForm{To: e.Email, Subject: e.ReplySubject(h.kit.Facts().StudioName), Key: accounts.NewSecret(), Templates: h.replyTemplates(r, e)}
	f.insertTemplate(n)
	return f
}

// replyTemplates are the studio's reply templates filled in for e, signed
// by the account of r.
func (h *Handler) replyTemplates(r *http.Request, e enquiry.Enquiry) []replyTemplate {
	sender := page.Account(r).Name
	if sender == "" {
		sender = h.kit.Facts().StudioName // an account without a name signs as the studio
	}
	var list []replyTemplate
	for _, t := range h.kit.Facts().ReplyTemplates {
		list = append(list, replyTemplate{Name: t.Name, Text: fillTemplate(t.Body, e, sender)})
	}
	return list
}

// insertTemplate puts template n (1-based; out of range: none) after what
// the message says already, a blank line between them, and keeps it
// chosen.
func (f *replyForm) insertTemplate(n int) {
	if n < 1 || n > len(f.Templates) {
		return
	}
	f.Template = n
	text := f.Templates[n-1].Text
	if typed := strings.TrimRight(f.Body, " \t\n"); typed != "" {
		text = typed + "\n\n" + text
	}
	f.Body = text
}

// pieceOf names what e asked about: its product, or a shortlist's first
// piece and how many more.
func pieceOf(e enquiry.Enquiry) string {
	switch names := piecesOf(e); len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	default:
		return fmt.Sprintf("%s and %d more", names[0], len(names)-1)
	}
}

// fillTemplate puts the customer's name, the piece and the sender into a
// template's text.
func fillTemplate(text string, e enquiry.Enquiry, sender string) string {
	piece := pieceOf(e)
	if piece == "" {
		piece = "your enquiry"
	}
	return strings.NewReplacer("{{name}}", e.Name, "{{piece}}", piece, "{{sender}}", sender).Replace(text)
}

// checkReply checks what the form says, trimmed, and says the first
// problem in words ("" when there is none).
func checkReply(r *store.Reply) string {
	to, err := mail.ParseAddress(r.To)
	switch n := utf8.RuneCountInString(r.Subject); {
	case r.FormKey == "" || len(r.FormKey) > 100:
		return "the form is not the workspace's own. Open the enquiry again."
	case r.To == "":
		return "say whom it goes to (To)."
	case err != nil || to.Name != "" || to.Address != r.To:
		return "“" + r.To + "” is not one e-mail address (name@example.com)."
	case n == 0:
		return "the subject is empty."
	case n > maxReplySubject:
		return fmt.Sprintf("the subject is %d characters long: keep it to %d.", n, maxReplySubject)
	case strings.ContainsAny(r.Subject, "\r\n"):
		return "the subject must be one line."
	case r.Body == "":
		return "the message is empty: write it, or choose a template."
	case utf8.RuneCountInString(r.Body) > maxReplyBody:
		return fmt.Sprintf("the message is %d characters long: keep it to %d.", utf8.RuneCountInString(r.Body), maxReplyBody)
	}
	return ""
}

// hasAttachment tells whether the form carried a file.
func hasAttachment(r *http.Request) bool {
	return r.MultipartForm != nil && len(r.MultipartForm.File["attachment"]) > 0 && r.MultipartForm.File["attachment"][0].Size > 0
}

// readAttachment reads the form's PDF, if any, into reply.
func readAttachment(r *http.Request, reply *store.Reply) string {
	if !hasAttachment(r) {
		return ""
	}
	fh := r.MultipartForm.File["attachment"][0]
	name := filepath.Base(strings.ReplaceAll(fh.Filename, "\\", "/"))
	if !input.Storable(name) {
		return "the PDF’s file name has a character that cannot be kept (a NUL, or bytes that are not UTF-8 text): rename it."
	}
	if fh.Size > maxAttachmentBytes {
		return fmt.Sprintf("“%s” is %.1f MB: attach a PDF of up to 10 MB.", name, float64(fh.Size)/(1<<20))
	}
	f, err := fh.Open()
	if err != nil {
		return "the attachment could not be read: " + err.Error()
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxAttachmentBytes+1))
	if err != nil {
		return "the attachment could not be read: " + err.Error()
	}
	if !bytes.HasPrefix(b, []byte("%PDF-")) {
		return "“" + name + "” is not a PDF: attach the quote as a PDF."
	}
	if !strings.EqualFold(filepath.Ext(name), ".pdf") {
		name += ".pdf"
	}
	reply.AttachmentName, reply.Attachment = name, b
	return ""
}

// readReplyForm reads the reply's multipart form (its PDF of up to
// 10 MB), once the session is known, and refuses text a database cannot
// keep, as package workspace does for other forms; as the Content section's uploads, it gives the
// request to go on with and what to do at the end.
func (h *Handler) readReplyForm(w http.ResponseWriter, r *http.Request) (read *http.Request, done func(), ok bool) {
	// A PDF from a phone takes longer than ReadTimeout: its deadline
	// follows its progress, as a photograph's does.
	body := upload.Paced(w, r, h.opts.UploadPace)
	defer body.Answer()
	r.Body = http.MaxBytesReader(w, body, maxAttachmentBytes+page.MaxForm)
	err := r.ParseMultipartForm(page.MaxForm)
	read, done = upload.BodyRead(r, h.kit.DatabaseTimeout)
	if err != nil {
		status, text := http.StatusRequestEntityTooLarge, "The reply was not sent: the form could not be read. Attach a PDF of up to 10 MB."
		if body.Stopped() != nil {
			status, text = http.StatusRequestTimeout, "The reply was not sent: the connection stopped after "+body.Arrived(r.ContentLength)+". Try again, where the signal is better if you can."
		}
		h.kit.Fail(w, read, status, "Not sent", text, page.BackPath(r))
		done()
		return nil, nil, false
	}
	if problems := input.Form(read.PostForm); len(problems) > 0 {
		h.kit.Fail(w, read, http.StatusBadRequest, "Not sent", "The reply was not sent: "+page.Unstorable(problems), page.BackPath(r))
		done()
		return nil, nil, false
	}
	return read, done, true
}

// IsReply tells whether r posts a reply (its multipart form is read by
// Reply, once the session is known).
func IsReply(r *http.Request) bool {
	return strings.HasPrefix(r.URL.Path, "/studio/enquiries/") && strings.HasSuffix(r.URL.Path, ReplyPath)
}
