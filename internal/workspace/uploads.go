package workspace

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"studio/internal/input"
	"studio/internal/workspace/edit"
)

// Uploads of photographs, read as a phone sends them: slowly, and now and
// then not to the end. A product's form posts its files all at once (without
// JavaScript); the upload script (templates/upload.js) sends each on its own
// to photosPath first, then the form with their names (uploadedField).
// Either way the body is read under a deadline that follows its progress,
// each file is measured as it arrives, and a refusal names its cause.

const (
	// photosPath takes one photograph, sent ahead of its form by the script.
	photosPath = "/studio/content/photos"
	// uploadedField is, in a product's form, a photograph sent ahead:
	// "NAME/FILENAME", its name in the uploads folder and the name it had
	// on the phone (for what the form says of it).
	uploadedField = "_uploaded"
	// photoFormSlack is what a request of one photograph may carry besides
	// the photograph: its multipart headers.
	photoFormSlack = 64 << 10
)

// UploadPace is how long an upload may take. Its read deadline follows its
// progress, not the clock: it goes on while at least MinRate bytes a second
// arrive over any Window, and stops after Total in all. Every other request
// keeps the server's short ReadTimeout.
type UploadPace struct {
	MinRate int64 // bytes a second
	Window  time.Duration
	Total   time.Duration
}

// phonePace is the pace of production: a phone with a poor signal goes on
// (at 20 KB/s, a 12 MB photograph takes the 10 minutes); a connection
// that has stopped is let go after half a minute.
var phonePace = UploadPace{MinRate: 20_000, Window: 30 * time.Second, Total: 10 * time.Minute}

// step is how many bytes move the deadline on by a Window.
func (p UploadPace) step() int64 { return int64(float64(p.MinRate) * p.Window.Seconds()) }

// pacedBody is a request's body whose read deadline moves on by a Window
// each time another step of bytes arrives, never past Total from its start.
type pacedBody struct {
	io.ReadCloser
	rc       *http.ResponseController
	pace     UploadPace
	start    time.Time
	got      int64 // bytes read so far
	next     int64 // at this many, the deadline moves on
	lastStep bool  // the deadline is the last one: start + Total
	err      error // the first error of the body's (io.EOF at its end)
}

// paceBody puts r's body under pace, from now. The deadlines are the
// connection's (http.ResponseController): a ResponseWriter that has none
// (a test's recorder) reads without them.
func paceBody(w http.ResponseWriter, r *http.Request, pace UploadPace) *pacedBody {
	p := &pacedBody{ReadCloser: r.Body, rc: http.NewResponseController(w), pace: pace, start: time.Now()}
	// The server's WriteTimeout counts from the request's headers, and
	// over HTTP/2 it ends the stream even while its body is being read.
	_ = p.rc.SetWriteDeadline(p.start.Add(pace.Total + pace.Window))
	p.moveOn()
	r.Body = p
	return p
}

func (p *pacedBody) Read(b []byte) (int, error) {
	n, err := p.ReadCloser.Read(b)
	p.got += int64(n)
	if err != nil && p.err == nil {
		p.err = err
	}
	if err == nil && p.got >= p.next {
		p.moveOn()
	}
	return n, err
}

func (p *pacedBody) moveOn() {
	p.next = p.got + p.pace.step()
	deadline, last := time.Now().Add(p.pace.Window), p.start.Add(p.pace.Total)
	if !deadline.Before(last) {
		deadline, p.lastStep = last, true
	}
	_ = p.rc.SetReadDeadline(deadline)
}

// arrived is the body's progress in words: "4.1 of 12 MB" (or "4.1 MB"
// without a Content-Length).
func (p *pacedBody) arrived(total int64) string {
	if total > 0 {
		return megabytes(p.got) + " of " + megabytes(total) + " MB"
	}
	return megabytes(p.got) + " MB"
}

// megabytes is n bytes in MB, to a tenth: "4.1", "12".
func megabytes(n int64) string {
	return strings.TrimSuffix(strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64), ".0")
}

// refusal is why an upload was not taken, as its answer says it.
type refusal struct {
	status int
	text   string // follows "Nothing was saved: "
	retry  bool   // the connection failed, not the upload: sending it again may work
}

var errTooManyFiles = errors.New("too many files")

// fileTooLarge is a file of the form over edit.MaxPhotoBytes.
type fileTooLarge struct{ name string }

func (e fileTooLarge) Error() string { return e.name + " is too large" }

