package workspace

import (
	"context"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"studio/internal/accountlink"
	"studio/internal/enquiry"
	"studio/internal/publish/repo"
	"studio/internal/store"
	"studio/internal/store/testdb"
	"studio/internal/workspace/accounts"
)

const meera, meeraPassword = "meera@studio.example", "meera's own long password"

// mailedLinks are the set-password links of the outbox's invitations and
// resets to email, as the mail worker would sign them, oldest first.
func mailedLinks(t *testing.T, h *Handler, st *store.Store, email string) []string {
	t.Helper()
	ctx := context.Background()
	due, err := st.DueMails(ctx, time.Now().Add(100*time.Hour), 100)
	if err != nil {
		t.Fatal(err)
	}
	var links []string
	for _, m := range due {
		if m.Account == nil || m.Account.Email != email {
			continue
		}
		token, err := accountlink.NewSigner(st).Token(ctx, m.Recipient, *m.Account, m.Queued.Add(accountlink.Validity(m.Recipient)))
		if err != nil {
			t.Fatal(err)
		}
		links = append(links, "/studio/set-password?"+url.Values{"token": {token}}.Encode())
	}
	return links
}

// invite has Asha (an owner) invite email with role, and returns the link
// of its invitation.
func invite(t *testing.T, h *Handler, st *store.Store, owner *http.Cookie, email, role string) string {
	t.Helper()
	w := do(h, "POST", "/studio/accounts/invite", url.Values{"email": {email}, "name": {"Meera"}, "role": {role}}, withCookie(owner))
	if w.Code != http.StatusSeeOther {
		t.Fatalf("invite %s: %d %s", email, w.Code, w.Body)
	}
	links := mailedLinks(t, h, st, store.AccountKey(email))
	if len(links) != 1 {
		t.Fatalf("%d invitations queued for %s, want 1", len(links), email)
	}
	return links[0]
}

func setPassword(h *Handler, link, password, again string) *httptest.ResponseRecorder {
	u, _ := url.Parse(link)
	return do(h, "POST", "/studio/set-password", url.Values{"token": {u.Query().Get("token")}, "password": {password}, "again": {again}})
}

func bodyText(w *httptest.ResponseRecorder) string { return html.UnescapeString(w.Body.String()) }

// An owner invites a Staff account; it cannot sign in until its holder
// sets a password through the link, which then signs them in and works
// no more.
func TestInviteThenSetPassword(t *testing.T) {
	h, st := setup(t)
	owner := signIn(t, h, asha, ashaPassword)
	link := invite(t, h, st, owner, "Meera@Studio.example", store.RoleStaff)
	a, err := st.AccountByEmail(context.Background(), meera)
	if err != nil || a.Role != store.RoleStaff || a.Name != "Meera" {
		t.Fatalf("the invited account: %+v, %v; want staff named Meera", a, err)
	}
	if w := do(h, "GET", "/studio/accounts", nil, withCookie(owner)); !strings.Contains(bodyText(w), "has not set a password yet") {
		t.Errorf("the Accounts page does not say the invitation is pending:\n%s", w.Body)
	}
	for _, pw := range []string{"", "!invited", a.Password} {
		if w := do(h, "POST", "/studio/sign-in", signInForm(meera, pw)); w.Code != http.StatusUnauthorized {
			t.Errorf("sign in before setting a password, with %q: %d, want 401", pw, w.Code)
		}
	}
	if w := do(h, "GET", link, nil); w.Code != 200 || !strings.Contains(bodyText(w), meera) {
		t.Fatalf("the link's page: %d\n%s", w.Code, w.Body)
	}
	for _, bad := range [][2]string{{"short", "short"}, {meeraPassword, meeraPassword + "x"}} {
		if w := setPassword(h, link, bad[0], bad[1]); w.Code != http.StatusBadRequest || !strings.Contains(bodyText(w), "Your password was not set") {
			t.Errorf("set %q / %q: %d, want 400 saying it was not set", bad[0], bad[1], w.Code)
		}
	}
	w := setPassword(h, link, meeraPassword, meeraPassword)
	if w.Code != http.StatusSeeOther || len(w.Result().Cookies()) != 1 {
		t.Fatalf("set the password: %d, %d cookies; want 303 and a session", w.Code, len(w.Result().Cookies()))
	}
	if !opens(h, w.Result().Cookies()[0]) {
		t.Error("setting the password did not sign in")
	}
	signIn(t, h, meera, meeraPassword)
	for _, method := range []string{"GET", "POST"} {
		var w *httptest.ResponseRecorder
		if method == "GET" {
			w = do(h, "GET", link, nil)
		} else {
			w = setPassword(h, link, "another long password", "another long password")
		}
		if w.Code != http.StatusGone || !strings.Contains(bodyText(w), "This link has been used") || !strings.Contains(bodyText(w), "Get a new link") {
			t.Errorf("%s the used link: %d, want 410 saying so and offering a new one", method, w.Code)
		}
	}
	signIn(t, h, meera, meeraPassword) // the second try changed nothing
}

