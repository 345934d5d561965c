package upload

import (
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestWords(t *testing.T) {
	t.Parallel()
	for in, want := range map[int64]string{0: "0", 4_100_000: "4.1", 12_000_000: "12", 12_345_678: "12.3"} {
		if got := Megabytes(in); got != want {
			t.Errorf("Megabytes(%d) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[time.Duration]string{time.Second: "1 second", 3 * time.Second: "3 seconds", 90 * time.Second: "90 seconds",
		time.Minute: "1 minute", 10 * time.Minute: "10 minutes"} {
		if got := InWords(in); got != want {
			t.Errorf("InWords(%v) = %q, want %q", in, got, want)
		}
	}
}

// brokenReader gives its bytes, then fails as a connection that stopped.
type brokenReader struct{ io.Reader }

var errStopped = errors.New("connection reset")

func (b brokenReader) Read(p []byte) (int, error) {
	n, err := b.Reader.Read(p)
	if err == io.EOF {
		return n, errStopped
	}
	return n, err
}

// A body read to its end has not stopped; one whose connection broke
// says so, and how far it got.
func TestABodySaysWhereItStopped(t *testing.T) {
	t.Parallel()
	whole := httptest.NewRequest("POST", "/", strings.NewReader(strings.Repeat("x", 2_000_000)))
	body := Paced(httptest.NewRecorder(), whole, PhonePace)
	if _, err := io.ReadAll(whole.Body); err != nil || body.Stopped() != nil {
		t.Errorf("a whole body: %v, stopped %v", err, body.Stopped())
	}
	broken := httptest.NewRequest("POST", "/", brokenReader{strings.NewReader(strings.Repeat("x", 4_100_000))})
	body = Paced(httptest.NewRecorder(), broken, PhonePace)
	io.ReadAll(broken.Body)
	if !errors.Is(body.Stopped(), errStopped) || body.Arrived(12_000_000) != "4.1 of 12 MB" || body.Arrived(0) != "4.1 MB" || body.LastStep() {
		t.Errorf("a broken body: stopped %v, arrived %q, last step %v", body.Stopped(), body.Arrived(12_000_000), body.LastStep())
	}
}