// receive reads a form with at most maxFiles files, of at most edit.MaxPhotoBytes
// each and maxBytes in all, into r.MultipartForm, once the session is known
// (an anonymous upload is never read). The body is read once as it arrives,
// each part measured and the files counted, and refused at the first
// byte over a limit; it is kept meanwhile in a file of its own, which
// ParseMultipartForm then reads. Nothing is kept of a refused upload.
func (h *Handler) receive(w http.ResponseWriter, r *http.Request, maxFiles int, maxBytes int64) *refusal {
	_, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || params["boundary"] == "" {
		return &refusal{status: http.StatusBadRequest, text: "the form was not sent as a form with files."}
	}
	body := paceBody(w, r, h.opts.UploadPace)
	// The answer, whatever it is, has a Window from the body's end.
	defer func() { _ = body.rc.SetWriteDeadline(time.Now().Add(h.opts.UploadPace.Window)) }()
	spool, err := os.CreateTemp(h.opts.Scratch, "upload-*")
	if err != nil {
		h.log.Error("studio: keep an upload", "err", err)
		return &refusal{status: http.StatusInternalServerError, text: "the server has no room for the upload just now (its log says why).", retry: true}
	}
	defer func() {
		spool.Close()
		os.Remove(spool.Name())
	}()
	parts := multipart.NewReader(io.TeeReader(http.MaxBytesReader(w, body, maxBytes), spool), params["boundary"])
	if err := measureParts(parts, maxFiles); err != nil {
		return h.refusalOf(err, body, r.ContentLength, maxFiles, maxBytes)
	}
	if _, err := spool.Seek(0, io.SeekStart); err != nil {
		return &refusal{status: http.StatusInternalServerError, text: "the upload could not be read back: " + err.Error(), retry: true}
	}
	r.Body = spool
	if err := r.ParseMultipartForm(8 << 20); err != nil {
		return &refusal{status: http.StatusBadRequest, text: fmt.Sprintf("the upload could not be read (%v).", err)}
	}
	return nil
}

// bodyRead is r once its body has arrived, which may be minutes after the
// request began: its database work gets DATABASE_TIMEOUT from now (the
// clock the server started with the request, server.databaseDeadline, is
// let go), and done, when the handler ends, deletes the form's files (the
// server deletes those of the request it made, not of a copy such as
// signedIn's) and stops the clock.
func (h *Handler) bodyRead(r *http.Request) (read *http.Request, done func()) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), h.opts.DatabaseTimeout)
	form := r.MultipartForm
	return r.WithContext(ctx), func() {
		cancel()
		if form != nil {
			form.RemoveAll()
		}
	}
}

// measureParts reads a form's parts as they arrive, counting its files
// and measuring each, and stops at the first over a limit.
func measureParts(parts *multipart.Reader, maxFiles int) error {
	files := 0
	for {
		part, err := parts.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if part.FileName() == "" {
			if _, err := io.Copy(io.Discard, part); err != nil {
				return err
			}
			continue
		}
		if files++; files > maxFiles {
			return errTooManyFiles
		}
		n, err := io.Copy(io.Discard, io.LimitReader(part, edit.MaxPhotoBytes+1))
		if err != nil {
			return err
		}
		if n > edit.MaxPhotoBytes {
			return fileTooLarge{part.FileName()}
		}
	}
}

// refusalOf says why reading an upload failed: a file over the limit, too
// many files, a connection that stopped or became too slow, or a form
// that is not one.
func (h *Handler) refusalOf(err error, body *pacedBody, total int64, maxFiles int, maxBytes int64) *refusal {
	var large fileTooLarge
	var over *http.MaxBytesError
	switch {
	case errors.As(err, &large):
		return &refusal{status: http.StatusRequestEntityTooLarge, text: tooLargeText("“" + large.name + "” is over 30 MB")}
	case errors.Is(err, errTooManyFiles):
		text := fmt.Sprintf("more than %d photographs were sent at once: up to %d can be added at a time. Add the others next.", maxFiles, maxFiles)
		if maxFiles == 1 {
			text = "more than one photograph was sent: this address takes one at a time."
		}
		return &refusal{status: http.StatusRequestEntityTooLarge, text: text}
	case errors.As(err, &over):
		return &refusal{status: http.StatusRequestEntityTooLarge, text: fmt.Sprintf("the form is over %s MB, more than its photographs and texts can be.", megabytes(maxBytes))}
	case body.err != nil && body.err != io.EOF:
		pace := h.opts.UploadPace
		switch {
		case !errors.Is(body.err, os.ErrDeadlineExceeded):
			return &refusal{status: http.StatusBadRequest, text: "the connection stopped after " + body.arrived(total) + ": try again.", retry: true}
		case body.lastStep:
			return &refusal{status: http.StatusRequestTimeout, retry: true,
				text: fmt.Sprintf("the upload took more than %s (%s had arrived): try again where the signal is better, or with fewer photographs at a time.", inWords(pace.Total), body.arrived(total))}
		default:
			return &refusal{status: http.StatusRequestTimeout, retry: true,
				text: fmt.Sprintf("the connection stopped after %s (less than %s KB arrived in %s): try again, where the signal is better if you can.", body.arrived(total), strconv.FormatInt(pace.step()/1000, 10), inWords(pace.Window))}
		}
	}
	return &refusal{status: http.StatusBadRequest, text: fmt.Sprintf("the upload could not be read (%v).", err)}
}