// An invitation's link works 48 hours, a reset's one hour; after that the
// page says it has expired and offers a new one.
func TestLinksExpire(t *testing.T) {
	h, st := setup(t)
	owner := signIn(t, h, asha, ashaPassword)
	link := invite(t, h, st, owner, meera, store.RoleStaff)
	later := clock(h, time.Now())
	later(47 * time.Hour)
	if w := do(h, "GET", link, nil); w.Code != 200 {
		t.Errorf("the invitation after 47 hours: %d, want 200", w.Code)
	}
	later(time.Hour)
	if w := setPassword(h, link, meeraPassword, meeraPassword); w.Code != http.StatusGone || !strings.Contains(bodyText(w), "This link has expired: ask for a new one") {
		t.Errorf("the invitation after 48 hours: %d, want 410 saying it expired\n%s", w.Code, w.Body)
	}
	if _, err := st.AccountByEmail(context.Background(), meera); err != nil {
		t.Fatal(err)
	}
	// A reset of Ravi's, an hour and a second after it was asked for.
	clock(h, time.Now())
	forgot(t, h, ravi)
	links := mailedLinks(t, h, st, ravi)
	if len(links) != 1 {
		t.Fatalf("%d resets for Ravi, want 1", len(links))
	}
	clock(h, time.Now().Add(time.Hour+time.Second))
	if w := do(h, "GET", links[0], nil); w.Code != http.StatusGone || !strings.Contains(bodyText(w), "This link has expired: ask for a new one") {
		t.Errorf("the reset after an hour: %d, want 410", w.Code)
	}
}

