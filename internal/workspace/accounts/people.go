package accounts

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"studio/internal/accountlink"
	"studio/internal/store"
	"studio/internal/workspace/page"
)

// Accounts in the browser (issue 29): an owner invites, removes and
// changes the role of accounts; everyone sees their own sessions; a
// forgotten password is reset through a mailed link. The links are
// signed, not stored (package accountlink).

// ForgotPasswordFloor is the least time the forgot-password form takes to
// answer, so that how long it takes does not tell whether an e-mail has an
// account. Tests shorten it.
var ForgotPasswordFloor = 400 * time.Millisecond

// unusablePassword is an invited account's password until it sets one:
// no PHC string, so PasswordMatches never accepts anything for it.
func unusablePassword() string { return "!invited " + NewSecret() }

// invited tells whether an account has not set its password yet.
func invited(a store.Account) bool { return strings.HasPrefix(a.Password, "!") }

var (
	accountsPage      = newPage("accounts.html")
	removeAccountPage = newPage("account-remove.html")
	yourAccountPage   = newPage("account.html")
	forgotPage        = newPage("forgot-password.html")
	setPasswordPage   = newPage("set-password.html")
)

type accountRow struct {
	store.Account
	Invited bool // has not set a password yet
	You     bool
}

type accountsView struct {
	page.Frame
	Accounts []accountRow
	MailOff  bool // invitations wait in the outbox: SMTP is not set up
	// The invitation form, kept after a problem.
	Email, Name, Role string
}

// showAccounts is the Accounts page, with a problem and the invitation
// form as typed after a failure.
func (h *Handler) showAccounts(w http.ResponseWriter, r *http.Request, status int, v *accountsView) {
	v.Title, v.Section, v.MailOff = "Accounts", "accounts", h.wakeMail == nil
	if v.Role == "" {
		v.Role = store.RoleStaff
	}
	list, err := h.people.Accounts(r.Context())
	if err != nil {
		h.kit.Log.Error("studio: list accounts", "err", err)
		h.kit.NoDatabase(w, r)
		return
	}
	me := page.Account(r)
	for _, a := range list {
		v.Accounts = append(v.Accounts, accountRow{Account: a, Invited: invited(a), You: a.ID == me.ID})
	}
	// What the last form did (?done=, about ?account=), said in the
	// workspace's own words: an address cannot put any on the page.
	q := r.URL.Query()
	for _, a := range list {
		if strconv.FormatInt(a.ID, 10) != q.Get("account") {
			continue
		}
		switch q.Get("done") {
		case "invited":
			v.Notice = a.Email + " was invited as " + roleLabel(a.Role) + ": the link in the invitation works for 48 hours."
		case "reinvited":
			v.Notice = "A new invitation was sent to " + a.Email + ". The link in the earlier one no longer works."
		case "role":
			v.Notice = a.Email + " is now " + roleLabel(a.Role) + "."
		}
	}
	if q.Get("done") == "removed" {
		v.Notice = "The account was removed, with its sessions and tokens."
	}
	h.pages.Render(w, r, status, accountsPage, v)
}

// Accounts is GET /studio/accounts (owners): every account, its role, and
// the invitation form.
func (h *Handler) Accounts(w http.ResponseWriter, r *http.Request) {
	h.showAccounts(w, r, http.StatusOK, &accountsView{})
}

// accountsDone goes back to the Accounts page, to say what was done
// (done: invited, reinvited, role or removed) to account id.
func accountsDone(w http.ResponseWriter, r *http.Request, done string, id int64) {
	http.Redirect(w, r, "/studio/accounts?"+url.Values{"done": {done}, "account": {strconv.FormatInt(id, 10)}}.Encode(), http.StatusSeeOther)
}

// checkEmail says what is wrong with an e-mail typed for a new account.
func checkEmail(email string) string {
	switch addr, err := mail.ParseAddress(email); {
	case email == "":
		return "Type the e-mail address of the person to invite."
	case len(email) > page.MaxEmailBytes || err != nil || addr.Address != email:
		return "“" + email + "” is not an e-mail address: type one like name@example.com, with nothing around it."
	}
	return ""
}

