package workspace

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"image"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"studio/internal/workspace/edit"
	"studio/internal/workspace/editor"
	"studio/internal/workspace/upload"
)

// The tests of a phone's upload run the server with its timeouts and the
// upload's pace ten times shorter than in production (cmd/studio's
// newHTTPServer: ReadHeaderTimeout 5 s, ReadTimeout 15 s, WriteTimeout 30 s;
// phonePace: 20 KB/s over any 30 s, 10 minutes in all), and the phone ten
// times faster: the same race, in a tenth of the time.
const timeScale = 10

var scaledPace = upload.Pace{MinRate: upload.PhonePace.MinRate * timeScale, Window: upload.PhonePace.Window / timeScale, Total: upload.PhonePace.Total / timeScale}

// phoneServer is the editor's workspace behind a real HTTP server with
// the production timeouts, scaled: HTTP/1.1 (LISTEN_ADDR) or, with
// HTTP/2, over TLS (DOMAIN).
func phoneServer(t *testing.T, http2 bool) (*editorRig, *httptest.Server) {
	t.Helper()
	rig := setupEditorOn(t, editorContent, func(o *Options) { o.UploadPace = scaledPace })
	srv := httptest.NewUnstartedServer(withRequestClock(rig.h))
	srv.Config.ReadHeaderTimeout = 5 * time.Second / timeScale
	srv.Config.ReadTimeout = 15 * time.Second / timeScale
	srv.Config.WriteTimeout = 30 * time.Second / timeScale
	if http2 {
		srv.EnableHTTP2 = true
		srv.StartTLS()
		rig.asha = signIn(t, rig.h, asha, ashaPassword, overTLS) // the session's cookie over HTTPS
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return rig, srv
}

// withRequestClock stands for the server's databaseDeadline, which ends a
// request's context DATABASE_TIMEOUT after it began: here a second, less
// than any slow upload of these tests takes, so that the work done after
// the body has arrived must not depend on that context.
func withRequestClock(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), time.Second)
		defer cancel()
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}

// overBoth runs test over HTTP/1.1 and HTTP/2.
func overBoth(t *testing.T, test func(t *testing.T, rig *editorRig, srv *httptest.Server)) {
	for _, h2 := range []bool{false, true} {
		t.Run(map[bool]string{false: "HTTP/1.1", true: "HTTP/2"}[h2], func(t *testing.T) {
			rig, srv := phoneServer(t, h2)
			test(t, rig, srv)
		})
	}
}

// bigPhoto is a PNG of about size bytes: a grey picture, stored
// uncompressed.
func bigPhoto(t *testing.T, size int) []byte {
	t.Helper()
	side := 1
	for side*side < size {
		side++
	}
	img := image.NewGray(image.Rect(0, 0, side, side))
	for i := range img.Pix {
		img.Pix[i] = 0x80
	}
	var b bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.NoCompression}).Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// photoForm is a request body of one file, as the upload script sends it:
// what comes before the file's bytes, and after them.
func photoForm(filename string) (head, tail []byte, contentType string) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	mw.CreateFormFile(editor.PhotoField, filename)
	head = bytes.Clone(b.Bytes())
	b.Reset()
	mw.Close()
	return head, b.Bytes(), mw.FormDataContentType()
}

// paced reads r at rate bytes a second, as a phone's uplink sends.
type paced struct {
	r     io.Reader
	rate  int
	start time.Time
	sent  int
}

func (p *paced) Read(b []byte) (int, error) {
	if p.start.IsZero() {
		p.start = time.Now()
	}
	n, err := p.r.Read(b[:min(len(b), 16<<10)])
	p.sent += n
	time.Sleep(time.Until(p.start.Add(time.Duration(float64(p.sent) / float64(p.rate) * float64(time.Second)))))
	return n, err
}

// stalls reads r, then blocks until released: a connection whose phone
// has lost its signal. (Released in a minute at the latest: the client
// waits for its body to end before it says the server hung up.)
type stalls struct {
	r       io.Reader
	release <-chan struct{}
}