// A link that does not work says which way it fails, each with the way
// to a new link: one forged, tampered with or cut is not valid, one past
// its time has expired, one that set its password has been used. Nothing
// is set through any of them.
func TestLinksSayWhyTheyDoNotWork(t *testing.T) {
	h, st := setup(t)
	owner := signIn(t, h, asha, ashaPassword)
	link := invite(t, h, st, owner, meera, store.RoleStaff)
	a, err := st.AccountByEmail(context.Background(), meera)
	if err != nil {
		t.Fatal(err)
	}
	token := func(signer *accountlink.Signer, expires time.Time) string {
		t.Helper()
		token, err := signer.Token(context.Background(), accountlink.Invite, a, expires)
		if err != nil {
			t.Fatal(err)
		}
		return "/studio/set-password?" + url.Values{"token": {token}}.Encode()
	}
	u, _ := url.Parse(link)
	parts := strings.Split(u.Query().Get("token"), ".")
	expires, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	// An hour earlier: within the invitation's 48 hours, so only its signature tells.
	moved := strings.Join([]string{parts[0], parts[1], strconv.FormatInt(expires-3600, 10), parts[3], parts[4]}, ".")
	another := accountlink.NewSigner(fixedKey("not the server's key, 32 bytes.."))

	refused := func(name, target string, status int, words string) {
		t.Helper()
		for _, method := range []string{"GET", "POST"} {
			var w *httptest.ResponseRecorder
			if method == "GET" {
				w = do(h, "GET", target, nil)
			} else {
				w = setPassword(h, target, "a long new password", "a long new password")
			}
			body := bodyText(w)
			if w.Code != status || !strings.Contains(body, words) || !strings.Contains(body, "Get a new link") || strings.Contains(body, "Set the password") {
				t.Errorf("%s, %s: %d, want %d saying %q with the way to a new link\n%s", name, method, w.Code, status, words, body)
			}
		}
	}
	refused("a forged link (another key)", token(another, time.Now().Add(time.Hour)), http.StatusNotFound, "This link is not valid")
	refused("a forged link of no account", "/studio/set-password?token=reset.999.2.abc.def", http.StatusNotFound, "This link is not valid")
	refused("a link whose expiry was moved", "/studio/set-password?"+url.Values{"token": {moved}}.Encode(), http.StatusNotFound, "This link is not valid")
	refused("a cut link", link[:len(link)-6], http.StatusNotFound, "This link is not valid")
	refused("not a link at all", "/studio/set-password?token=nonsense", http.StatusNotFound, "This link is not valid")
	refused("an expired link", token(accountlink.NewSigner(st), time.Now().Add(-time.Minute)), http.StatusGone, "This link has expired: ask for a new one")
	if _, err := st.AccountByEmail(context.Background(), meera); err != nil {
		t.Fatal(err)
	}
	if w := setPassword(h, link, meeraPassword, meeraPassword); w.Code != http.StatusSeeOther {
		t.Fatalf("the invitation's link: %d, want 303", w.Code)
	}
	refused("a used link", link, http.StatusGone, "This link has been used")
	signIn(t, h, meera, meeraPassword) // none of them set another password
}

type fixedKey []byte

func (k fixedKey) Key(context.Context, string) ([]byte, error) { return k, nil }

func forgot(t *testing.T, h *Handler, email string) string {
	t.Helper()
	w := do(h, "POST", "/studio/forgot-password", url.Values{"email": {email}})
	if w.Code != 200 {
		t.Fatalf("forgot password for %s: %d", email, w.Code)
	}
	return strings.ReplaceAll(bodyText(w), email, "EMAIL")
}

// Forgot your password? answers the same whether or not the e-mail has an
// account, mails only an account, and at most three times an hour; the
// link sets a new password and ends the account's sessions.
func TestForgotPassword(t *testing.T) {
	floor := accounts.ForgotPasswordFloor
	accounts.ForgotPasswordFloor = 0
	t.Cleanup(func() { accounts.ForgotPasswordFloor = floor })
	h, st := setup(t)
	elsewhere := signIn(t, h, ravi, raviPassword)
	if a, b := forgot(t, h, ravi), forgot(t, h, "nobody@studio.example"); a != b {
		t.Errorf("the answers differ for an account and none:\n%s\n---\n%s", a, b)
	}
	if n := len(mailedLinks(t, h, st, "nobody@studio.example")); n != 0 {
		t.Errorf("%d mails for no account", n)
	}
	for range 5 {
		forgot(t, h, "Ravi@Studio.example")
	}
	links := mailedLinks(t, h, st, ravi)
	if len(links) != accounts.ResetsPerHour {
		t.Fatalf("%d resets queued for Ravi in an hour, want %d", len(links), accounts.ResetsPerHour)
	}
	w := setPassword(h, links[1], "ravi's new long password", "ravi's new long password")
	if w.Code != http.StatusSeeOther {
		t.Fatalf("reset: %d %s", w.Code, w.Body)
	}
	if opens(h, elsewhere) {
		t.Error("the session elsewhere survived the reset")
	}
	signIn(t, h, ravi, "ravi's new long password")
	if w := setPassword(h, links[0], "yet another long password", "yet another long password"); w.Code != http.StatusGone {
		t.Errorf("an earlier reset link after the password changed: %d, want 410", w.Code)
	}
}