// Invite is POST /studio/accounts/invite (owners): the account is made at
// once, with a password nobody can sign in with, and mailed a link where
// its holder sets one.
func (h *Handler) Invite(w http.ResponseWriter, r *http.Request) {
	v := &accountsView{Email: strings.TrimSpace(r.PostFormValue("email")), Name: strings.TrimSpace(r.PostFormValue("name")), Role: r.PostFormValue("role")}
	email := store.AccountKey(v.Email)
	switch {
	case checkEmail(email) != "":
		v.Problem = "Nobody was invited: " + checkEmail(email)
	case utf8.RuneCountInString(v.Name) > MaxName || strings.ContainsAny(v.Name, "\r\n"):
		v.Problem = "Nobody was invited: the name must be one line of at most " + strconv.Itoa(MaxName) + " characters."
	case v.Role != store.RoleOwner && v.Role != store.RoleStaff:
		v.Problem = "Nobody was invited: choose Owner or Staff."
	}
	if v.Problem != "" {
		h.showAccounts(w, r, http.StatusBadRequest, v)
		return
	}
	a, err := h.people.InviteAccountBy(r.Context(), inviterName(page.Account(r)), email, v.Name, v.Role, unusablePassword(), h.kit.Now())
	switch {
	case errors.Is(err, store.ErrAccountExists):
		v.Problem = "Nobody was invited: " + email + " has an account already."
		h.showAccounts(w, r, http.StatusConflict, v)
		return
	case err != nil:
		h.kit.Log.Error("studio: invite", "err", err)
		v.Problem = "Nobody was invited: the database did not answer. Try again in a minute."
		h.showAccounts(w, r, http.StatusServiceUnavailable, v)
		return
	}
	h.mailWaiting()
	h.kit.Log.Info("studio: invited", "account", a.Email, "role", a.Role, "by", page.Actor(r))
	accountsDone(w, r, "invited", a.ID)
}

// inviterName is how an invitation names the owner who sent it: their
// name, or else their e-mail; "" for an account that is neither (the
// studio's own, from STUDIO_PASSWORD).
func inviterName(a store.Account) string {
	if a.Name != "" {
		return a.Name
	}
	if strings.Contains(a.Email, "@") {
		return a.Email
	}
	return ""
}

// mailWaiting tells the mail worker, when mail is on, that a mail waits.
func (h *Handler) mailWaiting() {
	if h.wakeMail != nil {
		h.wakeMail()
	}
}

func roleLabel(role string) string {
	if role == store.RoleOwner {
		return "Owner"
	}
	return "Staff"
}

// accountOf reads {id} as an account, answering 404 for none.
func (h *Handler) accountOf(w http.ResponseWriter, r *http.Request) (store.Account, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	var a store.Account
	if err == nil {
		a, err = h.people.AccountByID(r.Context(), id)
	}
	switch {
	case err == nil:
		return a, true
	case errors.Is(err, store.ErrNoAccount), id == 0:
		h.kit.Fail(w, r, http.StatusNotFound, "No such account", "There is no such account: it may have been removed.", "/studio/accounts")
	default:
		h.kit.Log.Error("studio: find account", "err", err)
		h.kit.NoDatabase(w, r)
	}
	return a, false
}

// Reinvite is POST /studio/accounts/{id}/invite (owners): a new invitation
// for an account that has not set its password.
func (h *Handler) Reinvite(w http.ResponseWriter, r *http.Request) {
	a, ok := h.accountOf(w, r)
	if !ok {
		return
	}
	if !invited(a) {
		h.kit.Fail(w, r, http.StatusConflict, "Not sent", a.Email+" has set a password already: no invitation was sent. “Forgot your password?” on the sign-in page sends a reset link.", "/studio/accounts")
		return
	}
	// A new unusable password: the links mailed before stop working, and
	// say they were replaced (linkAccount).
	err := h.people.Reinvite(r.Context(), a.ID, a.Password, unusablePassword(), inviterName(page.Account(r)), h.kit.Now())
	if errors.Is(err, store.ErrNoAccount) { // removed, or its password set, a moment ago
		h.kit.Fail(w, r, http.StatusConflict, "Not sent", a.Email+" changed a moment ago: no invitation was sent. Look at the account again.", "/studio/accounts")
		return
	}
	if err != nil {
		h.kit.StoreFailed(w, r, "invite", err)
		return
	}
	h.mailWaiting()
	h.kit.Log.Info("studio: invited again", "account", a.Email, "by", page.Actor(r))
	accountsDone(w, r, "reinvited", a.ID)
}

