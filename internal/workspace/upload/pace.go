// Package upload is how the workspace reads a body that arrives slowly,
// as a phone sends it: a read deadline that follows its progress (Pace),
// and a clock of its own for the work after it (BodyRead). A product's
// photographs and a reply's PDF are read with it.
package upload

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
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

// PhonePace is the pace of production: a phone with a poor signal goes on
// (at 20 KB/s, a 12 MB photograph takes the 10 minutes); a connection
// that has stopped is let go after half a minute.
var PhonePace = UploadPace{MinRate: 20_000, Window: 30 * time.Second, Total: 10 * time.Minute}

// Step is how many bytes move the deadline on by a Window.
func (p UploadPace) Step() int64 { return int64(float64(p.MinRate) * p.Window.Seconds()) }

// PacedBody is a request's body whose read deadline moves on by a Window
// each time another step of bytes arrives, never past Total from its start.
type PacedBody struct {
	io.ReadCloser
	rc       *http.ResponseController
	pace     UploadPace
	start    time.Time
	got      int64 // bytes read so far
	next     int64 // at this many, the deadline moves on
	lastStep bool  // the deadline is the last one: start + Total
	err      error // the first error of the body's (io.EOF at its end)
}

// PaceBody puts r's body under pace, from now. The deadlines are the
// connection's (http.ResponseController): a ResponseWriter that has none
// (a test's recorder) reads without them.
func PaceBody(w http.ResponseWriter, r *http.Request, pace UploadPace) *PacedBody {
	p := &PacedBody{ReadCloser: r.Body, rc: http.NewResponseController(w), pace: pace, start: time.Now()}
	// The server's WriteTimeout counts from the request's headers, and
	// over HTTP/2 it ends the stream even while its body is being read.
	_ = p.rc.SetWriteDeadline(p.start.Add(pace.Total + pace.Window))
	p.moveOn()
	r.Body = p
	return p
}

func (p *PacedBody) Read(b []byte) (int, error) {
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

func (p *PacedBody) moveOn() {
	p.next = p.got + p.pace.Step()
	deadline, last := time.Now().Add(p.pace.Window), p.start.Add(p.pace.Total)
	if !deadline.Before(last) {
		deadline, p.lastStep = last, true
	}
	_ = p.rc.SetReadDeadline(deadline)
}

// Answer gives the answer, whatever it is, a Window from now (the body's
// end) to be written.
func (p *PacedBody) Answer() { _ = p.rc.SetWriteDeadline(time.Now().Add(p.pace.Window)) }

// Err is the first error of the body's reads (io.EOF at its end; nil
// before).
func (p *PacedBody) Err() error { return p.err }

// LastStep tells whether the deadline was the last one: start + Total.
func (p *PacedBody) LastStep() bool { return p.lastStep }

// Arrived is the body's progress in words: "4.1 of 12 MB" (or "4.1 MB"
// without a Content-Length).
func (p *PacedBody) Arrived(total int64) string {
	if total > 0 {
		return Megabytes(p.got) + " of " + Megabytes(total) + " MB"
	}
	return Megabytes(p.got) + " MB"
}

// Megabytes is n bytes in MB, to a tenth: "4.1", "12".
func Megabytes(n int64) string {
	return strings.TrimSuffix(strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64), ".0")
}

// BodyRead is r once its body has arrived, which may be minutes after the
// request began: its database work gets timeout (DATABASE_TIMEOUT) from
// now (the clock the server started with the request,
// server.databaseDeadline, is let go), and done, when the handler ends,
// deletes the form's files (the server deletes those of the request it
// made, not of a copy such as signedIn's) and stops the clock.
func BodyRead(r *http.Request, timeout time.Duration) (read *http.Request, done func()) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), timeout)
	form := r.MultipartForm
	return r.WithContext(ctx), func() {
		cancel()
		if form != nil {
			form.RemoveAll()
		}
	}
}

// IsMultipart tells whether r posts a form with files.
func IsMultipart(r *http.Request) bool {
	return strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data")
}
