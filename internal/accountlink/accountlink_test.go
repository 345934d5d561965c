package accountlink

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"studio/internal/store"
)

type fixedKey []byte

func (k fixedKey) Key(context.Context, string) ([]byte, error) { return k, nil }

// A link works for its account until its expiry, once, and each way it
// can fail is told apart: one this server did not sign, or changed on
// the way, is invalid; one whose password has been set since, used; one
// past its expiry, expired. A link that says it lasts longer than its
// purpose allows was not signed here, however well it is signed.
func TestCheck(t *testing.T) {
	s := NewSigner(fixedKey("0123456789abcdef0123456789abcdef"))
	ctx := context.Background()
	now := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	a := store.Account{ID: 7, Password: "$argon2id$old"}
	token := func(signer *Signer, expires time.Time) string {
		t.Helper()
		token, err := signer.Token(ctx, Reset, a, expires)
		if err != nil {
			t.Fatal(err)
		}
		return token
	}
	check := func(token string, at time.Time, account store.Account) error {
		t.Helper()
		l, err := Parse(token)
		if err != nil {
			return err
		}
		return s.Check(ctx, l, account, at)
	}
	fresh := token(s, now.Add(Validity(Reset)))
	if err := check(fresh, now, a); err != nil {
		t.Errorf("a fresh link: %v", err)
	}
	if err := check(fresh, now.Add(Validity(Reset)), a); !errors.Is(err, ErrExpired) {
		t.Errorf("at its expiry: %v, want ErrExpired", err)
	}
	if err := check(token(s, now.Add(10*365*24*time.Hour)), now, a); !errors.Is(err, ErrInvalid) {
		t.Errorf("a link for ten years: %v, want ErrInvalid", err)
	}
	changed := a
	changed.Password = "$argon2id$new"
	if err := check(fresh, now, changed); !errors.Is(err, ErrUsed) {
		t.Errorf("after the password changed: %v, want ErrUsed", err)
	}
	if err := check(fresh, now.Add(Validity(Reset)), changed); !errors.Is(err, ErrUsed) {
		t.Errorf("used, then past its expiry: %v, want ErrUsed", err)
	}
	other := a
	other.ID = 8
	if err := check(fresh, now, other); !errors.Is(err, ErrInvalid) {
		t.Errorf("checked against another account: %v, want ErrInvalid", err)
	}

	// Forged (another key), tampered with (each part changed), or cut.
	parts := strings.Split(fresh, ".")
	edit := func(i int, to string) string {
		p := append([]string(nil), parts...)
		p[i] = to
		return strings.Join(p, ".")
	}
	for name, bad := range map[string]string{
		"signed with another key": token(NewSigner(fixedKey("not the server's key, 32 bytes..")), now.Add(Validity(Reset))),
		"its purpose changed":     edit(0, Invite),
		"its account changed":     edit(1, "8"),
		"its expiry moved":        edit(2, strconv.FormatInt(now.Add(Validity(Reset)+time.Minute).Unix(), 10)),
		"its signature changed":   edit(3, strings.Repeat("A", len(parts[3]))),
		"cut short":               fresh[:len(fresh)-10],
		"cut to four parts":       strings.Join(parts[:4], "."),
		"not a link at all":       "nonsense",
	} {
		account := a
		if name == "its account changed" {
			account.ID = 8 // the account it now names, as looked up
		}
		if err := check(bad, now, account); !errors.Is(err, ErrInvalid) {
			t.Errorf("a link %s: %v, want ErrInvalid", name, err)
		}
	}
}

// Authentic needs no account: a forged link is told apart before any is
// looked up (a forged link's account may not exist).
func TestAuthentic(t *testing.T) {
	s := NewSigner(fixedKey("0123456789abcdef0123456789abcdef"))
	ctx := context.Background()
	now := time.Now()
	good, err := s.Token(ctx, Invite, store.Account{ID: 3, Password: "!invited"}, now.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	l, err := Parse(good)
	if err != nil || l.Account != 3 || l.Purpose != Invite {
		t.Fatalf("Parse: %+v, %v", l, err)
	}
	if err := s.Authentic(ctx, l, now); err != nil {
		t.Errorf("a link signed here: %v", err)
	}
	forged, _ := Parse("invite.999." + strconv.FormatInt(now.Add(time.Hour).Unix(), 10) + ".AAAA.AAAA")
	if err := s.Authentic(ctx, forged, now); !errors.Is(err, ErrInvalid) {
		t.Errorf("a forged link: %v, want ErrInvalid", err)
	}
}
