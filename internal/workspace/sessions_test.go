package workspace

import (
	"html"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"studio/internal/enquiry"
	"studio/internal/workspace/accounts"
)

// User-Agents of the browsers the studio's people use.
const (
	chromeAndroid = "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"
	safariIPhone  = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
	firefoxWin    = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"
)

func userAgent(ua string) func(*http.Request) {
	return func(r *http.Request) { r.Header.Set("User-Agent", ua) }
}

// formOf reads the first form of a page whose action starts with prefix:
// its action and its hidden inputs.
func formOf(t *testing.T, body, prefix string) (string, url.Values) {
	t.Helper()
	form := regexp.MustCompile(`(?s)<form[^>]*action="(` + regexp.QuoteMeta(prefix) + `[^"]*)"[^>]*>(.*?)</form>`).FindStringSubmatch(body)
	if form == nil {
		t.Fatalf("no form to %s in:\n%s", prefix, body)
	}
	fields := url.Values{}
	for _, m := range regexp.MustCompile(`<input type="hidden" name="([^"]*)" value="([^"]*)">`).FindAllStringSubmatch(form[2], -1) {
		fields.Add(html.UnescapeString(m[1]), html.UnescapeString(m[2]))
	}
	return html.UnescapeString(form[1]), fields
}

// "Sign out everywhere" is on Your account only, asks first, and ends the
// other browsers' sessions, never this one's.
func TestSignOutEverywhereElseAsksFirstAndKeepsThisBrowser(t *testing.T) {
	h, _ := setup(t)
	here := signIn(t, h, asha, ashaPassword)
	there := signIn(t, h, asha, ashaPassword, from("198.51.100.7:1"))
	ravis := signIn(t, h, ravi, raviPassword)

	inbox := bodyText(do(h, "GET", "/studio", nil, withCookie(here)))
	if strings.Contains(inbox, "everywhere") || !strings.Contains(inbox, ">Sign out</button>") {
		t.Error("the header should offer Sign out, and no Sign out everywhere")
	}
	account := bodyText(do(h, "GET", "/studio/account", nil, withCookie(here)))
	if !strings.Contains(account, `href="/studio/account/sign-out-others">Sign out everywhere else…</a>`) {
		t.Fatalf("Your account does not link to Sign out everywhere else:\n%s", account)
	}
	w := do(h, "GET", "/studio/account/sign-out-others", nil, withCookie(here))
	if ask := bodyText(w); w.Code != http.StatusOK || !strings.Contains(ask, "The other browser signed in as you is signed out at once. This browser stays signed in.") ||
		!strings.Contains(ask, `<form method="post" action="/studio/account/sign-out-others"`) || !strings.Contains(ask, "Keep them signed in") {
		t.Fatalf("the question: %d\n%s", w.Code, ask)
	}
	if !opens(h, there) {
		t.Fatal("asking signed a browser out")
	}
	w = do(h, "POST", "/studio/account/sign-out-others", url.Values{}, withCookie(here))
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/studio/account?done=signed-out-others" {
		t.Fatalf("sign out everywhere else: %d to %q", w.Code, w.Header().Get("Location"))
	}
	if !opens(h, here) || opens(h, there) || !opens(h, ravis) {
		t.Error("only Asha's other browser should be signed out")
	}
	if page := bodyText(do(h, "GET", "/studio/account?done=signed-out-others", nil, withCookie(here))); !strings.Contains(page, "Every other browser is signed out. This one stays signed in.") {
		t.Error("Your account does not say what was done")
	}
}

