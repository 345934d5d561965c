// Package studio is the studio's inbox: every enquiry, newest first, with
// the product, material and finish asked about; marking one handled; and
// CSV exports of the enquiries and the newsletter list. One password
// (STUDIO_PASSWORD) opens it, in a browser through a login form and a
// signed session cookie, or for the CSVs through HTTP Basic auth.
package studio

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"studio/internal/enquiry"
	"studio/internal/ratelimit"
	"studio/internal/store"
)

// Store is what the inbox reads and writes (a *store.Store).
type Store interface {
	Enquiries(ctx context.Context, f store.EnquiryFilter) ([]enquiry.Enquiry, error)
	MarkHandled(ctx context.Context, id int64, at time.Time) error
	Subscribers(ctx context.Context) ([]enquiry.Subscriber, error)
}

const (
	cookieName     = "studio_session"
	sessionLength  = 12 * time.Hour
	pageSize       = 50
	loginsAllowed  = 10
	loginWindow    = 15 * time.Minute
	basicAuthUser  = "studio"
	basicAuthRealm = `Basic realm="Studio inbox", charset="UTF-8"`
)

// Handler serves the inbox. Sessions are signed, not stored, so any copy
// of the server accepts a session another copy opened.
type Handler struct {
	store       Store
	log         *slog.Logger
	password    [32]byte // its SHA-256, so comparisons take the same time whatever the length
	key         []byte   // signs session cookies; changing the password ends every session
	logins      *ratelimit.Limiter
	clientIP    func(*http.Request) string
	isHTTPS     func(*http.Request) bool
	crossOrigin *http.CrossOriginProtection
	now         func() time.Time
}

// Visitor tells what the server knows of a request's visitor, believing
// forwarded headers only from trusted proxies (server.ClientIP, IsHTTPS).
type Visitor struct {
	IP      func(*http.Request) string // tells visitors apart for the limit on login attempts
	IsHTTPS func(*http.Request) bool   // the session cookie is Secure over HTTPS
}

// New returns the inbox for password.
func New(st Store, password string, log *slog.Logger, visitor Visitor) *Handler {
	mac := hmac.New(sha256.New, []byte(password))
	mac.Write([]byte("studio session key v1"))
	return &Handler{store: st, log: log, password: sha256.Sum256([]byte(password)), key: mac.Sum(nil),
		logins: ratelimit.New(loginsAllowed, loginWindow), clientIP: visitor.IP, isHTTPS: visitor.IsHTTPS,
		crossOrigin: http.NewCrossOriginProtection(), now: time.Now}
}

func (h *Handler) passwordMatches(given string) bool {
	sum := sha256.Sum256([]byte(given))
	return subtle.ConstantTimeCompare(sum[:], h.password[:]) == 1
}

// sign makes a session value: its expiry and a MAC over it.
func (h *Handler) sign(expires time.Time) string {
	exp := strconv.FormatInt(expires.Unix(), 10)
	mac := hmac.New(sha256.New, h.key)
	mac.Write([]byte("session:" + exp))
	return exp + "." + hex.EncodeToString(mac.Sum(nil))
}

func (h *Handler) loggedIn(r *http.Request) bool {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return false
	}
	exp, _, ok := strings.Cut(c.Value, ".")
	unix, err := strconv.ParseInt(exp, 10, 64)
	if !ok || err != nil || h.now().After(time.Unix(unix, 0)) {
		return false
	}
	return hmac.Equal([]byte(c.Value), []byte(h.sign(time.Unix(unix, 0))))
}

// inboxPolicy allows the page's one inline stylesheet by its hash, and
// nothing else: no script runs in the inbox.
var inboxPolicy = func() string {
	style := pageHTML[strings.Index(pageHTML, "<style>")+len("<style>") : strings.Index(pageHTML, "</style>")]
	sum := sha256.Sum256([]byte(style))
	return "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
}()

func privateHeaders(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Robots-Tag", "noindex")
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("Content-Security-Policy", inboxPolicy)
	w.Header().Set("Referrer-Policy", "same-origin")
}

// Login is POST /studio/login.
func (h *Handler) Login(w http.ResponseWriter, r *http.Request) {
	privateHeaders(w)
	if err := h.crossOrigin.Check(r); err != nil {
		h.page(w, http.StatusForbidden, pageData{Login: true, Problem: "This form must be sent from the studio's own site."})
		return
	}
	if ok, wait := h.logins.Allow(h.clientIP(r), h.now()); !ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
		h.page(w, http.StatusTooManyRequests, pageData{Login: true, Problem: "Too many attempts. Wait a few minutes, then try again."})
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
	if !h.passwordMatches(r.PostFormValue("password")) {
		h.log.Warn("studio: failed login", "client", h.clientIP(r))
		h.page(w, http.StatusUnauthorized, pageData{Login: true, Problem: "That password is not right."})
		return
	}
	expires := h.now().Add(sessionLength)
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: h.sign(expires), Path: "/studio", Expires: expires,
		MaxAge: int(sessionLength.Seconds()), HttpOnly: true, Secure: h.isHTTPS(r), SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, "/studio", http.StatusSeeOther)
}

