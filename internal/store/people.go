package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// The studio's people as the workspace manages them (issue 29): an owner
// invites an account by e-mail, changes its role or removes it, and anyone
// may ask for a password reset. The mails' links are signed, not stored
// (package accountlink): the outbox row names the account (ref_id) and
// its queue time starts the link's validity.

// ErrLastOwner refuses a change that would leave no owner: nobody could
// manage the accounts any more.
var ErrLastOwner = errors.New("store: the last owner cannot be removed or made staff")

// InviteAccount is InviteAccountBy with no inviter named.
func (s *Store) InviteAccount(ctx context.Context, email, name, role, unusableHash string, at time.Time) (Account, error) {
	return s.InviteAccountBy(ctx, "", email, name, role, unusableHash, at)
}

// InviteAccountBy creates an account with its name and role and a password
// nobody can sign in with (the caller's unusable hash), and queues its
// invitation, which names invitedBy, in the same transaction.
func (s *Store) InviteAccountBy(ctx context.Context, invitedBy, email, name, role, unusableHash string, at time.Time) (Account, error) {
	var id int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM accounts WHERE email = ?`), AccountKey(email)).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return ErrAccountExists
		}
		var err error
		id, err = s.insertID(ctx, tx, `INSERT INTO accounts (email, name, role, password, created_at, invited_by) VALUES (?, ?, ?, ?, ?, ?)`,
			AccountKey(email), name, role, unusableHash, at.UTC(), invitedBy)
		if err != nil {
			return err
		}
		return s.queueMail(ctx, tx, RecipientInvite, 0, &id, at)
	})
	if errors.Is(err, ErrAccountExists) {
		return Account{}, err
	}
	if err != nil {
		return Account{}, fmt.Errorf("store: invite account: %w", err)
	}
	return s.AccountByID(ctx, id)
}

// QueueAccountMail queues an invitation again (RecipientInvite) or a
// password reset (RecipientReset) for an account.
func (s *Store) QueueAccountMail(ctx context.Context, recipient string, accountID int64, at time.Time) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error { return s.queueMail(ctx, tx, recipient, 0, &accountID, at) })
	if err != nil {
		return fmt.Errorf("store: queue %s mail: %w", recipient, err)
	}
	return nil
}

// Reinvite queues a new invitation for an invited account, from
// invitedBy, and gives it a new unusable password hash in place of
// oldHash: the links mailed before, signed over the old one, stop working
// (package accountlink). ErrNoAccount when the account is gone or its
// password changed meanwhile.
func (s *Store) Reinvite(ctx context.Context, id int64, oldHash, newUnusableHash, invitedBy string, at time.Time) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.q(`UPDATE accounts SET password = ?, invited_by = ? WHERE id = ? AND password = ?`), newUnusableHash, invitedBy, id, oldHash)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNoAccount
		}
		return s.queueMail(ctx, tx, RecipientInvite, 0, &id, at)
	})
	if err != nil && !errors.Is(err, ErrNoAccount) {
		return fmt.Errorf("store: queue invite mail: %w", err)
	}
	return err
}

// RecentAccountMails counts the mails of a kind queued for an account
// since since: the limit on resets asked for one address.
func (s *Store) RecentAccountMails(ctx context.Context, recipient string, accountID int64, since time.Time) (int, error) {
	var n int
	err := s.read.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM mail_outbox WHERE recipient = ? AND ref_id = ? AND queued_ms >= ?`),
		recipient, accountID, millis(since)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: count %s mails: %w", recipient, err)
	}
	return n, nil
}

// AccountByID finds an account by its id.
func (s *Store) AccountByID(ctx context.Context, id int64) (Account, error) {
	return s.accountWhere(ctx, `a.id = ?`, id)
}

// lockOwners counts the owners other than id, holding them (on
// PostgreSQL) until the transaction ends, so that two owners demoting or
// removing each other at once cannot leave none.
func (s *Store) lockOwners(ctx context.Context, tx *sql.Tx, id int64) (int, error) {
	lock := ""
	if s.dialect == Postgres {
		lock = " FOR UPDATE"
	}
	rows, err := tx.QueryContext(ctx, s.q(`SELECT id FROM accounts WHERE role = ?`+lock), RoleOwner)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	others := 0
	for rows.Next() {
		var owner int64
		if err := rows.Scan(&owner); err != nil {
			return 0, err
		}
		if owner != id {
			others++
		}
	}
	return others, rows.Err()
}

