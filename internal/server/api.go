package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"studio/internal/enquiry"
	"studio/internal/input"
)

// errorBody is the JSON of every API error: {"error": "...", "fields": {...}}.
type errorBody struct {
	Error  string            `json:"error"`
	Fields map[string]string `json:"fields,omitempty"`
}

// api adapts a handler that returns an error: its refusal (refusalFor)
// is written as JSON.
func (s *Server) api(rel *release, h func(http.ResponseWriter, *http.Request, *release) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		err := h(w, r, rel)
		if err == nil {
			return
		}
		form := "enquiry"
		switch r.URL.Path {
		case "/api/newsletter":
			form = "newsletter"
		case "/api/events":
			form = "" // counted as analytics, not as a submission
		}
		ref := refusalFor(err)
		s.refuse(w, r, form, ref, err)
		writeJSON(w, ref.status, errorBody{Error: ref.message, Fields: ref.fields})
	})
}

// apiFallback answers what no API route takes, in JSON like the API: a
// route asked with another method than POST (the mux says whether a POST
// would have matched one), or a path that is no route.
func (s *Server) apiFallback(mux *http.ServeMux) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		asPost := r.Clone(r.Context())
		asPost.Method = http.MethodPost
		if _, pattern := mux.Handler(asPost); pattern != r.Pattern {
			w.Header().Set("Allow", http.MethodPost)
			writeJSON(w, http.StatusMethodNotAllowed, errorBody{Error: "This address takes POST only."})
			return
		}
		writeJSON(w, http.StatusNotFound, errorBody{Error: "There is no such address in the API."})
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// readJSON checks where a request comes from and what it carries, and
// decodes its JSON body into v, refusing fields v does not have.
func (s *Server) readJSON(w http.ResponseWriter, r *http.Request, v any) error {
	if err := s.crossOrigin.Check(r); err != nil {
		return &apiError{status: http.StatusForbidden, message: "Cross-site requests are not accepted."}
	}
	if s.store == nil && r.URL.Path != "/api/events" {
		return &apiError{status: http.StatusServiceUnavailable, message: "Enquiries are not being accepted right now."}
	}
	mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mediaType != "application/json" {
		return &apiError{status: http.StatusUnsupportedMediaType, message: "Send JSON, with Content-Type: application/json."}
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err == nil {
		err = exactKeys(body, v)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err == nil {
		err = dec.Decode(v)
	}
	if err == nil {
		// One JSON value and nothing after it.
		var next json.RawMessage
		if extra := dec.Decode(&next); !errors.Is(extra, io.EOF) {
			err = extra
			if err == nil {
				err = errors.New("more than one JSON value")
			}
		}
	}
	var (
		tooBig    *http.MaxBytesError
		typeError *json.UnmarshalTypeError
		keyErr    *keyError
	)
	switch {
	case err == nil:
		// Text a database cannot keep is refused here, by field, before
		// any check or store sees it (package input).
		if problems := input.Fields(v); len(problems) > 0 {
			return &apiError{status: http.StatusBadRequest, message: "Some fields have a character that cannot be kept.", fields: problems}
		}
		return nil
	case errors.As(err, &tooBig):
		return err
	case errors.As(err, &keyErr):
		return &apiError{status: http.StatusBadRequest, message: keyErr.problem, fields: map[string]string{keyErr.key: keyErr.problem}}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		// encoding/json has no error type for an unknown field, only this
		// text; TestCreateEnquiry's "unknown field" case fails if it ever changes.
		field, _ := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
		return &apiError{status: http.StatusBadRequest, message: "The request has a field this API does not know.", fields: map[string]string{field: "Unknown field."}}
	case errors.As(err, &typeError) && typeError.Field != "":
		return &apiError{status: http.StatusBadRequest, message: "A field has the wrong type.", fields: map[string]string{typeError.Field: "Wrong type: expected " + typeError.Type.String() + "."}}
	default:
		return &apiError{status: http.StatusBadRequest, message: "The request body is not valid JSON."}
	}
}

// createEnquiry is POST /api/enquiries: JSON, or a browser's form post
// (forms.go).
func (s *Server) createEnquiry(w http.ResponseWriter, r *http.Request, rel *release) error {
	if isFormPost(r) {
		s.enquiryForm(w, r, rel)
		return nil
	}
	var in enquiry.Input
	if err := s.readJSON(w, r, &in); err != nil {
		return err
	}
	id, err := s.acceptEnquiry(r, rel, in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, map[string]int64{"id": id})
	return nil
}

// acceptEnquiry checks, limits and stores an enquiry, however it came.
func (s *Server) acceptEnquiry(r *http.Request, rel *release, in enquiry.Input) (int64, error) {
	now := s.now()
	e, err := enquiry.Check(in, rel.content, now)
	if err != nil {
		return 0, err
	}
	// Check judged the honeypot; the timer is judged here, with the key.
	// in.FillMS, the client's own claim, decides nothing.
	if s.formTimer.TimerSpam(in.Started, now) {
		e.Spam = true
	}
	if ok, wait := s.enquiryLimit.Allow(VisitorKey(r, s.trusted), now); !ok {
		return 0, &apiError{status: http.StatusTooManyRequests, retryAfter: wait,
			message: "You have sent many enquiries in a short time. Please wait a few minutes, or call or e-mail us."}
	}
	mail := s.mail && !e.Spam
	id, err := s.store.CreateEnquiry(r.Context(), e, mail)
	if err != nil {
		s.writeFailed("create_enquiry", err)
		return 0, err
	}
	if mail && s.wakeMail != nil {
		s.wakeMail()
	}
	if e.Spam {
		s.log.Info("enquiry stored as spam", "id", id)
		s.metrics.submission("enquiry", "spam", "")
	} else {
		s.metrics.submission("enquiry", "accepted", "")
	}
	return id, nil
}

// formStart is POST /api/form-start: the token of the time the visitor
// started a form (enquiry.FormTimer), which the form sends back as
// "started" with the enquiry. Same-origin only, like the rest of the API;
// it needs no database and reads no body.
func (s *Server) formStart(w http.ResponseWriter, r *http.Request) {
	if err := s.crossOrigin.Check(r); err != nil {
		writeJSON(w, http.StatusForbidden, errorBody{Error: "Cross-site requests are not accepted."})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"started": s.formTimer.Start(s.now())})
}

// subscribe is POST /api/newsletter: with mail on (double opt-in), 202
// whatever the address, so the answer does not tell who is on the list;
// without mail, 201 for a new address, 200 for one already on it.
func (s *Server) subscribe(w http.ResponseWriter, r *http.Request, rel *release) error {
	if isFormPost(r) {
		s.newsletterForm(w, r, rel)
		return nil
	}
	var in struct {
		Email string `json:"email"`
	}
	if err := s.readJSON(w, r, &in); err != nil {
		return err
	}
	created, err := s.acceptSubscription(r, in.Email)
	if err != nil {
		return err
	}
	switch {
	case s.mail:
		// Accepted, not yet done: the address counts once confirmed (an
		// address on the list already gets no mail).
		writeJSON(w, http.StatusAccepted, map[string]string{"status": "confirm"})
	case created:
		writeJSON(w, http.StatusCreated, map[string]string{"status": "subscribed"})
	default:
		writeJSON(w, http.StatusOK, map[string]string{"status": "already subscribed"})
	}
	return nil
}

// acceptSubscription checks, limits and stores a newsletter address:
// created is false for one already on the list.
func (s *Server) acceptSubscription(r *http.Request, address string) (created bool, err error) {
	email, err := enquiry.CheckEmail(address)
	if err != nil {
		return false, err
	}
	now := s.now()
	if ok, wait := s.newsletterLimit.Allow(VisitorKey(r, s.trusted), now); !ok {
		return false, &apiError{status: http.StatusTooManyRequests, retryAfter: wait, message: "Too many sign-ups from your address. Please try again later."}
	}
	// With mail, the address waits for its confirmation, mailed now.
	created, err = s.store.Subscribe(r.Context(), email, s.mail, now)
	if err != nil {
		s.writeFailed("subscribe", err)
		return false, err
	}
	if created && s.mail && s.wakeMail != nil {
		s.wakeMail()
	}
	s.metrics.submission("newsletter", "accepted", "")
	return created, nil
}

// keyError is a key of the request's object that encoding/json would let
// pass: one written twice (which value counts depends on the reader), or
// one that matches a field only when case is ignored.
type keyError struct{ key, problem string }

func (e *keyError) Error() string { return e.key + ": " + e.problem }

// exactKeys checks the keys of the JSON object in body against the json
// names of v's fields, exactly, and refuses a key given twice. A list of
// objects (a shortlist's items) is held to the same rule, each element
// named by its index (items[2].Finish).
func exactKeys(body []byte, v any) error {
	return exactObjectKeys(body, reflect.TypeOf(v).Elem(), "")
}

func exactObjectKeys(body []byte, t reflect.Type, path string) error {
	fields := map[string]reflect.Type{}
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		fields[name] = t.Field(i).Type
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil // not an object: the decoder says why
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		key, _ := tok.(string)
		ft, known := fields[key]
		switch {
		case seen[key]:
			return &keyError{path + key, "This field is given twice."}
		case !known:
			return &keyError{path + key, "Unknown field (names are case-sensitive)."}
		}
		seen[key] = true
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil
		}
		if ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct {
			var list []json.RawMessage
			if json.Unmarshal(value, &list) != nil {
				continue // not a list: the decoder says why
			}
			for i, element := range list {
				if err := exactObjectKeys(element, ft.Elem(), fmt.Sprintf("%s%s[%d].", path, key, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