// A browser signed out from another lands on the sign-in page, told so,
// and a form it sends is kept through the sign-in and sent with one tap;
// a session that expired says that instead. Passwords are never kept.
func TestASignedOutBrowserIsToldWhyAndWhatItSentIsKept(t *testing.T) {
	h, st := setup(t)
	id := add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Priya", Email: "priya@example.com", Message: "A jali screen"})
	here := signIn(t, h, asha, ashaPassword)
	there := signIn(t, h, asha, ashaPassword, from("198.51.100.7:1"))
	if w := do(h, "POST", "/studio/account/sign-out-others", url.Values{}, withCookie(here)); w.Code != http.StatusSeeOther {
		t.Fatalf("sign out everywhere else: %d", w.Code)
	}
	const elsewhere = "You were signed out from another browser."

	w := do(h, "GET", "/studio/enquiries/"+itoa(id), nil, withCookie(there))
	if w.Code != http.StatusSeeOther || !strings.HasPrefix(w.Header().Get("Location"), "/studio?next=") {
		t.Fatalf("a page asked for: %d to %q, want the sign-in", w.Code, w.Header().Get("Location"))
	}
	if page := bodyText(do(h, "GET", w.Header().Get("Location"), nil, withCookie(there))); !strings.Contains(page, elsewhere) || !strings.Contains(page, `type="password"`) {
		t.Errorf("the sign-in page does not say why:\n%s", page)
	}

	note := "Call her back after Diwali: she wants <b>two</b> screens & a mirror"
	w = do(h, "POST", "/studio/enquiries/"+itoa(id)+"/notes", url.Values{"note": {note}}, withCookie(there))
	signInPage := bodyText(w)
	if w.Code != http.StatusOK || !strings.Contains(signInPage, elsewhere) || !strings.Contains(signInPage, "What you were sending is kept") {
		t.Fatalf("a note sent: %d, want the sign-in page saying why and that it is kept\n%s", w.Code, signInPage)
	}
	action, fields := formOf(t, w.Body.String(), "/studio/sign-in")
	if fields.Get("kept.note") != note || fields.Get("kept-to") != "/studio/enquiries/"+itoa(id)+"/notes" {
		t.Fatalf("the sign-in form keeps %v", fields)
	}
	fields.Set("email", asha)
	fields.Set("password", ashaPassword)
	w = do(h, "POST", action, fields, from("198.51.100.7:1"))
	if w.Code != http.StatusOK || len(w.Result().Cookies()) != 1 || !strings.Contains(bodyText(w), "It has not been sent yet") {
		t.Fatalf("signing in with a kept note: %d, want the page that sends it\n%s", w.Code, bodyText(w))
	}
	again := w.Result().Cookies()[0]
	if n, _ := st.Notes(t.Context(), id); len(n) != 0 {
		t.Fatal("the note was added before it was sent again")
	}
	to, kept := formOf(t, w.Body.String(), "/studio/enquiries/")
	if w := do(h, "POST", to, kept, withCookie(again), from("198.51.100.7:1")); w.Code != http.StatusSeeOther {
		t.Fatalf("sending the kept note: %d", w.Code)
	}
	if n, _ := st.Notes(t.Context(), id); len(n) != 1 || n[0].Body != note {
		t.Errorf("the note added is %v, want %q", n, note)
	}

	// An expired session says so, not "another browser"; a form with a
	// password is never kept.
	start := time.Now()
	h.now = func() time.Time { return start.Add(accounts.IdleLimit + time.Minute) }
	w = do(h, "POST", "/studio/enquiries/"+itoa(id)+"/notes", url.Values{"note": {"Later"}}, withCookie(again))
	if body := bodyText(w); w.Code != http.StatusOK || strings.Contains(body, elsewhere) || !strings.Contains(body, "12 hours without use") || !strings.Contains(body, `value="Later"`) {
		t.Errorf("a note after the session expired: %d, want the sign-in saying it expired, keeping the note\n%s", w.Code, body)
	}
	w = do(h, "POST", "/studio/account/password", url.Values{"current": {ashaPassword}, "password": {"a new long password"}, "again": {"a new long password"}}, withCookie(again))
	if w.Code != http.StatusSeeOther || strings.Contains(w.Body.String(), "a new long password") {
		t.Errorf("a password change after the session expired: %d, want the sign-in with nothing kept", w.Code)
	}
}

// Your account names each session by its browser, system and network;
// this browser is marked, and each other one can be signed out alone.
func TestSessionsShowBrowserAndPlaceAndEndOneByOne(t *testing.T) {
	h, _ := setup(t)
	here := signIn(t, h, asha, ashaPassword, userAgent(firefoxWin))
	phone := signIn(t, h, asha, ashaPassword, userAgent(chromeAndroid), from("198.51.100.7:1"))
	office := signIn(t, h, asha, ashaPassword, userAgent(safariIPhone), from("10.0.0.5:1"))
	page := bodyText(do(h, "GET", "/studio/account", nil, withCookie(here), userAgent(firefoxWin)))
	for _, want := range []string{
		`Firefox on Windows <span class="status">This browser</span>`, "<dd>This network</dd>",
		"Chrome on Android", "<dd>Network 198.51.100.0/24</dd>",
		"Safari on iPhone", "<dd>Local network</dd>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("Your account lacks %q", want)
		}
	}
	if n := strings.Count(page, ">Sign out this one</button>"); n != 2 {
		t.Errorf("%d Sign out this one, want one for each other browser", n)
	}
	phoneAt := strings.Index(page, "Chrome on Android")
	action := regexp.MustCompile(`action="(/studio/account/sessions/[^"]+/sign-out)"`).FindStringSubmatch(page[phoneAt:])
	if action == nil {
		t.Fatal("no Sign out this one for the phone")
	}
	if w := do(h, "POST", action[1], url.Values{}, withCookie(here)); w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/studio/account?done=signed-out-one" {
		t.Fatalf("sign out the phone: %d to %q", w.Code, w.Header().Get("Location"))
	}
	if opens(h, phone) || !opens(h, office) || !opens(h, here) {
		t.Error("only the phone should be signed out")
	}
	if w := do(h, "POST", action[1], url.Values{}, withCookie(here)); w.Code != http.StatusNotFound || !strings.Contains(bodyText(w), "signed out already") {
		t.Errorf("signing out the phone twice: %d", w.Code)
	}
	if w := do(h, "POST", "/studio/account/sessions/nonsense/sign-out", url.Values{}, withCookie(here)); w.Code != http.StatusNotFound || !opens(h, office) {
		t.Errorf("a handle of no session: %d, want 404 and nothing ended", w.Code)
	}
	ravis := signIn(t, h, ravi, raviPassword)
	if w := do(h, "POST", action[1], url.Values{}, withCookie(ravis)); w.Code != http.StatusNotFound {
		t.Errorf("Ravi naming Asha's session: %d, want 404", w.Code)
	}
	if w := do(h, "POST", "/studio/account/sessions/x/sign-out", url.Values{}, withCookie(here), func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") }); w.Code != http.StatusForbidden {
		t.Errorf("a cross-site Sign out this one: %d, want 403", w.Code)
	}
}

