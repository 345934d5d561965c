package upload

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A paced body says how much of it arrived, and its end.
func TestPacedBodySaysWhatArrived(t *testing.T) {
	t.Parallel()
	r := httptest.NewRequest("POST", "/", strings.NewReader(strings.Repeat("x", 4_100_000)))
	body := PaceBody(httptest.NewRecorder(), r, PhonePace)
	if _, err := io.Copy(io.Discard, r.Body); err != nil {
		t.Fatal(err)
	}
	if got := body.Arrived(12_000_000); got != "4.1 of 12 MB" {
		t.Errorf("Arrived = %q", got)
	}
	if body.Err() != io.EOF || body.LastStep() {
		t.Errorf("after the body: Err %v, LastStep %v", body.Err(), body.LastStep())
	}
	if step := (UploadPace{MinRate: 20_000, Window: 30 * time.Second}).Step(); step != 600_000 {
		t.Errorf("Step = %d", step)
	}
}
