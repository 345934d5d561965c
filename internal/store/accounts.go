package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The studio's accounts, their sessions in the inbox and their tokens for
// scripts. Sessions and tokens are looked up by the SHA-256 of their
// secret (the caller hashes), so the database never holds a usable one.

// Account is one person (or, for STUDIO_PASSWORD, the studio) who can
// open the inbox.
type Account struct {
	ID        int64
	Email     string // lower-case
	Name      string // signs the account's replies; "" until given
	Role      string // RoleOwner or RoleStaff
	Password  string // argon2id hash, PHC form
	CreatedAt time.Time
	InvitedBy string // who sent its latest invitation (a name, or an e-mail); "" if none
}

// An account's role: an owner can do everything; staff work the inbox and
// the content's drafts, but cannot manage accounts, export, erase a
// person or publish.
const (
	RoleOwner = "owner"
	RoleStaff = "staff"
)

// accountColumns are an account's columns, in the order of
// Account.fields, for a query whose accounts table is called a.
const accountColumns = `a.id, a.email, a.name, a.role, a.password, a.created_at, a.invited_by`

func (a *Account) fields() []any {
	return []any{&a.ID, &a.Email, &a.Name, &a.Role, &a.Password, &a.CreatedAt, &a.InvitedBy}
}

// Session is a signed-in browser.
type Session struct {
	Account Account
	Created time.Time
	Seen    time.Time
	// Ended is when the session was ended from elsewhere (zero while it
	// is live), and EndedWhy why: SessionEndedElsewhere.
	Ended    time.Time
	EndedWhy string
}

// SessionEndedElsewhere is the why of a session ended from another of
// the account's browsers (Your account).
const SessionEndedElsewhere = "elsewhere"

// Token is a script's key to the CSV exports.
type Token struct {
	ID        int64
	Email     string
	CreatedAt time.Time
	UsedAt    *time.Time
}

var (
	ErrNoAccount     = errors.New("store: no such account")
	ErrAccountExists = errors.New("store: that account exists already")
	ErrNoToken       = errors.New("store: no such token")
)

// AccountKey is how an account's e-mail is stored and found: trimmed and
// lower-case, so Asha@… and asha@… are one account.
func AccountKey(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// CreateAccount adds an owner's account.
func (s *Store) CreateAccount(ctx context.Context, email, passwordHash string, at time.Time) error {
	return s.CreateAccountAs(ctx, email, passwordHash, RoleOwner, at)
}

// CreateAccountAs adds an account with a role.
func (s *Store) CreateAccountAs(ctx context.Context, email, passwordHash, role string, at time.Time) error {
	if role != RoleOwner && role != RoleStaff {
		return fmt.Errorf("store: no role %q", role)
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM accounts WHERE email = ?`), AccountKey(email)).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return ErrAccountExists
		}
		_, err := tx.ExecContext(ctx, s.q(`INSERT INTO accounts (email, password, role, created_at) VALUES (?, ?, ?, ?)`), AccountKey(email), passwordHash, role, at.UTC())
		return err
	})
	if err != nil && !errors.Is(err, ErrAccountExists) {
		return fmt.Errorf("store: create account: %w", err)
	}
	return err
}

// SetPassword changes an account's password and ends its sessions: a
// password changed because it leaked must shut out whoever used it.
func (s *Store) SetPassword(ctx context.Context, email, passwordHash string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.q(`UPDATE accounts SET password = ? WHERE email = ?`), passwordHash, AccountKey(email))
		if err != nil {
			return fmt.Errorf("store: set password: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNoAccount
		}
		_, err = tx.ExecContext(ctx, s.q(`DELETE FROM sessions WHERE account_id = (SELECT id FROM accounts WHERE email = ?)`), AccountKey(email))
		return err
	})
}

// RemoveAccount deletes the account of an e-mail with its sessions and
// tokens (`studio user remove`). What it did in the inbox stays recorded
// under its e-mail. The last owner goes only with the last account:
// staff left without an owner could manage no accounts (ErrLastOwner),
// while no account at all is the inbox off, as before any was made.
func (s *Store) RemoveAccount(ctx context.Context, email string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		var id int64
		err := tx.QueryRowContext(ctx, s.q(`SELECT id FROM accounts WHERE email = ?`), AccountKey(email)).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNoAccount
		}
		accounts := 0
		if err == nil {
			err = tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM accounts`).Scan(&accounts)
		}
		if err != nil {
			return fmt.Errorf("store: remove account: %w", err)
		}
		if accounts == 1 {
			return s.deleteAccount(ctx, tx, id)
		}
		return s.deleteUnlessLastOwner(ctx, tx, id)
	})
}