func stalling(t *testing.T, r io.Reader) stalls {
	ctx, release := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(release)
	return stalls{r: r, release: ctx.Done()}
}

func (s stalls) Read(b []byte) (int, error) {
	if n, err := s.r.Read(b); err != io.EOF {
		return n, err
	}
	<-s.release
	return 0, io.ErrUnexpectedEOF
}

// photoAnswer is editor.PhotosPath's answer, as the upload script reads it.
type photoAnswer struct {
	Upload  string `json:"upload"`
	Note    string `json:"note"`
	Problem string `json:"problem"`
	Retry   bool   `json:"retry"`
}

// sendPhoto posts body (of length bytes) to editor.PhotosPath as Asha, and
// decodes the answer.
func sendPhoto(t *testing.T, rig *editorRig, srv *httptest.Server, contentType string, body io.Reader, length int64) (int, photoAnswer) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", srv.URL+editor.PhotosPath, body)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = length
	req.Header.Set("Content-Type", contentType)
	req.AddCookie(rig.asha)
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var a photoAnswer
	err = json.NewDecoder(res.Body).Decode(&a)
	// A body still being sent is given up: over HTTP/2, closing the
	// answer would wait for it to end.
	cancel()
	res.Body.Close()
	if err != nil {
		t.Fatalf("the answer (%d) is not JSON: %v", res.StatusCode, err)
	}
	return res.StatusCode, a
}

