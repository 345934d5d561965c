// Package accounts is the workspace's accounts and sign-in: the gate every
// other page is behind (SignedIn, Scripted, OwnerOnly, SignInFirst), the
// sessions (kept in the database), the limits on failed sign-ins, and the
// pages of accounts: inviting, roles, one's own account, and a password
// reset through a mailed link (package accountlink).
package accounts

import (
	"context"
	"embed"
	"net/http"
	"time"

	"studio/internal/accountlink"
	"studio/internal/store"
	"studio/internal/workspace/page"
)

// Store is what the accounts read and write (a *store.Store).
type Store interface {
	sessionStore
	signInStore
	tokenStore
	peopleStore
}

// sessionStore keeps the sessions of those signed in.
type sessionStore interface {
	CreateSession(ctx context.Context, secretHash string, accountID int64, at, staleBefore time.Time) error
	SessionBySecret(ctx context.Context, secretHash string) (store.Session, error)
	TouchSession(ctx context.Context, secretHash string, at time.Time, userAgent, network string) error
	DeleteSession(ctx context.Context, secretHash string) error
	EndSessions(ctx context.Context, accountID int64, secretHashes []string, why string, at time.Time) (int, error)
	RecordSignInAddress(ctx context.Context, base string, at time.Time) error
}

// signInStore checks an e-mail and password under the limits on failed
// sign-ins.
type signInStore interface {
	ReserveSignIn(ctx context.Context, account, address string, now time.Time, rule store.SignInRule) (time.Duration, error)
	AccountByEmail(ctx context.Context, email string) (store.Account, error)
	ClearSignInFailures(ctx context.Context, account, address string) error
}

// tokenStore finds the account of a script's token.
type tokenStore interface {
	AccountByToken(ctx context.Context, secretHash string, at time.Time) (store.Account, error)
}

// peopleStore manages the accounts and their mailed links.
type peopleStore interface {
	Accounts(ctx context.Context) ([]store.Account, error)
	AccountByID(ctx context.Context, id int64) (store.Account, error)
	InviteAccountBy(ctx context.Context, invitedBy, email, name, role, unusableHash string, at time.Time) (store.Account, error)
	Reinvite(ctx context.Context, id int64, oldHash, newUnusableHash, invitedBy string, at time.Time) error
	QueueAccountMail(ctx context.Context, recipient string, accountID int64, at time.Time) error
	RecentAccountMails(ctx context.Context, recipient string, accountID int64, since time.Time) (int, error)
	SetRole(ctx context.Context, id int64, role string) error
	SetName(ctx context.Context, id int64, name string) error
	DeleteAccount(ctx context.Context, id int64) error
	AccountSessions(ctx context.Context, accountID int64) ([]store.SessionInfo, error)
	ReplacePassword(ctx context.Context, id int64, oldHash, newHash string) error
	Key(ctx context.Context, name string) ([]byte, error)
}

const (
	// A session ends after IdleLimit without a request, and in any case
	// AbsoluteLimit after sign-in.
	IdleLimit     = 12 * time.Hour
	AbsoluteLimit = 7 * 24 * time.Hour

	// Failed sign-ins slow the next try, never lock: each pair (an e-mail
	// tried from one address) has PairFreeFailures free failures, and each
	// address AddressFreeFailures (an office shares one), counted over
	// failureWindow. After those the next try from that key waits
	// firstWait from its latest failure, twice that after one more failure,
	// and so on up to MaxWait. Failures are kept, and shown to the
	// account's holder, for FailuresShown. Nothing counts per account
	// alone, so guesses from elsewhere never keep its holder out.
	PairFreeFailures    = 5
	AddressFreeFailures = 20
	firstWait           = 30 * time.Second
	MaxWait             = 15 * time.Minute
	failureWindow       = 24 * time.Hour
	FailuresShown       = 7 * 24 * time.Hour
	basicAuthRealm      = `Basic realm="Studio inbox", charset="UTF-8"`

	MaxName = 100 // characters of an account's name
	// At most ResetsPerHour reset mails go to one account in an hour,
	// whoever asks: the form cannot flood a mailbox.
	ResetsPerHour = 3
)

var signInRule = store.SignInRule{
	Pair:    store.Backoff{Free: PairFreeFailures, First: firstWait, Max: MaxWait},
	Address: store.Backoff{Free: AddressFreeFailures, First: firstWait, Max: MaxWait},
	Window:  failureWindow,
	Keep:    FailuresShown,
}

// The accounts' own pages: one template file each in templates/.
//
//go:embed templates
var templateFiles embed.FS

// pageFiles are the pages declared with newPage.
var pageFiles page.Names

func newPage(file string) page.Name { return pageFiles.Declare(file) }

// Handler serves the accounts' pages and is the gate of every other.
type Handler struct {
	sessions sessionStore
	signIns  signInStore
	tokens   tokenStore
	people   peopleStore
	links    *accountlink.Signer // signs the mailed links that set a password

	kit         *page.Kit
	pages       *page.Pages
	crossOrigin *http.CrossOriginProtection
	wakeMail    func()
	signedOut   func(http.ResponseWriter, *http.Request)
}

// New returns the accounts on st. wakeMail tells the mail worker that an
// invitation or a reset is waiting (nil: mail is off, and they wait in the
// outbox); signedOut forgets, at sign-out, what else this browser was
// given (a preview's cookie), or is nil. It panics if a page's template is
// broken (it is built in: a mistake of the build's).
func New(st Store, kit *page.Kit, wakeMail func(), signedOut func(http.ResponseWriter, *http.Request)) *Handler {
	return &Handler{sessions: st, signIns: st, tokens: st, people: st, links: accountlink.NewSigner(st),
		kit: kit, pages: kit.MustParse(templateFiles, pageFiles, nil), crossOrigin: http.NewCrossOriginProtection(),
		wakeMail: wakeMail, signedOut: signedOut}
}