// SetRole is POST /studio/accounts/{id}/role (owners).
func (h *Handler) SetRole(w http.ResponseWriter, r *http.Request) {
	a, ok := h.accountOf(w, r)
	if !ok {
		return
	}
	role := r.PostFormValue("role")
	if role != store.RoleOwner && role != store.RoleStaff {
		h.kit.Fail(w, r, http.StatusBadRequest, "Not changed", "Nothing was changed: choose Owner or Staff.", "/studio/accounts")
		return
	}
	err := h.people.SetRole(r.Context(), a.ID, role)
	switch {
	case errors.Is(err, store.ErrLastOwner):
		h.kit.Fail(w, r, http.StatusConflict, "Not changed", "Nothing was changed: "+a.Email+" is the only owner, and the studio needs one. Make another account an owner first.", "/studio/accounts")
		return
	case errors.Is(err, store.ErrNoAccount):
		h.kit.Fail(w, r, http.StatusNotFound, "No such account", "There is no such account: it may have been removed.", "/studio/accounts")
		return
	case err != nil:
		h.kit.StoreFailed(w, r, "change role", err)
		return
	}
	h.kit.Log.Info("studio: role changed", "account", a.Email, "role", role, "by", page.Actor(r))
	accountsDone(w, r, "role", a.ID)
}

type removeAccountView struct {
	page.Frame
	Target store.Account
}

// ConfirmRemove is GET /studio/accounts/{id}/remove (owners): asks first.
func (h *Handler) ConfirmRemove(w http.ResponseWriter, r *http.Request) {
	a, ok := h.accountOf(w, r)
	if !ok {
		return
	}
	h.pages.Render(w, r, http.StatusOK, removeAccountPage, &removeAccountView{Frame: page.Frame{Title: "Remove " + a.Email + "?", Section: "accounts"}, Target: a})
}

// RemoveAccount is POST /studio/accounts/{id}/remove (owners): never the
// last owner.
func (h *Handler) RemoveAccount(w http.ResponseWriter, r *http.Request) {
	a, ok := h.accountOf(w, r)
	if !ok {
		return
	}
	err := h.people.DeleteAccount(r.Context(), a.ID)
	switch {
	case errors.Is(err, store.ErrLastOwner):
		h.kit.Fail(w, r, http.StatusConflict, "Not removed", "Nothing was changed: "+a.Email+" is the only owner, and the studio needs one. Make another account an owner first.", "/studio/accounts")
		return
	case errors.Is(err, store.ErrNoAccount):
		h.kit.Fail(w, r, http.StatusNotFound, "No such account", "There is no such account: it may have been removed already.", "/studio/accounts")
		return
	case err != nil:
		h.kit.StoreFailed(w, r, "remove account", err)
		return
	}
	h.kit.Log.Info("studio: account removed", "account", a.Email, "by", page.Actor(r))
	accountsDone(w, r, "removed", a.ID)
}

type yourAccountView struct {
	page.Frame
	Me       store.Account
	Sessions []sessionRow
}

// YourAccount is GET /studio/account: one's own account and sessions.
func (h *Handler) YourAccount(w http.ResponseWriter, r *http.Request) {
	v := &yourAccountView{Me: page.Account(r)}
	switch r.URL.Query().Get("done") {
	case "name":
		v.Notice = "Your name is saved: your replies are signed with it."
	case "password":
		v.Notice = "Your password is changed. Every other browser signed in as you is signed out."
	case "signed-out-others":
		v.Notice = "Every other browser is signed out. This one stays signed in."
	case "signed-out-one":
		v.Notice = "That browser is signed out."
	}
	h.yourAccount(w, r, http.StatusOK, v)
}