// Staff work the inbox, and are refused, with a clear page, what only an
// owner may do; the links to it are not shown them. Scripts signed in as
// staff are refused the exports too.
func TestStaffAreRefusedOwnersWork(t *testing.T) {
	h, st := setup(t)
	owner := signIn(t, h, asha, ashaPassword)
	setPassword(h, invite(t, h, st, owner, meera, store.RoleStaff), meeraPassword, meeraPassword)
	staff := signIn(t, h, meera, meeraPassword)
	id := add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Visitor", Message: "Hello"})
	idText := strconvItoa(id)
	for _, r := range []struct{ method, target, what string }{
		{"GET", "/studio/accounts", "manage accounts"},
		{"POST", "/studio/accounts/invite", "invite accounts"},
		{"POST", "/studio/accounts/1/role", "change roles"},
		{"POST", "/studio/accounts/1/remove", "remove accounts"},
		{"GET", "/studio/enquiries.csv", "export the enquiries"},
		{"GET", "/studio/newsletter.csv", "export the newsletter list"},
		{"GET", "/studio/insights.csv", "export the insights"},
		{"GET", "/studio/enquiries/" + idText + "/delete", "delete an enquiry"},
		{"POST", "/studio/enquiries/" + idText + "/delete", "delete an enquiry"},
		{"POST", "/studio/accounts/1/invite", "invite accounts"},
		{"GET", "/studio/accounts/1/remove", "remove accounts"},
		{"GET", "/studio/customers/erase?email=visitor@example.com", "erase a person's data"},
		{"POST", "/studio/customers/erase", "erase a person's data"},
	} {
		form := url.Values{"role": {"staff"}, "email": {"x@studio.example"}}
		w := do(h, r.method, r.target, form, withCookie(staff))
		if w.Code != http.StatusForbidden || !strings.Contains(bodyText(w), "Only an owner can "+r.what) {
			t.Errorf("%s %s as staff: %d, want 403 saying only an owner can %s", r.method, r.target, w.Code, r.what)
		}
	}
	if w := do(h, "GET", "/studio/enquiries.csv", nil, basic(meera, meeraPassword)); w.Code != http.StatusForbidden {
		t.Errorf("the CSV by Basic auth as staff: %d, want 403", w.Code)
	}
	if e, err := st.Enquiry(context.Background(), id); err != nil || e.Name != "Visitor" {
		t.Errorf("the enquiry after staff tried to delete and erase it: %+v, %v", e, err)
	}
	if page := bodyText(do(h, "GET", "/studio/customers?email=visitor@example.com", nil, withCookie(staff))); strings.Contains(page, "Erase this person") {
		t.Error("the customer's page offers staff to erase them")
	}
	if a, _ := st.AccountByEmail(context.Background(), asha); a.Role != store.RoleOwner {
		t.Error("staff changed a role")
	}
	inbox := bodyText(do(h, "GET", "/studio", nil, withCookie(staff)))
	detail := bodyText(do(h, "GET", "/studio/enquiries/"+idText, nil, withCookie(staff)))
	for _, hidden := range []string{"as CSV", `href="/studio/accounts"`} {
		if strings.Contains(inbox, hidden) {
			t.Errorf("the inbox shows staff %q", hidden)
		}
	}
	if strings.Contains(detail, "Delete enquiry") {
		t.Error("the enquiry shows staff its Delete link")
	}
	// The owner sees them all, and may do them.
	if inbox := bodyText(do(h, "GET", "/studio", nil, withCookie(owner))); !strings.Contains(inbox, "as CSV") || !strings.Contains(inbox, `href="/studio/accounts"`) {
		t.Error("the owner's inbox lacks the CSV or Accounts links")
	}
	if w := do(h, "GET", "/studio/enquiries.csv", nil, withCookie(owner)); w.Code != 200 {
		t.Errorf("the CSV as owner: %d", w.Code)
	}
}

