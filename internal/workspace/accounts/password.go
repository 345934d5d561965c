package accounts

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// MinPasswordLength is the shortest password an account may have.
const MinPasswordLength = 12

// argon2id's cost: RFC 9106's second recommended option (64 MiB, 3 passes,
// 4 lanes), about 0.1 s on the studio's server. Tests may lower it.
var (
	argonTime    uint32 = 3
	argonMemory  uint32 = 64 << 10 // KiB
	argonThreads uint8  = 4
)

// hashing allows two hashes at a time: each takes 64 MiB, and a burst of
// sign-ins must not take the server's memory.
var hashing = make(chan struct{}, 2)

// CheckPasswordRules says what is wrong with a new password, if anything.
func CheckPasswordRules(password string) error {
	if n := utf8.RuneCountInString(password); n < MinPasswordLength {
		return fmt.Errorf("the password is %d characters long: use at least %d", n, MinPasswordLength)
	}
	if len(password) > 1024 {
		return errors.New("the password is longer than 1024 bytes")
	}
	return nil
}

// argonKey is argon2id, the one place its work is done: the tests count
// it (a sign-in costs the same whoever it names).
var argonKey = argon2.IDKey

// deriveKey runs argonKey under the limit of hashes at a time.
func deriveKey(password string, salt []byte, time, memory uint32, threads uint8, keyLen uint32) []byte {
	hashing <- struct{}{}
	defer func() { <-hashing }()
	return argonKey([]byte(password), salt, time, memory, threads, keyLen)
}

// phcString is a hash in the PHC string form, at the cost in force.
func phcString(salt, key []byte) string {
	b64 := base64.RawStdEncoding.EncodeToString
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads, b64(salt), b64(key))
}

// HashPassword hashes a password with argon2id, in the PHC string form
// ($argon2id$v=19$m=…,t=…,p=…$salt$hash) that carries its own cost.
func HashPassword(password string) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	return phcString(salt, deriveKey(password, salt, argonTime, argonMemory, argonThreads, 32)), nil
}

// PasswordMatches checks a password against a hash from HashPassword,
// in time that does not depend on where they differ. A hash that is no
// PHC string (an invited account's unusablePassword, or "" for no
// account) matches nothing, after the same work as a real one: a wrong
// password takes as long to refuse whoever's account is named, or none.
func PasswordMatches(hash, password string) bool {
	time, memory, threads, salt, want, ok := parsePHC(hash)
	if !ok {
		time, memory, threads, salt, want, _ = parsePHC(dummyHash())
	}
	got := deriveKey(password, salt, time, memory, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1 && ok
}

// parsePHC reads a hash from HashPassword; ok is false for anything else.
func parsePHC(hash string) (time, memory uint32, threads uint8, salt, key []byte, ok bool) {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" || parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return 0, 0, 0, nil, nil, false
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &memory, &time, &threads); err != nil {
		return 0, 0, 0, nil, nil, false
	}
	salt, err1 := base64.RawStdEncoding.DecodeString(parts[4])
	key, err2 := base64.RawStdEncoding.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(key) == 0 {
		return 0, 0, 0, nil, nil, false
	}
	return time, memory, threads, salt, key, true
}

// dummyHash is a hash at the cost in force that no password matches: a
// random key, never derived (so making it costs nothing), of a random salt.
func dummyHash() string {
	salt, key := make([]byte, 16), make([]byte, 32)
	rand.Read(salt) // never fails (crypto/rand)
	rand.Read(key)
	return phcString(salt, key)
}

// NewSecret returns 256 random bits, as a cookie or a token carries them.
func NewSecret() string {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b)
}

// SecretHash is what the database keeps of a secret.
func SecretHash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// CheapHashing gives HashPassword and PasswordMatches argon2id's smallest
// cost, for tests (call it before any hashing, from init): the production
// cost takes 64 MiB and a tenth of a second for each of many sign-ins.
func CheapHashing() { argonTime, argonMemory, argonThreads = 1, 64, 1 }