// SetYourName is POST /studio/account/name: the name one's replies go out
// under ("Asha Rao, Jharokha Studio").
func (h *Handler) SetYourName(w http.ResponseWriter, r *http.Request) {
	name := strings.Join(strings.Fields(r.PostFormValue("name")), " ")
	me := page.Account(r)
	if n := utf8.RuneCountInString(name); n > MaxName {
		me.Name = name
		v := &yourAccountView{Me: me}
		v.Problem = fmt.Sprintf("Your name was not saved: it is %d characters long; keep it to %d.", n, MaxName)
		h.yourAccount(w, r, http.StatusBadRequest, v)
		return
	}
	if err := h.people.SetName(r.Context(), me.ID, name); err != nil {
		h.kit.StoreFailed(w, r, "set name", err)
		return
	}
	http.Redirect(w, r, "/studio/account?done=name", http.StatusSeeOther)
}

// ChangePassword is POST /studio/account/password: the current password,
// and the new one twice. The current one is checked as a sign-in's is,
// under the same limits, so a browser left signed in cannot be used to
// guess it; the change ends every session of the account, and this
// browser is signed in again.
func (h *Handler) ChangePassword(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 8<<10)
	v := &yourAccountView{Me: page.Account(r)}
	refuse := func(status int, why string) {
		v.Problem = "Your password was not changed: " + why
		h.yourAccount(w, r, status, v)
	}
	password := r.PostFormValue("password")
	if problem := newPasswordProblem(password, r.PostFormValue("again")); problem != "" {
		refuse(http.StatusBadRequest, problem)
		return
	}
	a, wait, err := h.checkPassword(r, v.Me.Email, r.PostFormValue("current"))
	switch {
	case wait > 0:
		w.Header().Set("Retry-After", retryAfter(wait))
		refuse(http.StatusTooManyRequests, "too many wrong tries. Wait "+WaitText(wait)+", then try again.")
		return
	case errors.Is(err, errWrongPassword):
		refuse(http.StatusForbidden, "the current password typed is not yours.")
		return
	case err != nil:
		refuse(http.StatusServiceUnavailable, "the database did not answer. Try again in a minute.")
		return
	}
	ctx, cancel, err := h.replacePassword(r, a, password)
	defer cancel()
	if errors.Is(err, store.ErrNoAccount) { // changed at the same moment elsewhere
		refuse(http.StatusConflict, "it was changed from another browser a moment ago. Sign in with the newest one.")
		return
	}
	if err != nil {
		h.kit.Log.Error("studio: change password", "err", err)
		refuse(http.StatusServiceUnavailable, "the database did not answer. Try again in a minute.")
		return
	}
	h.kit.Log.Info("studio: password changed", "account", a.Email, "client", h.kit.Visitor.IP(r))
	h.startSession(ctx, w, r, a)
}

// newPasswordProblem says what is wrong with a new password typed twice,
// "" when nothing is.
func newPasswordProblem(password, again string) string {
	if err := CheckPasswordRules(password); err != nil {
		return err.Error() + "."
	}
	if password != again {
		return "the two passwords differ. Type the same one twice."
	}
	return ""
}

// replacePassword gives a the new password if a's is still the one read
// (store.ErrNoAccount otherwise: changed meanwhile), ending a's sessions.
// Its context, for the database work after the hashing, is the one to
// sign in with.
func (h *Handler) replacePassword(r *http.Request, a store.Account, password string) (context.Context, context.CancelFunc, error) {
	hash, err := HashPassword(password)
	ctx, cancel := h.afterHashing(r)
	if err == nil {
		err = h.people.ReplacePassword(ctx, a.ID, a.Password, hash)
	}
	return ctx, cancel, err
}

// yourAccount renders one's own account page: v, with the sessions.
func (h *Handler) yourAccount(w http.ResponseWriter, r *http.Request, status int, v *yourAccountView) {
	rows, ok := h.sessionRows(w, r, v.Me.ID)
	if !ok {
		return
	}
	v.Title, v.Section, v.Sessions = "Your account", "account", rows
	h.pages.Render(w, r, status, yourAccountPage, v)
}

type forgotView struct {
	page.Frame
	Email string
}

// ForgotPassword is GET /studio/forgot-password: the form that asks for a
// reset link.
func (h *Handler) ForgotPassword(w http.ResponseWriter, r *http.Request) {
	h.pages.Render(w, r, http.StatusOK, forgotPage, &forgotView{Frame: page.Frame{Title: "Forgot your password?"}})
}

