// Package accountlink signs and checks the links mailed to set a password:
// an invitation (valid 48 hours) and a password reset (valid an hour).
// Nothing secret is stored: a link is its purpose, account and expiry with
// an HMAC-SHA256 over them and the account's current password hash, under
// a server key (store.KeyAccountLink). Setting the password changes the
// hash, so a link works once; past its expiry it works never.
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
	ErrMalformed = errors.New("accountlink: not a link of ours")
	ErrExpired   = errors.New("accountlink: the link has expired")
	ErrUsed      = errors.New("accountlink: the link was used already") // or the password changed since
)

// Link is what a token says, once parsed.
type Link struct {
	Purpose string
	Account int64
	Expires time.Time
	mac     []byte
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

func sum(key []byte, purpose string, id int64, expires int64, passwordHash string) []byte {
	m := hmac.New(sha256.New, key)
	// Each part is length-free of the separator: purpose and the numbers
	// hold no NUL, and the hash is last.
	m.Write([]byte(purpose + "\x00" + strconv.FormatInt(id, 10) + "\x00" + strconv.FormatInt(expires, 10) + "\x00" + passwordHash))
	return m.Sum(nil)
}

// Token is the link's token for a, working until expires while a's
// password stays as it is.
func (s *Signer) Token(ctx context.Context, purpose string, a store.Account, expires time.Time) (string, error) {
	key, err := s.loadKey(ctx)
	if err != nil {
		return "", err
	}
	mac := sum(key, purpose, a.ID, expires.Unix(), a.Password)
	return purpose + "." + strconv.FormatInt(a.ID, 10) + "." + strconv.FormatInt(expires.Unix(), 10) + "." + base64.RawURLEncoding.EncodeToString(mac), nil
}

// Parse reads a token without checking it: which account to look up.
func Parse(token string) (Link, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 4 || (parts[0] != Invite && parts[0] != Reset) {
		return Link{}, ErrMalformed
	}
	id, err1 := strconv.ParseInt(parts[1], 10, 64)
	expires, err2 := strconv.ParseInt(parts[2], 10, 64)
	mac, err3 := base64.RawURLEncoding.DecodeString(parts[3])
	if err1 != nil || err2 != nil || err3 != nil || id <= 0 {
		return Link{}, ErrMalformed
	}
	return Link{Purpose: parts[0], Account: id, Expires: time.Unix(expires, 0), mac: mac}, nil
}

// Check tells whether l works for a (the account it names, as it is now)
// at now: ErrUsed when it was signed over another password hash (set since,
// or never this account's), ErrExpired when it is past its expiry. An
// expiry further off than its purpose's Validity is never one this server
// signed (only one who read the key, from a stolen backup, could): it is
// refused too.
func (s *Signer) Check(ctx context.Context, l Link, a store.Account, now time.Time) error {
	key, err := s.loadKey(ctx)
	if err != nil {
		return err
	}
	if a.ID != l.Account || !hmac.Equal(l.mac, sum(key, l.Purpose, l.Account, l.Expires.Unix(), a.Password)) {
		return ErrUsed
	}
	if !now.Before(l.Expires) || l.Expires.After(now.Add(Validity(l.Purpose))) {
		return ErrExpired
	}
	return nil
}