// The studio always keeps an owner: the last one can be neither made staff
// nor removed, and the refusal changes nothing.
func TestTheLastOwnerStays(t *testing.T) {
	h, st := setup(t)
	owner := signIn(t, h, asha, ashaPassword)
	ctx := context.Background()
	r, _ := st.AccountByEmail(ctx, ravi)
	a, _ := st.AccountByEmail(ctx, asha)
	if w := do(h, "POST", "/studio/accounts/"+strconvItoa(r.ID)+"/role", url.Values{"role": {"staff"}}, withCookie(owner)); w.Code != http.StatusSeeOther {
		t.Fatalf("make Ravi staff: %d %s", w.Code, w.Body)
	}
	for _, target := range []string{"/role", "/remove"} {
		w := do(h, "POST", "/studio/accounts/"+strconvItoa(a.ID)+target, url.Values{"role": {"staff"}}, withCookie(owner))
		if w.Code != http.StatusConflict || !strings.Contains(bodyText(w), "the only owner") {
			t.Errorf("%s of the last owner: %d, want 409 saying so", target, w.Code)
		}
	}
	if a, err := st.AccountByEmail(ctx, asha); err != nil || a.Role != store.RoleOwner {
		t.Errorf("the last owner after the refusals: %+v, %v", a, err)
	}
	if !opens(h, owner) {
		t.Error("the last owner's session ended")
	}
	// Removing Ravi ends his sessions.
	staff := signIn(t, h, ravi, raviPassword)
	if w := do(h, "POST", "/studio/accounts/"+strconvItoa(r.ID)+"/remove", nil, withCookie(owner)); w.Code != http.StatusSeeOther {
		t.Fatalf("remove Ravi: %d", w.Code)
	}
	if opens(h, staff) {
		t.Error("a removed account's session still opens the inbox")
	}
}

// Signing in opens the page first asked for, if it is a page of the
// workspace; anything else opens the inbox.
func TestSignInReturnsToThePageAsked(t *testing.T) {
	h, st := setup(t)
	id := add(t, st, enquiry.Enquiry{Kind: enquiry.Contact, Name: "Visitor", Message: "Hello"})
	page := "/studio/enquiries/" + strconvItoa(id)
	w := do(h, "GET", page, nil)
	loc := w.Header().Get("Location")
	if w.Code != http.StatusSeeOther || loc != "/studio?next="+url.QueryEscape(page) {
		t.Fatalf("signed out: %d to %q", w.Code, loc)
	}
	form := do(h, "GET", loc, nil)
	if !strings.Contains(form.Body.String(), `name="next" value="`+page+`"`) {
		t.Fatalf("the sign-in form does not carry next:\n%s", form.Body)
	}
	for next, want := range map[string]string{page: page, "//evil.example/studio": "/studio", "https://evil.example/studio/x": "/studio", "/studio/../x": "/studio", "": "/studio"} {
		w := do(h, "POST", "/studio/sign-in", url.Values{"email": {asha}, "password": {ashaPassword}, "next": {next}})
		if got := w.Header().Get("Location"); w.Code != http.StatusSeeOther || got != want {
			t.Errorf("sign in with next %q: %d to %q, want %q", next, w.Code, got, want)
		}
	}
}

func strconvItoa(id int64) string { return strconv.FormatInt(id, 10) }

// One's name is set on Your account, and signs one's replies from then;
// a name too long is refused, and kept in the form.
func TestYourName(t *testing.T) {
	h, st := setup(t)
	c := signIn(t, h, asha, ashaPassword)
	w := do(h, "POST", "/studio/account/name", url.Values{"name": {"  Asha   Rao "}}, withCookie(c))
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/studio/account?done=name" {
		t.Fatalf("save name: %d → %q", w.Code, w.Header().Get("Location"))
	}
	if a, _ := st.AccountByEmail(context.Background(), asha); a.Name != "Asha Rao" {
		t.Errorf("name = %q, want %q", a.Name, "Asha Rao")
	}
	if page := bodyText(do(h, "GET", "/studio/account?done=name", nil, withCookie(c))); !strings.Contains(page, "Your name is saved") {
		t.Error("no notice after saving the name")
	}
	long := strings.Repeat("a", accounts.MaxName+1)
	w = do(h, "POST", "/studio/account/name", url.Values{"name": {long}}, withCookie(c))
	if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "keep it to 100") || !strings.Contains(w.Body.String(), `value="`+long+`"`) {
		t.Errorf("a name too long: %d, want 400 saying so with the name kept", w.Code)
	}
	if a, _ := st.AccountByEmail(context.Background(), asha); a.Name != "Asha Rao" {
		t.Errorf("a refused name changed it to %q", a.Name)
	}
}

