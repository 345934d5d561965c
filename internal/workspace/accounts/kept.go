package accounts

import (
	"io"
	"mime"
	"net/http"
	"strings"

	"studio/internal/workspace/page"
)

// A form sent after its session ended (expired, or ended from another
// browser) is not lost: the gate answers it with the sign-in page, which
// carries the form's fields in hidden inputs (keptPrefix + the field's
// name); once signed in, a page sends them where they were going with one
// tap. A form with a password (a sign-in's, a new password's) is never
// kept. Files cannot be kept: that page asks for them again. A script's request (Sec-Fetch-Mode other than navigate: the
// photographs' upload) is sent to sign in as before, which the script
// tells its person.

// The sign-in form's fields of a kept form.
const (
	keptPrefix    = "kept."          // + a field's name: its value, once for each
	keptTo        = "kept-to"        // the address it was sent to
	keptMultipart = "kept-multipart" // "1": it was sent as multipart/form-data
	keptFile      = "kept-file"      // the name of a field that held files, once for each
)

// passwords are the fields of a form that is never kept.
var passwords = map[string]bool{"password": true, "current": true, "again": true}

// keptForm is a form kept through a sign-in.
type keptForm struct {
	To        string
	Multipart bool
	Fields    []keptField
	Files     []string // the names of its fields that held files, which must be chosen again
}

type keptField struct{ Name, Value string }

// keepable says whether a request that came without a live session is a
// form its person sent (a navigation), whose fields can be kept.
func keepable(r *http.Request) bool {
	mode := r.Header.Get("Sec-Fetch-Mode")
	return r.Method == http.MethodPost && (mode == "" || mode == "navigate") && page.InboxPath(r.URL.Path) == r.URL.Path
}

// keepForm reads the fields of r, a form sent without a live session (the
// workspace's edge has parsed it unless it is multipart); nil when there
// is nothing to keep.
func keepForm(w http.ResponseWriter, r *http.Request) *keptForm {
	k := &keptForm{To: r.URL.Path}
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mediaType == "multipart/form-data" {
		k.Multipart = true
		if !k.readMultipart(w, r) {
			return nil
		}
	} else {
		if r.ParseForm() != nil {
			return nil
		}
		for name, values := range r.PostForm {
			for _, v := range values {
				k.add(name, v)
			}
		}
	}
	if len(k.Fields) == 0 && len(k.Files) == 0 {
		return nil
	}
	for _, f := range k.Fields {
		if passwords[f.Name] {
			return nil
		}
	}
	return k
}

// add keeps a field; the sign-in form's own names are not a form's.
func (k *keptForm) add(name, value string) {
	if !strings.HasPrefix(name, "kept") {
		k.Fields = append(k.Fields, keptField{name, value})
	}
}

// readMultipart keeps the text fields of a multipart form, up to the
// largest form the workspace reads, and the names of those that held
// files; false when the form cannot be read.
func (k *keptForm) readMultipart(w http.ResponseWriter, r *http.Request) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxKeptBytes+maxKeptFiles)
	parts, err := r.MultipartReader()
	if err != nil {
		return false
	}
	text := 0
	for {
		part, err := parts.NextPart()
		if err == io.EOF {
			return true
		}
		if err != nil {
			return false
		}
		if _, isFile := part.Header["Content-Type"]; isFile || part.FileName() != "" {
			if n, _ := io.Copy(io.Discard, part); n > 0 && !contains(k.Files, part.FormName()) {
				k.Files = append(k.Files, part.FormName())
			}
			continue
		}
		b, err := io.ReadAll(io.LimitReader(part, int64(maxKeptBytes-text+1)))
		if text += len(b); err != nil || text > maxKeptBytes {
			return false
		}
		k.add(part.FormName(), string(b))
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// maxKeptBytes is the most text kept of a form: the content's forms are
// the largest the workspace reads. maxKeptFiles is how much of a form's
// files is read past to reach its other fields.
const (
	maxKeptBytes = 2 << 20
	maxKeptFiles = 64 << 20
)

// SignInFormLimit is the most the workspace's edge reads of a sign-in
// form: room for a kept form's fields, and the e-mail and password, from
// a browser that had a session (its cookie); as much as any other form
// (page.MaxForm) from anyone else.
func (h *Handler) SignInFormLimit(r *http.Request) int64 {
	if _, err := r.Cookie(h.cookieName(r)); err != nil {
		return page.MaxForm
	}
	return maxKeptBytes + 8<<10
}

// keptFromSignIn reads a kept form back from the sign-in form's fields;
// nil when it carries none.
func keptFromSignIn(r *http.Request) *keptForm {
	to := r.PostFormValue(keptTo)
	if to == "" || page.InboxPath(to) != to {
		return nil
	}
	k := &keptForm{To: to, Multipart: r.PostFormValue(keptMultipart) == "1", Files: r.PostForm[keptFile]}
	for name, values := range r.PostForm {
		if field, ok := strings.CutPrefix(name, keptPrefix); ok {
			for _, v := range values {
				k.add(field, v)
			}
		}
	}
	return k
}

var sendKeptPage = newPage("send-kept.html")

type sendKeptView struct {
	page.Frame
	Kept *keptForm
}

// showSendKept is the page after signing in with a kept form: one tap
// sends it where it was going.
func (h *Handler) showSendKept(w http.ResponseWriter, r *http.Request, k *keptForm) {
	v := &sendKeptView{Frame: page.Frame{Title: "Send what you were sending", Notice: "You are signed in."}, Kept: k}
	h.pages.Render(w, r, http.StatusOK, sendKeptPage, v)
}
