package workspace

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
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

// HashPassword hashes a password with argon2id, in the PHC string form
// ($argon2id$v=19$m=…,t=…,p=…$salt$hash) that carries its own cost.
func HashPassword(password string) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	hashing <- struct{}{}
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, 32)
	<-hashing
	b64 := base64.RawStdEncoding.EncodeToString
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads, b64(salt), b64(key)), nil
}

// PasswordMatches checks a password against a hash from HashPassword,
// in time that does not depend on where they differ.
func PasswordMatches(hash, password string) bool {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" || parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return false
	}
	var memory, time uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &memory, &time, &threads); err != nil {
		return false
	}
	salt, err1 := base64.RawStdEncoding.DecodeString(parts[4])
	want, err2 := base64.RawStdEncoding.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false
	}
	hashing <- struct{}{}
	got := argon2.IDKey([]byte(password), salt, time, memory, threads, uint32(len(want)))
	<-hashing
	return subtle.ConstantTimeCompare(got, want) == 1
}

// dummyHash is checked against when no account has the e-mail given, so
// a wrong e-mail takes as long to refuse as a wrong password.
var dummyHash = sync.OnceValue(func() string {
	h, _ := HashPassword("no account has this password")
	return h
})

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