// A new invitation replaces the earlier one: its link says so and sets
// nothing; the newest works. The invitation names the owner who sent it.
func TestAReSentInvitationRevokesTheEarlierLink(t *testing.T) {
	h, st := setup(t)
	owner := signIn(t, h, asha, ashaPassword)
	if w := do(h, "POST", "/studio/account/name", url.Values{"name": {"Asha Mehta"}}, withCookie(owner)); w.Code != http.StatusSeeOther {
		t.Fatalf("name: %d", w.Code)
	}
	first := invite(t, h, st, owner, meera, "staff")
	a, err := st.AccountByEmail(t.Context(), meera)
	if err != nil || a.InvitedBy != "Asha Mehta" {
		t.Fatalf("the invitation names %q (%v), want Asha Mehta", a.InvitedBy, err)
	}
	w := do(h, "POST", "/studio/accounts/"+itoa(a.ID)+"/invite", url.Values{}, withCookie(owner))
	if w.Code != http.StatusSeeOther {
		t.Fatalf("send a new invitation: %d", w.Code)
	}
	if page := bodyText(do(h, "GET", w.Header().Get("Location"), nil, withCookie(owner))); !strings.Contains(page, "A new invitation was sent to "+meera+". The link in the earlier one no longer works.") {
		t.Errorf("the Accounts page does not say the earlier link stopped:\n%s", page)
	}
	links := mailedLinks(t, h, st, meera)
	if len(links) != 2 {
		t.Fatalf("%d invitations queued, want 2", len(links))
	}
	for _, w := range []*http.Response{do(h, "GET", first, nil).Result(), setPassword(h, first, meeraPassword, meeraPassword).Result()} {
		if w.StatusCode != http.StatusGone {
			t.Errorf("the earlier link: %d, want 410", w.StatusCode)
		}
	}
	if body := bodyText(do(h, "GET", first, nil)); !strings.Contains(body, "This invitation was replaced by a newer one") || strings.Contains(body, "Set the password") {
		t.Errorf("the earlier link does not say it was replaced:\n%s", body)
	}
	if w := setPassword(h, links[1], meeraPassword, meeraPassword); w.Code != http.StatusSeeOther {
		t.Fatalf("the newest link: %d, want 303", w.Code)
	}
	signIn(t, h, meera, meeraPassword)
	if body := bodyText(do(h, "GET", links[1], nil)); !strings.Contains(body, "This link has been used") {
		t.Errorf("the newest link once used does not say so:\n%s", body)
	}
}

// A form with files (a reply's attachment) keeps its text through the
// sign-in; the page that sends it asks for the files again.
func TestAKeptFormAsksForItsFilesAgain(t *testing.T) {
	h, st := setup(t)
	id := add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Priya", Email: "priya@example.com", Message: "A jali screen"})
	here := signIn(t, h, asha, ashaPassword)
	there := signIn(t, h, asha, ashaPassword)
	do(h, "POST", "/studio/account/sign-out-others", url.Values{}, withCookie(here))

	var body strings.Builder
	mw := multipart.NewWriter(&body)
	mw.WriteField("note", "With the drawing")
	file, _ := mw.CreateFormFile("attachment", "drawing.pdf")
	file.Write([]byte("%PDF-1.4 a drawing"))
	mw.Close()
	r := httptest.NewRequest("POST", "/studio/enquiries/"+itoa(id)+"/notes", strings.NewReader(body.String()))
	r.Header.Set("Content-Type", mw.FormDataContentType())
	r.AddCookie(there)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	_, fields := formOf(t, w.Body.String(), "/studio/sign-in")
	if w.Code != http.StatusOK || fields.Get("kept.note") != "With the drawing" || fields.Get("kept-multipart") != "1" || fields.Get("kept-file") != "attachment" {
		t.Fatalf("a form with a file: %d keeps %v", w.Code, fields)
	}
	fields.Set("email", asha)
	fields.Set("password", ashaPassword)
	send := bodyText(do(h, "POST", "/studio/sign-in", fields))
	if !strings.Contains(send, `enctype="multipart/form-data"`) || !strings.Contains(send, `type="file" name="attachment"`) || !strings.Contains(send, "could not be kept: choose them again") {
		t.Errorf("the page that sends it does not ask for the file again:\n%s", send)
	}
}
