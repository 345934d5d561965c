package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"
)

// KeyFormStart names the key that signs the time a visitor started a form
// (enquiry.FormTimer).
const KeyFormStart = "form_start"

// KeyEventSender names the key that hashes a visitor's address for the
// daily cap on the analytics events it may send (server.WithEventCaps).
const KeyEventSender = "event_sender"

// KeyAccountLink names the key that signs the links of invitations and
// password resets (package accountlink).
const KeyAccountLink = "account_link"

// Key returns the random 32-byte key called name, making it the first time
// any copy of the server asks. It lives in the database (server_keys), so
// every copy of the server on one database uses the same key and a restart
// keeps it. Copies that start together agree: each offers a key of its
// own, the first insert wins, and all read back the winner.
func (s *Store) Key(ctx context.Context, name string) ([]byte, error) {
	fresh := make([]byte, 32)
	rand.Read(fresh)
	if _, err := s.write.ExecContext(ctx, s.q(`INSERT INTO server_keys (name, secret, created_ms) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING`),
		name, hex.EncodeToString(fresh), millis(time.Now())); err != nil {
		return nil, fmt.Errorf("store: make key %s: %w", name, err)
	}
	var secret string
	if err := s.write.QueryRowContext(ctx, s.q(`SELECT secret FROM server_keys WHERE name = ?`), name).Scan(&secret); err != nil {
		return nil, fmt.Errorf("store: read key %s: %w", name, err)
	}
	key, err := hex.DecodeString(secret)
	if err != nil || len(key) < 32 {
		return nil, fmt.Errorf("store: key %s in server_keys is not 32 bytes of hex", name)
	}
	return key, nil
}

// KeyNewsletterLinks names the key that signs the newsletter's links to
// confirm and to unsubscribe (package newsletter).
const KeyNewsletterLinks = "newsletter_links"
