package accountlink

import (
	"context"
	"errors"
	"testing"
	"time"

	"studio/internal/store"
)

type fixedKey []byte

func (k fixedKey) Key(context.Context, string) ([]byte, error) { return k, nil }

// A link works for its account until its expiry, once; a link that says
// it lasts longer than its purpose allows was not signed here, and is
// refused however well it is signed.
func TestCheck(t *testing.T) {
	s := NewSigner(fixedKey("0123456789abcdef0123456789abcdef"))
	ctx := context.Background()
	now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	a := store.Account{ID: 7, Password: "$argon2id$old"}
	check := func(expires, at time.Time, account store.Account) error {
		t.Helper()
		token, err := s.Token(ctx, Reset, a, expires)
		if err != nil {
			t.Fatal(err)
		}
		l, err := Parse(token)
		if err != nil {
			t.Fatal(err)
		}
		return s.Check(ctx, l, account, at)
	}
	if err := check(now.Add(Validity(Reset)), now, a); err != nil {
		t.Errorf("a fresh link: %v", err)
	}
	if err := check(now.Add(Validity(Reset)), now.Add(Validity(Reset)), a); !errors.Is(err, ErrExpired) {
		t.Errorf("at its expiry: %v, want ErrExpired", err)
	}
	if err := check(now.Add(10*365*24*time.Hour), now, a); !errors.Is(err, ErrExpired) {
		t.Errorf("a link for ten years: %v, want refused", err)
	}
	changed := a
	changed.Password = "$argon2id$new"
	if err := check(now.Add(time.Minute), now, changed); !errors.Is(err, ErrUsed) {
		t.Errorf("after the password changed: %v, want ErrUsed", err)
	}
}