// Logout is POST /studio/logout.
func (h *Handler) Logout(w http.ResponseWriter, r *http.Request) {
	privateHeaders(w)
	if err := h.crossOrigin.Check(r); err != nil {
		http.Error(w, "403 forbidden", http.StatusForbidden)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: "/studio", MaxAge: -1, HttpOnly: true, Secure: h.isHTTPS(r), SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, "/studio", http.StatusSeeOther)
}

// Inbox is GET /studio: the login form, or the enquiries.
func (h *Handler) Inbox(w http.ResponseWriter, r *http.Request) {
	privateHeaders(w)
	if !h.loggedIn(r) {
		h.page(w, http.StatusOK, pageData{Login: true})
		return
	}
	q := r.URL.Query()
	f := store.EnquiryFilter{Kind: enquiry.Kind(q.Get("kind")), Spam: q.Get("spam") == "1", Limit: pageSize + 1}
	if !validKind(f.Kind) {
		f.Kind = ""
	}
	f.BeforeID, _ = strconv.ParseInt(q.Get("before"), 10, 64)
	list, err := h.store.Enquiries(r.Context(), f)
	if err != nil {
		h.log.Error("studio: list", "err", err)
		h.page(w, http.StatusInternalServerError, pageData{Problem: "The enquiries cannot be read just now: the database did not answer. Try again in a minute."})
		return
	}
	data := pageData{Enquiries: list, Kind: string(f.Kind), Spam: f.Spam, Kinds: enquiry.Kinds, Return: r.URL.RequestURI()}
	if len(list) > pageSize {
		data.Enquiries = list[:pageSize]
		older := url.Values{"before": {strconv.FormatInt(list[pageSize-1].ID, 10)}}
		if f.Kind != "" {
			older.Set("kind", string(f.Kind))
		}
		if f.Spam {
			older.Set("spam", "1")
		}
		data.Older = "/studio?" + older.Encode()
	}
	h.page(w, http.StatusOK, data)
}

func validKind(k enquiry.Kind) bool {
	for _, x := range enquiry.Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// MarkHandled is POST /studio/enquiries/{id}/handled.
func (h *Handler) MarkHandled(w http.ResponseWriter, r *http.Request) {
	privateHeaders(w)
	if err := h.crossOrigin.Check(r); err != nil {
		http.Error(w, "403 forbidden", http.StatusForbidden)
		return
	}
	if !h.loggedIn(r) {
		http.Redirect(w, r, "/studio", http.StatusSeeOther)
		return
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err == nil {
		err = h.store.MarkHandled(r.Context(), id, h.now())
	}
	switch {
	case errors.Is(err, enquiry.ErrNotFound) || id <= 0:
		h.page(w, http.StatusNotFound, pageData{Problem: "There is no such enquiry."})
		return
	case err != nil:
		h.log.Error("studio: mark handled", "id", id, "err", err)
		h.page(w, http.StatusInternalServerError, pageData{Problem: "The enquiry could not be marked: the database did not answer."})
		return
	}
	http.Redirect(w, r, inboxPath(r.PostFormValue("return")), http.StatusSeeOther)
}

// inboxPath is where to go back to after an action: the page of the inbox
// the form was on, or the inbox itself for anything that is not a plain
// path under /studio (another host, a backslash that browsers read as a
// slash, a path that climbs out with ..).
func inboxPath(back string) string {
	u, err := url.Parse(back)
	switch {
	case err != nil, u.Scheme != "", u.Host != "", u.User != nil, strings.ContainsAny(back, "\\\t\r\n"),
		u.Path != "/studio" && !strings.HasPrefix(u.Path, "/studio/"),
		path.Clean(u.Path) != u.Path:
		return "/studio"
	}
	return back
}

type pageData struct {
	Login     bool
	Problem   string
	Enquiries []enquiry.Enquiry
	Kinds     []enquiry.Kind
	Kind      string
	Spam      bool
	Return    string
	Older     string
}

func (h *Handler) page(w http.ResponseWriter, status int, data pageData) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if err := pageTemplate.Execute(w, data); err != nil {
		h.log.Error("studio: render", "err", err)
	}
}

var kindLabels = map[enquiry.Kind]string{enquiry.Contact: "Message", enquiry.Quote: "Quote", enquiry.Customize: "Customisation"}

var pageTemplate = template.Must(template.New("studio").Funcs(template.FuncMap{
	"kindLabel": func(k enquiry.Kind) string { return kindLabels[k] },
	"when":      func(t time.Time) string { return t.UTC().Format("2 Jan 2006, 15:04 UTC") },
	// html/template allows only http(s) and mailto links; a phone number
	// holds nothing but digits and +, so its tel: link is built from those.
	"telURL": func(phone string) template.URL {
		return template.URL("tel:" + strings.Map(func(r rune) rune {
			if r == '+' || (r >= '0' && r <= '9') {
				return r
			}
			return -1
		}, phone))
	},
}).Parse(pageHTML))