// Accounts lists every account by e-mail.
func (s *Store) Accounts(ctx context.Context) ([]Account, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+accountColumns+` FROM accounts a ORDER BY a.email`)
	if err != nil {
		return nil, fmt.Errorf("store: list accounts: %w", err)
	}
	defer rows.Close()
	var list []Account
	for rows.Next() {
		var a Account
		if err := rows.Scan(a.fields()...); err != nil {
			return nil, fmt.Errorf("store: list accounts: %w", err)
		}
		a.CreatedAt = a.CreatedAt.UTC()
		list = append(list, a)
	}
	return list, rows.Err()
}

// HasAccounts tells whether anyone can sign in: the inbox is off until then.
func (s *Store) HasAccounts(ctx context.Context) (bool, error) {
	var n int
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM accounts`).Scan(&n); err != nil {
		return false, fmt.Errorf("store: count accounts: %w", err)
	}
	return n > 0, nil
}

// AccountByEmail finds an account.
func (s *Store) AccountByEmail(ctx context.Context, email string) (Account, error) {
	return s.accountWhere(ctx, `a.email = ?`, AccountKey(email))
}

// accountWhere finds the account a condition on accounts a picks.
func (s *Store) accountWhere(ctx context.Context, condition string, arg any) (Account, error) {
	var a Account
	err := s.read.QueryRowContext(ctx, s.q(`SELECT `+accountColumns+` FROM accounts a WHERE `+condition), arg).Scan(a.fields()...)
	if errors.Is(err, sql.ErrNoRows) {
		return a, ErrNoAccount
	}
	if err != nil {
		return a, fmt.Errorf("store: find account: %w", err)
	}
	a.CreatedAt = a.CreatedAt.UTC()
	return a, nil
}

// CreateSession starts a session for an account, and clears away the
// sessions that went idle before staleBefore.
func (s *Store) CreateSession(ctx context.Context, secretHash string, accountID int64, at, staleBefore time.Time) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM sessions WHERE seen_ms < ?`), millis(staleBefore)); err != nil {
			return fmt.Errorf("store: clear idle sessions: %w", err)
		}
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO sessions (secret_hash, account_id, created_ms, seen_ms) VALUES (?, ?, ?, ?)`),
			secretHash, accountID, millis(at), millis(at)); err != nil {
			return fmt.Errorf("store: create session: %w", err)
		}
		return nil
	})
}

// SessionBySecret finds a session and its account, ended or not;
// ErrNoAccount when there is none (signed out, expired and cleared, or
// never was).
func (s *Store) SessionBySecret(ctx context.Context, secretHash string) (Session, error) {
	var (
		ss            Session
		created, seen int64
		ended         sql.NullInt64
	)
	err := s.read.QueryRowContext(ctx, s.q(`SELECT `+accountColumns+`, s.created_ms, s.seen_ms, s.ended_ms, s.ended_why
		FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.secret_hash = ?`), secretHash).
		Scan(append(ss.Account.fields(), &created, &seen, &ended, &ss.EndedWhy)...)
	if errors.Is(err, sql.ErrNoRows) {
		return ss, ErrNoAccount
	}
	if err != nil {
		return ss, fmt.Errorf("store: find session: %w", err)
	}
	ss.Account.CreatedAt = ss.Account.CreatedAt.UTC()
	ss.Created, ss.Seen = time.UnixMilli(created).UTC(), time.UnixMilli(seen).UTC()
	if ended.Valid {
		ss.Ended = time.UnixMilli(ended.Int64).UTC()
	}
	return ss, nil
}

// TouchSession records that a live session was used at at, by the
// browser userAgent from network.
func (s *Store) TouchSession(ctx context.Context, secretHash string, at time.Time, userAgent, network string) error {
	if _, err := s.write.ExecContext(ctx, s.q(`UPDATE sessions SET seen_ms = ?, user_agent = ?, network = ? WHERE secret_hash = ? AND ended_ms IS NULL`),
		millis(at), userAgent, network, secretHash); err != nil {
		return fmt.Errorf("store: touch session: %w", err)
	}
	return nil
}

// DeleteSession ends one session.
func (s *Store) DeleteSession(ctx context.Context, secretHash string) error {
	if _, err := s.write.ExecContext(ctx, s.q(`DELETE FROM sessions WHERE secret_hash = ?`), secretHash); err != nil {
		return fmt.Errorf("store: delete session: %w", err)
	}
	return nil
}

// DeleteSessions deletes every session of an account.
func (s *Store) DeleteSessions(ctx context.Context, accountID int64) error {
	if _, err := s.write.ExecContext(ctx, s.q(`DELETE FROM sessions WHERE account_id = ?`), accountID); err != nil {
		return fmt.Errorf("store: delete sessions: %w", err)
	}
	return nil
}

// EndSessions ends the live sessions of an account named by their secret
// hashes, at at, for why (SessionEndedElsewhere): each is kept, ended,
// until it goes idle, to tell its browser why. It returns how many it
// ended; a hash of another account's session, or of none, ends nothing.
func (s *Store) EndSessions(ctx context.Context, accountID int64, secretHashes []string, why string, at time.Time) (int, error) {
	ended := 0
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		for _, hash := range secretHashes {
			res, err := tx.ExecContext(ctx, s.q(`UPDATE sessions SET ended_ms = ?, ended_why = ? WHERE account_id = ? AND secret_hash = ? AND ended_ms IS NULL`),
				millis(at), why, accountID, hash)
			if err != nil {
				return err
			}
			n, _ := res.RowsAffected()
			ended += int(n)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("store: end sessions: %w", err)
	}
	return ended, nil
}

// CreateToken adds a token for an account's scripts and returns its id.
func (s *Store) CreateToken(ctx context.Context, email, secretHash string, at time.Time) (int64, error) {
	a, err := s.AccountByEmail(ctx, email)
	if err != nil {
		return 0, err
	}
	var id int64
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		id, err = s.insertID(ctx, tx, `INSERT INTO tokens (secret_hash, account_id, created_at) VALUES (?, ?, ?)`, secretHash, a.ID, at.UTC())
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: create token: %w", err)
	}
	return id, nil
}

// AccountByToken finds the account a token belongs to and records its use.
func (s *Store) AccountByToken(ctx context.Context, secretHash string, at time.Time) (Account, error) {
	var a Account
	err := s.read.QueryRowContext(ctx, s.q(`SELECT `+accountColumns+` FROM tokens t JOIN accounts a ON a.id = t.account_id WHERE t.secret_hash = ?`), secretHash).
		Scan(a.fields()...)
	if errors.Is(err, sql.ErrNoRows) {
		return a, ErrNoAccount
	}
	if err != nil {
		return a, fmt.Errorf("store: find token: %w", err)
	}
	if _, err := s.write.ExecContext(ctx, s.q(`UPDATE tokens SET used_at = ? WHERE secret_hash = ?`), at.UTC(), secretHash); err != nil {
		return a, fmt.Errorf("store: record token use: %w", err)
	}
	return a, nil
}

// Tokens lists every token (never its secret, which is not kept).
func (s *Store) Tokens(ctx context.Context) ([]Token, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT t.id, a.email, t.created_at, t.used_at FROM tokens t JOIN accounts a ON a.id = t.account_id ORDER BY t.id`)
	if err != nil {
		return nil, fmt.Errorf("store: list tokens: %w", err)
	}
	defer rows.Close()
	var list []Token
	for rows.Next() {
		var t Token
		var used sql.NullTime
		if err := rows.Scan(&t.ID, &t.Email, &t.CreatedAt, &used); err != nil {
			return nil, fmt.Errorf("store: list tokens: %w", err)
		}
		t.CreatedAt = t.CreatedAt.UTC()
		if used.Valid {
			u := used.Time.UTC()
			t.UsedAt = &u
		}
		list = append(list, t)
	}
	return list, rows.Err()
}

// RevokeToken deletes a token; ErrNoToken when there is none by that id.
func (s *Store) RevokeToken(ctx context.Context, id int64) error {
	res, err := s.write.ExecContext(ctx, s.q(`DELETE FROM tokens WHERE id = ?`), id)
	if err != nil {
		return fmt.Errorf("store: revoke token: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNoToken
	}
	return nil
}