// One's password is changed on Your account with the current one: bad
// input changes nothing and says why; wrong current passwords count as
// failed sign-ins; a change ends every other session and keeps this one.
func TestChangeYourPassword(t *testing.T) {
	h, _ := setup(t)
	here := signIn(t, h, asha, ashaPassword)
	elsewhere := signIn(t, h, asha, ashaPassword)
	const next = "asha's newer long password"
	change := func(current, password, again string) *httptest.ResponseRecorder {
		return do(h, "POST", "/studio/account/password", url.Values{"current": {current}, "password": {password}, "again": {again}, "next": {"/studio/account?done=password"}}, withCookie(here))
	}
	for _, c := range []struct {
		current, password, again string
		status                   int
		says                     string
	}{
		{ashaPassword, "short", "short", http.StatusBadRequest, "the password is 5 characters long: use at least 12"},
		{ashaPassword, next, next + "!", http.StatusBadRequest, "the two passwords differ"},
		{"not asha's password", next, next, http.StatusForbidden, "the current password typed is not yours"},
	} {
		w := change(c.current, c.password, c.again)
		if w.Code != c.status || !strings.Contains(bodyText(w), "Your password was not changed: "+c.says) {
			t.Errorf("change(%q, %q, %q) = %d, want %d saying %q:\n%s", c.current, c.password, c.again, w.Code, c.status, c.says, bodyText(w))
		}
	}
	if !opens(h, here) || !opens(h, elsewhere) {
		t.Fatal("a refused change ended a session")
	}
	signIn(t, h, asha, ashaPassword) // the password is still the old one

	w := change(ashaPassword, next, next)
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/studio/account?done=password" {
		t.Fatalf("change: %d → %q\n%s", w.Code, w.Header().Get("Location"), bodyText(w))
	}
	renewed := w.Result().Cookies()
	if len(renewed) != 1 || !opens(h, renewed[0]) {
		t.Fatal("this browser is not signed in after the change")
	}
	if opens(h, here) || opens(h, elsewhere) {
		t.Error("a session from before the change still opens the inbox")
	}
	if page := bodyText(do(h, "GET", "/studio/account?done=password", nil, withCookie(renewed[0]))); !strings.Contains(page, "Your password is changed") {
		t.Error("no notice after the change")
	}
	if w := do(h, "POST", "/studio/sign-in", url.Values{"email": {asha}, "password": {ashaPassword}}); w.Code != http.StatusUnauthorized {
		t.Errorf("sign in with the old password: %d, want 401", w.Code)
	}
	signIn(t, h, asha, next)
}

// Guessing the current password on a borrowed session meets the limits
// of signing in: after the free tries, it must wait, even with the right one.
func TestChangeYourPasswordIsLimitedAsSignInIs(t *testing.T) {
	h, _ := setup(t)
	c := signIn(t, h, asha, ashaPassword)
	const next = "asha's newer long password"
	for range accounts.PairFreeFailures + 1 {
		do(h, "POST", "/studio/account/password", url.Values{"current": {"a guess"}, "password": {next}, "again": {next}}, withCookie(c))
	}
	w := do(h, "POST", "/studio/account/password", url.Values{"current": {ashaPassword}, "password": {next}, "again": {next}}, withCookie(c))
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "" || !strings.Contains(bodyText(w), "too many wrong tries") {
		t.Errorf("after %d wrong tries: %d, want 429 with Retry-After", accounts.PairFreeFailures+1, w.Code)
	}
	if !opens(h, c) {
		t.Error("a refused change ended the session")
	}
}