// SendReset is POST /studio/forgot-password. It answers the same, in
// about the same time, whether or not the e-mail has an account, and
// mails an account at most ResetsPerHour links an hour.
func (h *Handler) SendReset(w http.ResponseWriter, r *http.Request) {
	if err := h.crossOrigin.Check(r); err != nil {
		h.kit.Fail(w, r, http.StatusForbidden, "Refused", "This form must be sent from the studio's own site.", "")
		return
	}
	start := time.Now()
	email := strings.TrimSpace(r.PostFormValue("email"))
	if email == "" {
		v := &forgotView{Frame: page.Frame{Title: "Forgot your password?", Problem: "Type the e-mail address of your account."}}
		h.pages.Render(w, r, http.StatusBadRequest, forgotPage, v)
		return
	}
	// The work is done apart from the answer, under a deadline of its own:
	// a slow database must not make the answer tell anything either.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), h.kit.DatabaseTimeout)
	defer cancel()
	h.queueReset(ctx, r, email)
	if wait := ForgotPasswordFloor - time.Since(start); wait > 0 {
		time.Sleep(wait)
	}
	v := &forgotView{Frame: page.Frame{Title: "Check your mail",
		Notice: "If " + email + " is the e-mail of an account, a link to set a new password is on its way to it. It works once, for an hour."}, Email: email}
	h.pages.Render(w, r, http.StatusOK, forgotPage, v)
}

// queueReset queues a reset mail for email's account, if there is one and
// it has not had ResetsPerHour in the last hour; it logs what it did not do.
func (h *Handler) queueReset(ctx context.Context, r *http.Request, email string) {
	key := store.AccountKey(email)
	if len(key) > page.MaxEmailBytes || !utf8.ValidString(key) {
		return
	}
	a, err := h.signIns.AccountByEmail(ctx, key)
	if errors.Is(err, store.ErrNoAccount) {
		h.kit.Log.Info("studio: reset asked for no account", "client", h.kit.Visitor.IP(r))
		return
	}
	now := h.kit.Now()
	n := 0
	if err == nil {
		n, err = h.people.RecentAccountMails(ctx, store.RecipientReset, a.ID, now.Add(-time.Hour))
	}
	if err == nil && n >= ResetsPerHour {
		h.kit.Log.Warn("studio: reset refused, too many this hour", "account", a.Email, "client", h.kit.Visitor.IP(r))
		return
	}
	if err == nil {
		err = h.people.QueueAccountMail(ctx, store.RecipientReset, a.ID, now)
	}
	if err != nil {
		h.kit.Log.Error("studio: queue reset", "err", err)
		return
	}
	h.mailWaiting()
	h.kit.Log.Info("studio: reset mailed", "account", a.Email, "client", h.kit.Visitor.IP(r))
}

type setPasswordView struct {
	page.Frame
	Token   string
	Email   string
	Invite  bool // an invitation, not a reset
	Refused bool // the link does not work: no form, the way to a new one
}

// The words of a link that does not work, one for each way it fails.
const (
	linkNotValid = "This link is not valid: it is not the whole link from the mail, or it was changed. Copy the whole link from the mail, or ask for a new one."
	linkUsed     = "This link has been used: it sets a password once."
)