// uploadsKept lists the uploads folder.
func uploadsKept(t *testing.T, rig *editorRig) []string {
	t.Helper()
	entries, err := os.ReadDir(rig.h.editor.Photos.Dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// A 12 MB photograph from a phone at 400 KB/s (a 4 Mbit/s uplink) takes 30
// s, twice the server's ReadTimeout and all its WriteTimeout: its deadline
// follows its progress, and it arrives whole.
func TestAPhonesSlowUploadArrives(t *testing.T) {
	overBoth(t, func(t *testing.T, rig *editorRig, srv *httptest.Server) {
		photo := bigPhoto(t, 12_000_000)
		head, tail, contentType := photoForm("IMG_0042.png")
		body := io.MultiReader(bytes.NewReader(head), &paced{r: bytes.NewReader(photo), rate: 400_000 * timeScale}, bytes.NewReader(tail))
		status, answer := sendPhoto(t, rig, srv, contentType, body, int64(len(head)+len(photo)+len(tail)))
		if status != http.StatusOK || answer.Problem != "" {
			t.Fatalf("the upload: %d %+v", status, answer)
		}
		name, filename, _ := strings.Cut(answer.Upload, "/")
		if filename != "IMG_0042.png" {
			t.Errorf("the upload is named %q", answer.Upload)
		}
		if kept, err := os.ReadFile(filepath.Join(rig.h.editor.Photos.Dir, name)); err != nil || !bytes.Equal(kept, photo) {
			t.Errorf("the photograph kept is not the one sent (%v)", err)
		}
	})
}

// A connection that stops, after 10 s at a phone's speed, is let go once
// less than a Window's worth of bytes has come in a Window, with how far
// it got (past the server's WriteTimeout: the answer is written all the
// same); nothing is kept.
func TestAStalledUploadSaysWhereItStopped(t *testing.T) {
	overBoth(t, func(t *testing.T, rig *editorRig, srv *httptest.Server) {
		head, tail, contentType := photoForm("IMG_0042.jpg")
		sent := io.MultiReader(bytes.NewReader(head), bytes.NewReader(make([]byte, 4_100_000-len(head))))
		lost := stalling(t, &paced{r: sent, rate: 400_000 * timeScale})
		status, answer := sendPhoto(t, rig, srv, contentType, lost, int64(12_000_000+len(tail)))
		want := fmt.Sprintf("The connection stopped after 4.1 of 12 MB (less than 600 KB arrived in %s)", upload.InWords(scaledPace.Window))
		if status != http.StatusRequestTimeout || !strings.HasPrefix(answer.Problem, want) || !answer.Retry {
			t.Errorf("a stalled upload: %d %+v, want 408 and %q, to try again", status, answer, want)
		}
		if kept := uploadsKept(t, rig); len(kept) > 0 {
			t.Errorf("a stalled upload kept %v", kept)
		}
	})
}

// A file over 30 MB is refused as soon as 30 MB of it have come, not once
// all of it has: the client here sends no more until it has the answer.
func TestAPhotographOverTheLimitIsRefusedAsItArrives(t *testing.T) {
	overBoth(t, func(t *testing.T, rig *editorRig, srv *httptest.Server) {
		head, tail, contentType := photoForm("huge.jpg")
		first := io.MultiReader(bytes.NewReader(head), bytes.NewReader(make([]byte, edit.MaxPhotoBytes+1)))
		rest := stalling(t, first)
		status, answer := sendPhoto(t, rig, srv, contentType, rest, int64(len(head)+40<<20+len(tail)))
		if status != http.StatusRequestEntityTooLarge || !strings.HasPrefix(answer.Problem, "“huge.jpg” is 41.9 MB: a photograph may be up to 30 MB") || answer.Retry {
			t.Errorf("a file over 30 MB: %d %+v", status, answer)
		}
		if kept := uploadsKept(t, rig); len(kept) > 0 {
			t.Errorf("a refused upload kept %v", kept)
		}
	})
}

// The form's upload takes 12 photographs at most: more are refused when
// the 13th begins, saying so, and none is kept.
func TestAtMostTwelvePhotographsAtOnce(t *testing.T) {
	rig := setupEditor(t)
	main, _ := rig.repo.Main()
	files, one := map[string][]byte{}, photo(t, 1600, 1200)
	for i := range 200 {
		files[fmt.Sprintf("photo-%d.png", i)] = one
	}
	w := uploadForm(t, rig, "/studio/content/products/2", url.Values{"_version": {main.Hash}, "_action": {"upload"}}, files)
	if w.Code != http.StatusRequestEntityTooLarge || !strings.Contains(bodyText(w), "Nothing was saved: more than 12 photographs were sent at once: up to 12 can be added at a time.") {
		t.Errorf("200 photographs: %d\n%s", w.Code, bodyText(w))
	}
	if kept := uploadsKept(t, rig); len(kept) > 0 {
		t.Errorf("a refused upload kept %d files", len(kept))
	}
	// Twelve are taken.
	clear(files)
	for i := range 12 {
		files[fmt.Sprintf("photo-%d.png", i)] = one
	}
	if w := uploadForm(t, rig, "/studio/content/products/2", url.Values{"_version": {main.Hash}, "_action": {"upload"}}, files); !strings.Contains(bodyText(w), "12 photographs added") {
		t.Errorf("12 photographs: %d\n%s", w.Code, bodyText(w))
	}
	// The script's address takes one.
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, name := range []string{"a.png", "b.png"} {
		fw, _ := mw.CreateFormFile(editor.PhotoField, name)
		fw.Write(one)
	}
	mw.Close()
	r := httptest.NewRequest("POST", editor.PhotosPath, &body)
	r.Header.Set("Content-Type", mw.FormDataContentType())
	r.AddCookie(rig.asha)
	w = httptest.NewRecorder()
	rig.h.ServeHTTP(w, r)
	if w.Code != http.StatusRequestEntityTooLarge || !strings.Contains(w.Body.String(), "More than one photograph was sent") {
		t.Errorf("two photographs to %s: %d %s", editor.PhotosPath, w.Code, w.Body)
	}
}

// heic is the first bytes of an iPhone's HEIC photograph.
var heic = []byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic\x00\x00\x00\x00meta")

// An empty file and a HEIC one, sent without the script, are each refused
// in their own words, beside the other photographs, which are added.
func TestEmptyAndHEICFilesAreSaidSo(t *testing.T) {
	rig := setupEditor(t)
	main, _ := rig.repo.Main()
	w := uploadForm(t, rig, "/studio/content/products/2", url.Values{"_version": {main.Hash}, "_action": {"upload"}}, map[string][]byte{
		"empty.jpg": {}, "IMG_0001.HEIC": heic, "workshop.png": photo(t, 1600, 1200),
	})
	body := bodyText(w)
	for _, want := range []string{
		"“empty.jpg” is empty (0 bytes)",
		"“IMG_0001.HEIC” is an iPhone HEIC photo: choose it again from Photos, which sends a JPEG, or set the camera to Most Compatible.",
		"1 photograph added",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if edit.IsHEIC(avifOf(1600)) {
		t.Error("an AVIF is taken for a HEIC")
	}
}

// The script sends each photograph ahead, then the form with their names:
// the form adds them as it adds its own files, saying the same of them.
func TestPhotographsSentAheadAreAddedByTheForm(t *testing.T) {
	rig := setupEditor(t)
	main, _ := rig.repo.Main()
	send := func(filename string, data []byte) (int, photoAnswer) {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		fw, _ := mw.CreateFormFile(editor.PhotoField, filename)
		fw.Write(data)
		mw.Close()
		r := httptest.NewRequest("POST", editor.PhotosPath, &body)
		r.Header.Set("Content-Type", mw.FormDataContentType())
		r.AddCookie(rig.asha)
		w := httptest.NewRecorder()
		rig.h.ServeHTTP(w, r)
		var a photoAnswer
		if err := json.Unmarshal(w.Body.Bytes(), &a); err != nil {
			t.Fatalf("%s: %d %s", filename, w.Code, w.Body)
		}
		return w.Code, a
	}
	code, wide := send("workshop.png", photo(t, 1600, 1200))
	if code != http.StatusOK || wide.Note != "" {
		t.Fatalf("a photograph: %d %+v", code, wide)
	}
	code, narrow := send("narrow.png", photo(t, 800, 600))
	if code != http.StatusOK || !strings.HasPrefix(narrow.Note, "“narrow.png” is 800 px wide") {
		t.Fatalf("a narrow photograph: %d %+v", code, narrow)
	}
	if code, a := send("notes.jpg", []byte("not a picture at all")); code != http.StatusUnprocessableEntity || !strings.HasPrefix(a.Problem, "“notes.jpg” is not a photograph") || a.Retry {
		t.Errorf("not a photograph: %d %+v", code, a)
	}
	if code, a := send("IMG_0001.heic", heic); code != http.StatusUnprocessableEntity || !strings.Contains(a.Problem, "is an iPhone HEIC photo") {
		t.Errorf("a HEIC photograph: %d %+v", code, a)
	}

	form := url.Values{"_version": {main.Hash}, "_action": {"upload"}, editor.UploadedField: {wide.Upload, narrow.Upload, "../secret.jpg", "gone.jpg/gone.jpg"}}
	w := uploadForm(t, rig, "/studio/content/products/2", form, nil)
	body := bodyText(w)
	for _, want := range []string{
		"2 photographs added", "“narrow.png” is 800 px wide", "<legend>Photograph 3</legend>",
		"“secret.jpg” is not one of this server’s uploads", "“gone.jpg” is no longer on the server",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	name, _, _ := strings.Cut(wide.Upload, "/")
	if src := field(t, html.UnescapeString(w.Body.String()), "/products/1/images/1/src"); src != edit.UploadSrcPrefix+name {
		t.Errorf("the first photograph added is %q, want the first sent", src)
	}
}

// Without a session, a photograph sent is not read: the way to sign in.
func TestAnAnonymousPhotographIsNotRead(t *testing.T) {
	rig := setupEditor(t)
	body := &readSpy{}
	r := httptest.NewRequest("POST", editor.PhotosPath, body)
	r.Header.Set("Content-Type", "multipart/form-data; boundary=x")
	w := httptest.NewRecorder()
	rig.h.ServeHTTP(w, r)
	if w.Code != http.StatusSeeOther || body.read {
		t.Errorf("signed out: %d, body read %v", w.Code, body.read)
	}
}

type readSpy struct{ read bool }

func (s *readSpy) Read([]byte) (int, error) { s.read = true; return 0, io.EOF }
