package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"studio/internal/enquiry"
	"studio/internal/store"
)

// maxBody is the largest request body the API reads.
const maxBody = 64 << 10

// apiError is a refusal a handler decides itself (a cross-site request, a
// limit reached), with its status.
type apiError struct {
	status     int
	message    string
	fields     map[string]string
	retryAfter time.Duration
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s", e.status, e.message) }

// refusal is how the site answers a submission it did not take, whether it
// came as JSON (the API) or as a browser's form post (forms.go).
type refusal struct {
	status     int
	message    string            // the JSON's "error"; the sentence above a form
	fields     map[string]string // each field's problem
	reason     string            // the reason label of studio_submissions_total
	retryAfter time.Duration     // sent as Retry-After when set
	ours       bool              // the server's own failure: logged
}

// Messages of the refusals that are the server's, not the visitor's.
const (
	storeFailedMessage = "Something went wrong on our side and what you sent was not kept. Please try again in a moment, or call or e-mail us."
	timeoutMessage     = "Our database did not answer in time, so what you sent may not have been kept. Please try again in a moment: it will not be kept twice."
)

// refusalFor is the one mapping from a handler's error to its answer:
// status, message, fields, metric reason and Retry-After.
func refusalFor(err error) refusal {
	var (
		ve     *enquiry.ValidationError
		ae     *apiError
		tooBig *http.MaxBytesError
	)
	switch {
	case errors.As(err, &ve):
		return refusal{status: http.StatusUnprocessableEntity, message: "Some fields need another look.", fields: ve.Fields, reason: "invalid"}
	case errors.As(err, &tooBig):
		return refusal{status: http.StatusRequestEntityTooLarge, message: fmt.Sprintf("What you sent is larger than %d KiB. Please shorten it.", maxBody>>10), reason: "too_large"}
	case errors.As(err, &ae):
		reason := rejectionReasons[ae.status]
		if reason == "" {
			reason = strconv.Itoa(ae.status)
		}
		return refusal{status: ae.status, message: ae.message, fields: ae.fields, reason: reason, retryAfter: ae.retryAfter}
	case errors.Is(err, context.DeadlineExceeded):
		return refusal{status: http.StatusServiceUnavailable, message: timeoutMessage, reason: "timeout", retryAfter: store.RetryAfter, ours: true}
	default:
		// The database failed: nothing was kept, and it may be back soon.
		return refusal{status: http.StatusServiceUnavailable, message: storeFailedMessage, reason: "store_error", retryAfter: store.RetryAfter, ours: true}
	}
}

// rejectionReasons names, for /metrics, why a request was refused.
var rejectionReasons = map[int]string{
	http.StatusTooManyRequests:       "rate_limited",
	http.StatusForbidden:             "cross_site",
	http.StatusUnsupportedMediaType:  "content_type",
	http.StatusBadRequest:            "malformed",
	http.StatusServiceUnavailable:    "no_database",
	http.StatusRequestEntityTooLarge: "too_large",
}

// refuse counts a refused submission of form ("enquiry", "newsletter";
// "" for an analytics batch), logs the server's own failures, and sets
// Retry-After; the caller writes the body, as JSON or as the form's page.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, form string, ref refusal, err error) {
	if ref.ours {
		s.log.Error("refused", "path", r.URL.Path, "reason", ref.reason, "err", err)
	}
	if ref.retryAfter > 0 {
		setRetryAfter(w, ref.retryAfter)
	}
	if form == "" {
		s.metrics.analyticsBatch("refused")
		return
	}
	if ref.reason == "invalid" {
		s.metrics.invalidFields(form, ref.fields)
	}
	s.metrics.submission(form, "rejected", ref.reason)
}