// linkAccount checks a mailed link's token: its account, or the page that
// says why it does not work and offers a new one.
func (h *Handler) linkAccount(w http.ResponseWriter, r *http.Request, token string) (accountlink.Link, store.Account, bool) {
	refuse := func(status int, problem string, invite bool) {
		v := &setPasswordView{Frame: page.Frame{Title: "This link does not work", Problem: problem}, Refused: true, Invite: invite}
		h.pages.Render(w, r, status, setPasswordPage, v)
	}
	// Whether this server signed the link is known before any account is
	// looked up: a forged link's account may not exist.
	l, err := accountlink.Parse(token)
	if err == nil {
		err = h.links.Authentic(r.Context(), l, h.kit.Now())
	}
	var a store.Account
	if err == nil {
		a, err = h.people.AccountByID(r.Context(), l.Account)
	}
	if err == nil {
		err = h.links.Check(r.Context(), l, a, h.kit.Now())
	}
	invite := l.Purpose == accountlink.Invite
	switch {
	case err == nil:
		return l, a, true
	case errors.Is(err, accountlink.ErrInvalid):
		refuse(http.StatusNotFound, linkNotValid, false)
	case errors.Is(err, store.ErrNoAccount):
		refuse(http.StatusGone, "This link's account has been removed.", invite)
	case errors.Is(err, accountlink.ErrExpired):
		refuse(http.StatusGone, "This link has expired: ask for a new one. It worked until "+h.kit.When(l.Expires)+".", invite)
	case errors.Is(err, accountlink.ErrUsed) && invite && invited(a):
		// Not set yet, so signed over an earlier unusable password.
		refuse(http.StatusGone, "This invitation was replaced by a newer one: use the link in the latest invitation mailed to you.", invite)
	case errors.Is(err, accountlink.ErrUsed):
		refuse(http.StatusGone, linkUsed, invite)
	default:
		h.kit.Log.Error("studio: check link", "err", err)
		h.kit.NoDatabase(w, r)
	}
	return l, a, false
}

// SetPasswordForm is GET /studio/set-password?token=…: the form of a
// mailed link.
func (h *Handler) SetPasswordForm(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("token")
	l, a, ok := h.linkAccount(w, r, token)
	if !ok {
		return
	}
	h.pages.Render(w, r, http.StatusOK, setPasswordPage, &setPasswordView{Frame: page.Frame{Title: "Set your password"}, Token: token, Email: a.Email, Invite: l.Purpose == accountlink.Invite})
}

// SetPassword is POST /studio/set-password: the new password, twice. It
// works once (the link was signed over the old password), ends the
// account's other sessions and signs this browser in.
func (h *Handler) SetPassword(w http.ResponseWriter, r *http.Request) {
	if err := h.crossOrigin.Check(r); err != nil {
		h.kit.Fail(w, r, http.StatusForbidden, "Refused", "This form must be sent from the studio's own site.", "")
		return
	}
	token := r.PostFormValue("token")
	l, a, ok := h.linkAccount(w, r, token)
	if !ok {
		return
	}
	v := &setPasswordView{Frame: page.Frame{Title: "Set your password"}, Token: token, Email: a.Email, Invite: l.Purpose == accountlink.Invite}
	password := r.PostFormValue("password")
	if problem := newPasswordProblem(password, r.PostFormValue("again")); problem != "" {
		v.Problem = "Your password was not set: " + problem
		h.pages.Render(w, r, http.StatusBadRequest, setPasswordPage, v)
		return
	}
	ctx, cancel, err := h.replacePassword(r, a, password)
	defer cancel()
	if errors.Is(err, store.ErrNoAccount) { // used at the same moment elsewhere
		h.pages.Render(w, r, http.StatusGone, setPasswordPage, &setPasswordView{Frame: page.Frame{Title: "This link does not work", Problem: linkUsed}, Refused: true, Invite: v.Invite})
		return
	}
	if err != nil {
		h.kit.Log.Error("studio: set password", "err", err)
		v.Problem = "Your password was not set: the database did not answer. Try again in a minute."
		h.pages.Render(w, r, http.StatusServiceUnavailable, setPasswordPage, v)
		return
	}
	h.kit.Log.Info("studio: password set through a mailed link", "account", a.Email, "purpose", l.Purpose, "client", h.kit.Visitor.IP(r))
	h.startSession(ctx, w, r, a)
}

// RefuseForm shows problem (a field's text no database can keep) on the
// page of a form anyone may send, the sign-in's or the forgotten
// password's, and tells whether r was one; other forms are the caller's.
func (h *Handler) RefuseForm(w http.ResponseWriter, r *http.Request, problem string) bool {
	switch r.URL.Path {
	case "/studio/sign-in":
		h.showSignIn(w, r, http.StatusBadRequest, "", problem)
		return true
	case "/studio/forgot-password":
		h.pages.Render(w, r, http.StatusBadRequest, forgotPage, &forgotView{Frame: page.Frame{Title: "Forgot your password?", Problem: problem}})
		return true
	}
	return false
}