// The Accounts page says what its last form did in its own words: an
// address cannot put text of its own on an owner's page.
func TestAccountsNoticeIsTheWorkspaces(t *testing.T) {
	h, st := setup(t)
	c := signIn(t, h, asha, ashaPassword)
	page := bodyText(do(h, "GET", "/studio/accounts?done=Send+your+password+to+evil@example.com", nil, withCookie(c)))
	if strings.Contains(page, "evil@example.com") {
		t.Error("the page shows text from its address")
	}
	r, err := st.AccountByEmail(context.Background(), ravi)
	if err != nil {
		t.Fatal(err)
	}
	w := do(h, "POST", "/studio/accounts/"+strconvItoa(r.ID)+"/role", url.Values{"role": {"staff"}}, withCookie(c))
	if w.Code != http.StatusSeeOther {
		t.Fatalf("change role: %d", w.Code)
	}
	if page := bodyText(do(h, "GET", w.Header().Get("Location"), nil, withCookie(c))); !strings.Contains(page, ravi+" is now Staff.") {
		t.Errorf("after changing the role, the page does not say so:\n%s", page)
	}
}

// The sign-in page, shown to anyone, and the Accounts page without mail
// say what the person can do, never how the server is set up (that is the
// start-up log's and the README's).
func TestPagesSayNoServerSetUp(t *testing.T) {
	h, _ := setup(t)
	signInPage := bodyText(do(h, "GET", "/studio", nil))
	if !strings.Contains(signInPage, "The e-mail address your account was made with.") || strings.Contains(signInPage, "STUDIO_PASSWORD") {
		t.Errorf("the sign-in page:\n%s", signInPage)
	}
	c := signIn(t, h, asha, ashaPassword)
	accounts := bodyText(do(h, "GET", "/studio/accounts", nil, withCookie(c)))
	if !strings.Contains(accounts, "Invitations need mail, which is not set up on this server: ask whoever runs it.") {
		t.Errorf("the Accounts page without mail does not say so:\n%s", accounts)
	}
	for _, setUp := range []string{"SMTP", "studio user", "<code>"} {
		if strings.Contains(accounts, setUp) {
			t.Errorf("the Accounts page says %q", setUp)
		}
	}
	withMail := setupOn(t, testdb.SQLite(t), func(o *Options) { o.WakeMail = func() {} })
	c = signIn(t, withMail, asha, ashaPassword)
	if page := bodyText(do(withMail, "GET", "/studio/accounts", nil, withCookie(c))); strings.Contains(page, "Invitations need mail") {
		t.Error("with mail, the Accounts page says it is not set up")
	}
}

// Staff save drafts but never put anything live: publishing the content,
// publishing main and making a release live are an owner's.
func TestStaffDoNotPublish(t *testing.T) {
	contentRepo, err := repo.Open(t.TempDir(), editorContent)
	if err != nil {
		t.Fatal(err)
	}
	st := testdb.SQLite(t)
	rel := newFakeReleases()
	h := setupOn(t, st, func(o *Options) {
		o.Content, o.Builder, o.Scratch, o.Releases = contentRepo, &fakeBuilder{}, t.TempDir(), rel
	})
	r, err := st.AccountByEmail(context.Background(), ravi)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetRole(context.Background(), r.ID, store.RoleStaff); err != nil {
		t.Fatal(err)
	}
	staff := signIn(t, h, ravi, raviPassword)
	for _, target := range []string{"/studio/content/publish", "/studio/releases/publish", "/studio/releases/r1/make-live"} {
		w := do(h, "POST", target, url.Values{}, withCookie(staff))
		if w.Code != http.StatusForbidden || !strings.Contains(bodyText(w), "Only an owner can") {
			t.Errorf("POST %s as staff: %d, want 403", target, w.Code)
		}
	}
	if madeLive, published := rel.calls(); len(madeLive) != 0 || published != 0 {
		t.Errorf("staff made %v live and published %d times", madeLive, published)
	}
}
