package newsletter

import (
	"net/url"
	"strings"
	"testing"
)

func TestLinks(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	link := Link("https://studio.example/", key, Unsubscribe, "Mira+news@Example.com")
	u, err := url.Parse(link)
	if err != nil || !strings.HasPrefix(link, "https://studio.example/newsletter/unsubscribe?") {
		t.Fatalf("Link = %q (%v)", link, err)
	}
	email, sig := u.Query().Get("e"), u.Query().Get("s")
	if email != "Mira+news@Example.com" || !Valid(key, Unsubscribe, email, sig) {
		t.Errorf("the link's own address and signature do not check: %q %q", email, sig)
	}
	// The address in other letters is the same address.
	if !Valid(key, Unsubscribe, "mira+news@example.com", sig) {
		t.Error("the lower-cased address does not check")
	}
	for name, ok := range map[string]bool{
		"another address": Valid(key, Unsubscribe, "ravi@example.com", sig),
		"another purpose": Valid(key, Confirm, email, sig),
		"another key":     Valid([]byte("another key of thirty-two bytes!"), Unsubscribe, email, sig),
		"no key":          Valid(nil, Unsubscribe, email, sig),
		"a cut signature": Valid(key, Unsubscribe, email, sig[:len(sig)-1]),
		"no signature":    Valid(key, Unsubscribe, email, ""),
		"no address":      Valid(key, Unsubscribe, "", Sign(key, Unsubscribe, "")),
	} {
		if ok {
			t.Errorf("%s checks", name)
		}
	}
}
