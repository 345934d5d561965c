package editor

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"strconv"
	"unicode"
	"unicode/utf8"

	"studio/internal/input"
	"studio/internal/workspace/edit"
	"studio/internal/workspace/page"
	"studio/internal/workspace/upload"
)

// Uploads of photographs, read as a phone sends them: slowly, and now and
// then not to the end. A product's form posts its files all at once (without
// JavaScript); the upload script (templates/upload.js) sends each on its own
// to PhotosPath first, then the form with their names (UploadedField).
// Either way the body is read under a deadline that follows its progress,
// each file is measured as it arrives, and a refusal names its cause.

const (
	// maxPhotos is how many photographs one form may add.
	maxPhotos = 12
	// PhotoField is the field of a form's photographs (templates/partials/field.html).
	PhotoField = "photos"
	// UploadedField is, in a product's form, a photograph sent ahead:
	// "NAME/FILENAME", its name in the uploads folder and the name it had
	// on the phone (for what the form says of it).
	UploadedField = "_uploaded"
	// photoFormSlack is what a request of one photograph may carry besides
	// the photograph: its multipart headers.
	photoFormSlack = 64 << 10
)

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
	body := upload.Paced(w, r, h.opts.Pace)
	defer body.Answer()
	spool, err := os.CreateTemp(h.opts.Scratch, "upload-*")
	if err != nil {
		h.kit.Log.Error("studio: keep an upload", "err", err)
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
func (h *Handler) refusalOf(err error, body *upload.Body, total int64, maxFiles int, maxBytes int64) *refusal {
	var large fileTooLarge
	var over *http.MaxBytesError
	switch {
	case errors.As(err, &large):
		// Read no further than the limit: the file's size is known only
		// when it came alone (the script's), from the request's.
		size := fmt.Sprintf("over %d MB", edit.MaxPhotoBytes>>20)
		if maxFiles == 1 && total > edit.MaxPhotoBytes {
			size = edit.Megabytes(total)
		}
		return &refusal{status: http.StatusRequestEntityTooLarge, text: edit.SayPhoto("large", large.name, size)}
	case errors.Is(err, errTooManyFiles):
		text := fmt.Sprintf("more than %d photographs were sent at once: up to %d can be added at a time. Add the others next.", maxFiles, maxFiles)
		if maxFiles == 1 {
			text = "more than one photograph was sent: this address takes one at a time."
		}
		return &refusal{status: http.StatusRequestEntityTooLarge, text: text}
	case errors.As(err, &over):
		return &refusal{status: http.StatusRequestEntityTooLarge, text: fmt.Sprintf("the form is over %s MB, more than its photographs and texts can be.", upload.Megabytes(maxBytes))}
	case body.Stopped() != nil:
		pace := h.opts.Pace
		switch {
		case !errors.Is(body.Stopped(), os.ErrDeadlineExceeded):
			return &refusal{status: http.StatusBadRequest, text: "the connection stopped after " + body.Arrived(total) + ": try again.", retry: true}
		case body.LastStep():
			return &refusal{status: http.StatusRequestTimeout, retry: true,
				text: fmt.Sprintf("the upload took more than %s (%s had arrived): try again where the signal is better, or with fewer photographs at a time.", upload.InWords(pace.Total), body.Arrived(total))}
		default:
			return &refusal{status: http.StatusRequestTimeout, retry: true,
				text: fmt.Sprintf("the connection stopped after %s (less than %s KB arrived in %s): try again, where the signal is better if you can.", body.Arrived(total), strconv.FormatInt(pace.Step()/1000, 10), upload.InWords(pace.Window))}
		}
	}
	return &refusal{status: http.StatusBadRequest, text: fmt.Sprintf("the upload could not be read (%v).", err)}
}

// readUploads reads a form with files (a product's photographs, posted
// without the script), as the workspace reads other forms (storableForm), once the session
// is known: an anonymous upload is never read. A refusal is the error page;
// else the request to go on with (bodyRead's) and what to do at the end.
func (h *Handler) readUploads(w http.ResponseWriter, r *http.Request) (read *http.Request, done func(), ok bool) {
	if !upload.IsMultipart(r) {
		return r, func() {}, true
	}
	refused := h.receive(w, r, maxPhotos, maxPhotos*(edit.MaxPhotoBytes+photoFormSlack)+MaxForm)
	read, done = upload.BodyRead(r, h.kit.DatabaseTimeout)
	if refused != nil {
		h.fail(w, read, refused.status, "Not saved", "Nothing was saved: "+refused.text, r.URL.Path)
		done()
		return nil, nil, false
	}
	if problems := input.Form(read.PostForm); len(problems) > 0 {
		h.fail(w, read, http.StatusBadRequest, "Not saved", "Nothing was saved: "+page.Unstorable(problems), r.URL.Path)
		done()
		return nil, nil, false
	}
	return read, done, true
}

// photoAnswer is PhotosPath's answer, for the script: the photograph kept
// (Upload, for the form's UploadedField, and what is said of it), or why
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
	if !upload.IsMultipart(r) {
		answer(http.StatusBadRequest, photoAnswer{Problem: "No photograph was sent."})
		return
	}
	if refused := h.receive(w, r, 1, edit.MaxPhotoBytes+photoFormSlack); refused != nil {
		answer(refused.status, photoAnswer{Problem: capitalised(refused.text), Retry: refused.retry})
		return
	}
	r, done := upload.BodyRead(r, h.kit.DatabaseTimeout)
	defer done()
	files := r.MultipartForm.File[PhotoField]
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
