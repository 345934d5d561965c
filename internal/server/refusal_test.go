package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"studio/internal/enquiry"
)

// Every kind of error maps to one answer, the same for the API and the
// native forms.
func TestRefusalFor(t *testing.T) {
	fields := map[string]string{"email": "Enter an e-mail address."}
	tests := []struct {
		name       string
		err        error
		status     int
		reason     string
		fields     bool
		retryAfter bool
		ours       bool
	}{
		{"invalid fields", &enquiry.ValidationError{Fields: fields}, 422, "invalid", true, false, false},
		{"too large", &http.MaxBytesError{Limit: maxBody}, 413, "too_large", false, false, false},
		{"rate limited", &apiError{status: 429, message: "Wait.", retryAfter: 90 * time.Second}, 429, "rate_limited", false, true, false},
		{"cross-site", &apiError{status: 403, message: "No."}, 403, "cross_site", false, false, false},
		{"unkeepable text", &apiError{status: 400, message: "NUL.", fields: fields}, 400, "malformed", true, false, false},
		{"no database", &apiError{status: 503, message: "Off."}, 503, "no_database", false, false, false},
		{"database deadline", fmt.Errorf("store: add: %w", context.DeadlineExceeded), 503, "timeout", false, true, true},
		{"database failure", errors.New("store: disk full"), 503, "store_error", false, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ref := refusalFor(tt.err)
			if ref.status != tt.status || ref.reason != tt.reason || (ref.fields != nil) != tt.fields ||
				(ref.retryAfter > 0) != tt.retryAfter || ref.ours != tt.ours || ref.message == "" {
				t.Errorf("refusalFor(%v) = %+v", tt.err, ref)
			}
		})
	}
}

// The API and a form post refused for the same reason answer with the
// same status and Retry-After.
func TestFormsAndAPIRefuseAlike(t *testing.T) {
	s, err := New(discardLog(), testBuild(), testCatalogue(t, 1), WithStore(&failingStore{}))
	if err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	api := post(h, "/api/newsletter", `{"email":"a@b.in"}`)
	form := postForm(h, "/api/newsletter", url.Values{"email": {"a@b.in"}})
	for _, w := range []*httptest.ResponseRecorder{api, form} {
		if w.Code != 503 || w.Header().Get("Retry-After") != "5" {
			t.Errorf("refused sign-up = %d, Retry-After %q; want 503 and 5", w.Code, w.Header().Get("Retry-After"))
		}
	}
}