// tooLargeText is what is said of a file over edit.MaxPhotoBytes, after what
// it is.
func tooLargeText(what string) string {
	return what + ": a photograph may be up to 30 MB. Export it smaller (a phone’s “large” size is plenty)."
}

// inWords is a duration as a person says it: "30 seconds", "10 minutes".
func inWords(d time.Duration) string {
	n, unit := int(d/time.Second), "second"
	if d >= time.Minute && d%time.Minute == 0 {
		n, unit = int(d/time.Minute), "minute"
	}
	if n != 1 {
		unit += "s"
	}
	return strconv.Itoa(n) + " " + unit
}

// readUploads reads a form with files (a product's photographs, posted
// without the script), as storableForm reads other forms, once the session
// is known: an anonymous upload is never read. A refusal is the error page;
// else the request to go on with (bodyRead's) and what to do at the end.
func (h *Handler) readUploads(w http.ResponseWriter, r *http.Request) (read *http.Request, done func(), ok bool) {
	if !isMultipart(r) {
		return r, func() {}, true
	}
	refused := h.receive(w, r, maxPhotos, maxPhotos*(edit.MaxPhotoBytes+photoFormSlack)+maxContentForm)
	read, done = h.bodyRead(r)
	if refused != nil {
		h.fail(w, read, refused.status, "Not saved", "Nothing was saved: "+refused.text, r.URL.Path)
		done()
		return nil, nil, false
	}
	if problems := input.Form(read.PostForm); len(problems) > 0 {
		h.fail(w, read, http.StatusBadRequest, "Not saved", "Nothing was saved: "+unstorable(problems), r.URL.Path)
		done()
		return nil, nil, false
	}
	return read, done, true
}

func isMultipart(r *http.Request) bool {
	return strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data")
}

// photoAnswer is photosPath's answer, for the script: the photograph kept
// (Upload, for the form's uploadedField, and what is said of it), or why
// not, and whether sending it again may work.
type photoAnswer struct {
	Upload  string `json:"upload,omitempty"`
	Note    string `json:"note,omitempty"`
	Problem string `json:"problem,omitempty"`
	Retry   bool   `json:"retry,omitempty"`
}

// SendPhoto is POST /studio/content/photos: one photograph, sent ahead of
// its product's form by the upload script, checked and kept in the uploads
// folder as the form's own files are.
func (h *Handler) SendPhoto(w http.ResponseWriter, r *http.Request) {
	answer := func(status int, a photoAnswer) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(a)
	}
	if !isMultipart(r) {
		answer(http.StatusBadRequest, photoAnswer{Problem: "No photograph was sent."})
		return
	}
	if refused := h.receive(w, r, 1, edit.MaxPhotoBytes+photoFormSlack); refused != nil {
		answer(refused.status, photoAnswer{Problem: capitalised(refused.text), Retry: refused.retry})
		return
	}
	r, done := h.bodyRead(r)
	defer done()
	files := r.MultipartForm.File[photoFieldName]
	if len(files) != 1 {
		answer(http.StatusBadRequest, photoAnswer{Problem: "No photograph was sent."})
		return
	}
	if err := h.editor.Photos.Ready(); err != nil {
		answer(http.StatusInternalServerError, photoAnswer{Problem: "The photograph could not be kept: " + err.Error(), Retry: true})
		return
	}
	name, problem, narrow := h.editor.Photos.Stage(files[0])
	if problem != "" {
		answer(http.StatusUnprocessableEntity, photoAnswer{Problem: problem})
		return
	}
	answer(http.StatusOK, photoAnswer{Upload: name + "/" + files[0].Filename, Note: narrow})
}

func capitalised(s string) string {
	first, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(first)) + s[size:]
}
