package enquiry

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"time"
)

// The spam timer the server can verify. When a visitor starts a form, the
// site asks the server for a token (POST /api/form-start): the time, signed
// with a key only the servers hold,
//
//	<unix milliseconds>.<base64url, unpadded, of HMAC-SHA256(key, "form-start:" + unix milliseconds)>
//
// and sends it back with the enquiry as "started". A robot cannot claim to
// have started earlier than it did without the key.

// MaxFormAge is the age past which a form's token no longer judges: a form
// left open for a day is treated like one sent without a token.
const MaxFormAge = 24 * time.Hour

// maxTokenLen bounds the token read: 20 digits, a dot and 43 characters
// of signature are far below it.
const maxTokenLen = 100

// FormTimer signs and checks the tokens of the time a form was started.
// Every copy of the server on one database uses the same key (store.Key).
type FormTimer struct{ key []byte }

// NewFormTimer makes a timer that signs with key.
func NewFormTimer(key []byte) *FormTimer { return &FormTimer{key: append([]byte(nil), key...)} }

// Start is the token of a form started at now.
func (t *FormTimer) Start(now time.Time) string {
	ms := strconv.FormatInt(now.UnixMilli(), 10)
	return ms + "." + t.sign(ms)
}

func (t *FormTimer) sign(ms string) string {
	mac := hmac.New(sha256.New, t.key)
	mac.Write([]byte("form-start:" + ms))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// TimerSpam is the timer's verdict on the token an enquiry carries, at
// now: true (spam) for a token younger than MinFillTime, and for one that
// does not verify (forged, altered or malformed). No token at all, or a
// genuine one older than MaxFormAge, judges nothing (false): a browser
// without JavaScript sends none, and a form may stay open for a day; the
// honeypot and the rate limit still apply to those.
func (t *FormTimer) TimerSpam(token string, now time.Time) bool {
	if token == "" {
		return false
	}
	started, ok := t.verify(token)
	if !ok {
		return true
	}
	age := now.Sub(started)
	if age > MaxFormAge {
		return false
	}
	return age < MinFillTime
}

// verify returns the time a token was signed at, if the signature is ours.
func (t *FormTimer) verify(token string) (time.Time, bool) {
	if len(token) > maxTokenLen {
		return time.Time{}, false
	}
	ms, sig, ok := strings.Cut(token, ".")
	if !ok || ms == "" || strings.TrimLeft(ms, "0123456789") != "" {
		return time.Time{}, false
	}
	n, err := strconv.ParseInt(ms, 10, 64)
	if err != nil || !hmac.Equal([]byte(sig), []byte(t.sign(ms))) {
		return time.Time{}, false
	}
	return time.UnixMilli(n), true
}
