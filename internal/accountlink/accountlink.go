// Package accountlink signs and checks the links mailed to set a password:
// an invitation (valid 48 hours) and a password reset (valid an hour).
// Nothing secret is stored: a link is its purpose, account and expiry with
// two HMAC-SHA256s under a server key (store.KeyAccountLink): one over what
// it says, so a link this server did not sign, or one changed on the way,
// is told apart; and one over the account's password hash as it was.
// Setting the password changes the hash, so a link works once, and a used
// link is told apart from a forged one; past its expiry it works never. A
// new invitation gives the invited account a new unusable hash, so the
// links of earlier invitations stop working too (ErrUsed, which the
// workspace says as "replaced by a newer one" while no password is set).
package accountlink

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"studio/internal/store"
)

// A link's purpose, which is also its outbox recipient.
const (
	Invite = store.RecipientInvite
	Reset  = store.RecipientReset
)

// Validity is how long a link of a purpose works after its mail is queued.
func Validity(purpose string) time.Duration {
	if purpose == Invite {
		return 48 * time.Hour
	}
	return time.Hour
}

// Errors of Check; the page says which, and offers a new link.
var (
	ErrInvalid = errors.New("accountlink: not a link this server signed") // forged, cut or changed
	ErrExpired = errors.New("accountlink: the link has expired")
	ErrUsed    = errors.New("accountlink: the link has been used") // or the password changed since
)

// Link is what a token says, once parsed.
type Link struct {
	Purpose string
	Account int64
	Expires time.Time
	mac     []byte // over the three above
	stamp   []byte // of the account's password hash when it was signed
}

// Signer makes and checks tokens with the key Load gives (loaded once).
type Signer struct {
	Load func(context.Context) ([]byte, error)

	mu  sync.Mutex
	key []byte
}

// NewSigner signs with the store's KeyAccountLink.
func NewSigner(keys interface {
	Key(ctx context.Context, name string) ([]byte, error)
}) *Signer {
	return &Signer{Load: func(ctx context.Context) ([]byte, error) { return keys.Key(ctx, store.KeyAccountLink) }}
}

func (s *Signer) loadKey(ctx context.Context) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.key == nil {
		key, err := s.Load(ctx)
		if err != nil {
			return nil, err
		}
		s.key = key
	}
	return s.key, nil
}

// mac signs what a link says. Its parts hold no NUL: purpose and the
// numbers are read as they were written.
func mac(key []byte, purpose string, id, expires int64) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("link\x00" + purpose + "\x00" + strconv.FormatInt(id, 10) + "\x00" + strconv.FormatInt(expires, 10)))
	return m.Sum(nil)
}

// stamp marks an account's password hash as it is when a link is signed.
func stamp(key []byte, id int64, passwordHash string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("password\x00" + strconv.FormatInt(id, 10) + "\x00" + passwordHash))
	return m.Sum(nil)
}

// Token is the link's token for a, working until expires while a's
// password stays as it is.
func (s *Signer) Token(ctx context.Context, purpose string, a store.Account, expires time.Time) (string, error) {
	key, err := s.loadKey(ctx)
	if err != nil {
		return "", err
	}
	b64 := base64.RawURLEncoding.EncodeToString
	return purpose + "." + strconv.FormatInt(a.ID, 10) + "." + strconv.FormatInt(expires.Unix(), 10) + "." +
		b64(mac(key, purpose, a.ID, expires.Unix())) + "." + b64(stamp(key, a.ID, a.Password)), nil
}

// Parse reads a token without checking it: which account to look up. A
// token not of the form Token writes is ErrInvalid.
func Parse(token string) (Link, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 5 || (parts[0] != Invite && parts[0] != Reset) {
		return Link{}, ErrInvalid
	}
	id, err1 := strconv.ParseInt(parts[1], 10, 64)
	expires, err2 := strconv.ParseInt(parts[2], 10, 64)
	signed, err3 := base64.RawURLEncoding.DecodeString(parts[3])
	stamped, err4 := base64.RawURLEncoding.DecodeString(parts[4])
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil || id <= 0 {
		return Link{}, ErrInvalid
	}
	return Link{Purpose: parts[0], Account: id, Expires: time.Unix(expires, 0), mac: signed, stamp: stamped}, nil
}

// Authentic tells whether this server signed l as it is: ErrInvalid if
// not. An expiry further off at now than its purpose's Validity is never
// one this server signed (only one who read the key, from a stolen backup,
// could): it is ErrInvalid too. It needs no account, so a forged link is
// told apart before one is looked up.
func (s *Signer) Authentic(ctx context.Context, l Link, now time.Time) error {
	key, err := s.loadKey(ctx)
	if err != nil {
		return err
	}
	if !hmac.Equal(l.mac, mac(key, l.Purpose, l.Account, l.Expires.Unix())) || l.Expires.After(now.Add(Validity(l.Purpose))) {
		return ErrInvalid
	}
	return nil
}

// Check tells whether l works for a (the account it names, as it is now)
// at now: ErrInvalid when it is not Authentic, or names another account;
// ErrUsed when a's password is not the one it was signed over (set
// through it, or otherwise, since); ErrExpired when it is past its expiry.
func (s *Signer) Check(ctx context.Context, l Link, a store.Account, now time.Time) error {
	if err := s.Authentic(ctx, l, now); err != nil {
		return err
	}
	if a.ID != l.Account {
		return ErrInvalid
	}
	key, err := s.loadKey(ctx)
	if err != nil {
		return err
	}
	if !hmac.Equal(l.stamp, stamp(key, a.ID, a.Password)) {
		return ErrUsed
	}
	if !now.Before(l.Expires) {
		return ErrExpired
	}
	return nil
}