// SetName changes the name an account's replies are signed with.
func (s *Store) SetName(ctx context.Context, id int64, name string) error {
	res, err := s.write.ExecContext(ctx, s.q(`UPDATE accounts SET name = ? WHERE id = ?`), name, id)
	if err != nil {
		return fmt.Errorf("store: set name: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNoAccount
	}
	return nil
}

// SetRole makes an account an owner or staff; ErrLastOwner when it is
// the last owner being made staff.
func (s *Store) SetRole(ctx context.Context, id int64, role string) error {
	if role != RoleOwner && role != RoleStaff {
		return fmt.Errorf("store: no role %q", role)
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		others, err := s.lockOwners(ctx, tx, id)
		if err != nil {
			return fmt.Errorf("store: set role: %w", err)
		}
		if role != RoleOwner && others == 0 {
			return ErrLastOwner
		}
		res, err := tx.ExecContext(ctx, s.q(`UPDATE accounts SET role = ? WHERE id = ?`), role, id)
		if err != nil {
			return fmt.Errorf("store: set role: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNoAccount
		}
		return nil
	})
}

// DeleteAccount removes an account with its sessions and tokens (the
// Accounts page), but never the last owner (ErrLastOwner).
func (s *Store) DeleteAccount(ctx context.Context, id int64) error {
	return s.inTx(ctx, func(tx *sql.Tx) error { return s.deleteUnlessLastOwner(ctx, tx, id) })
}

// deleteUnlessLastOwner deletes account id, in tx, unless it is the last
// owner (ErrLastOwner); ErrNoAccount when there is no such account.
func (s *Store) deleteUnlessLastOwner(ctx context.Context, tx *sql.Tx, id int64) error {
	var role string
	err := tx.QueryRowContext(ctx, s.q(`SELECT role FROM accounts WHERE id = ?`), id).Scan(&role)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNoAccount
	}
	others := 0
	if err == nil {
		others, err = s.lockOwners(ctx, tx, id)
	}
	if err != nil {
		return fmt.Errorf("store: remove account: %w", err)
	}
	if role == RoleOwner && others == 0 {
		return ErrLastOwner
	}
	return s.deleteAccount(ctx, tx, id)
}

// deleteAccount deletes an account with its sessions and tokens, in tx.
func (s *Store) deleteAccount(ctx context.Context, tx *sql.Tx, id int64) error {
	for _, stmt := range []string{`DELETE FROM sessions WHERE account_id = ?`, `DELETE FROM tokens WHERE account_id = ?`, `DELETE FROM accounts WHERE id = ?`} {
		if _, err := tx.ExecContext(ctx, s.q(stmt), id); err != nil {
			return fmt.Errorf("store: remove account: %w", err)
		}
	}
	return nil
}

// SessionInfo is one of an account's sessions as its holder sees it.
type SessionInfo struct {
	SecretHash string // to tell the browser asking
	Created    time.Time
	Seen       time.Time
	UserAgent  string // the browser's, as of its latest use
	Network    string // the network of its latest use: an address prefix ("203.0.113.0/24"), or ""
}

// AccountSessions lists an account's sessions not ended, the latest seen
// first.
func (s *Store) AccountSessions(ctx context.Context, accountID int64) ([]SessionInfo, error) {
	rows, err := s.read.QueryContext(ctx, s.q(`SELECT secret_hash, created_ms, seen_ms, user_agent, network FROM sessions
		WHERE account_id = ? AND ended_ms IS NULL ORDER BY seen_ms DESC`), accountID)
	if err != nil {
		return nil, fmt.Errorf("store: list sessions: %w", err)
	}
	defer rows.Close()
	var list []SessionInfo
	for rows.Next() {
		var (
			si            SessionInfo
			created, seen int64
		)
		if err := rows.Scan(&si.SecretHash, &created, &seen, &si.UserAgent, &si.Network); err != nil {
			return nil, fmt.Errorf("store: list sessions: %w", err)
		}
		si.Created, si.Seen = time.UnixMilli(created).UTC(), time.UnixMilli(seen).UTC()
		list = append(list, si)
	}
	return list, rows.Err()
}

// ReplacePassword sets an account's password only if its hash is still
// oldHash (what a mailed link was signed over), and ends its sessions:
// of two uses of one link at once, one wins. ErrNoAccount when the
// account is gone or its password changed meanwhile.
func (s *Store) ReplacePassword(ctx context.Context, id int64, oldHash, newHash string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.q(`UPDATE accounts SET password = ? WHERE id = ? AND password = ?`), newHash, id, oldHash)
		if err != nil {
			return fmt.Errorf("store: replace password: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNoAccount
		}
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM sessions WHERE account_id = ?`), id); err != nil {
			return fmt.Errorf("store: replace password: %w", err)
		}
		return nil
	})
}
