// Package newsletter signs the links a newsletter mail carries: to
// confirm a sign-up and to unsubscribe. A link names the address and
// carries an HMAC-SHA256 of what it does and the address (compared
// without regard to case, as the list does), under a server-wide key
// (store.KeyNewsletterLinks), so nothing secret is stored per address and
// a link cannot be made for another address or turned into the other
// kind.
package newsletter

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/url"
	"strings"

	"studio/internal/enquiry"
)

// What a link does; also the last part of its path.
const (
	Confirm     = "confirm"
	Unsubscribe = "unsubscribe"
)

// Path is where a link of purpose leads on the site.
func Path(purpose string) string { return "/newsletter/" + purpose }

// Sign is the signature of a link of purpose for email.
func Sign(key []byte, purpose, email string) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(purpose))
	mac.Write([]byte{0})
	mac.Write([]byte(enquiry.EmailKey(email)))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// Valid tells whether signature is that of a link of purpose for email,
// in constant time.
func Valid(key []byte, purpose, email, signature string) bool {
	if len(key) == 0 || email == "" {
		return false
	}
	return hmac.Equal([]byte(signature), []byte(Sign(key, purpose, email)))
}

// Link is the full address of a link of purpose for email on the site
// at baseURL (the server's own address, never content's): …/newsletter/<purpose>?e=…&s=….
func Link(baseURL string, key []byte, purpose, email string) string {
	q := url.Values{"e": {email}, "s": {Sign(key, purpose, email)}}
	return strings.TrimRight(baseURL, "/") + Path(purpose) + "?" + q.Encode()
}
