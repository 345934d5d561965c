package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/mail"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"studio/internal/config"
	"studio/internal/store"
	"studio/internal/workspace/accounts"
)

// openStore checks a user or token command's arguments (list alone, the
// others with one) and opens the database the server uses (DATA_DIR or
// DATABASE_URL), beside a running server.
func openStore(ctx context.Context, args []string) (*store.Store, error) {
	if len(args) == 0 || (args[0] == "list") != (len(args) == 1) || len(args) > 2 {
		return nil, errors.New(usage)
	}
	cfg, err := config.FromEnv(os.LookupEnv)
	if err != nil {
		return nil, err
	}
	return store.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
}

// userCommand runs `studio user add [--staff]|password|unlock|remove EMAIL` and `studio user list`.
func userCommand(args []string, in io.Reader, out io.Writer) error {
	ctx := context.Background()
	// `user add` makes an owner; --staff makes staff (the inbox and the
	// content's drafts: see store.RoleStaff).
	role := store.RoleOwner
	if len(args) == 3 && args[0] == "add" && args[1] == "--staff" {
		role, args = store.RoleStaff, []string{"add", args[2]}
	}
	st, err := openStore(ctx, args)
	if err != nil {
		return err
	}
	defer st.Close()
	switch args[0] {
	case "list":
		accounts, err := st.Accounts(ctx)
		if err != nil {
			return err
		}
		for _, a := range accounts {
			state := ""
			if strings.HasPrefix(a.Password, "!") {
				state = "\tinvited, no password set yet"
			}
			fmt.Fprintf(out, "%s\t%s\tadded %s%s\n", a.Email, a.Role, a.CreatedAt.Format("2006-01-02 15:04 MST"), state)
		}
		if len(accounts) == 0 {
			fmt.Fprintln(out, "no accounts: the inbox at /studio is off until `studio user add EMAIL`")
		}
		return nil
	case "add":
		email := store.AccountKey(args[1])
		if addr, err := mail.ParseAddress(email); err != nil || addr.Address != email {
			return fmt.Errorf("user add: %q is not an e-mail address", args[1])
		}
		if _, err := st.AccountByEmail(ctx, email); err == nil {
			return fmt.Errorf("user add: %s has an account already; change its password with `studio user password %s`", email, email)
		}
		if role == store.RoleStaff {
			if n, err := st.HasAccounts(ctx); err != nil {
				return err
			} else if !n {
				return errors.New("user add: the first account must be an owner (without --staff): staff cannot manage accounts")
			}
		}
		hash, err := newPassword(in, out, email)
		if err != nil {
			return err
		}
		if err := st.CreateAccountAs(ctx, email, hash, role, time.Now()); err != nil {
			return err
		}
		fmt.Fprintf(out, "user add: %s can sign in at /studio, as %s\n", email, role)
		return nil
	case "password":
		email := store.AccountKey(args[1])
		if _, err := st.AccountByEmail(ctx, email); err != nil {
			return fmt.Errorf("user password: %w", noAccount(err, email))
		}
		hash, err := newPassword(in, out, email)
		if err != nil {
			return err
		}
		if err := st.SetPassword(ctx, email, hash); err != nil {
			return err
		}
		fmt.Fprintf(out, "user password: changed for %s; its sessions have ended\n", email)
		return nil
	case "unlock":
		email := store.AccountKey(args[1])
		if _, err := st.AccountByEmail(ctx, email); err != nil {
			return fmt.Errorf("user unlock: %w", noAccount(err, email))
		}
		n, err := st.UnlockAccount(ctx, email)
		if err != nil {
			return fmt.Errorf("user unlock: %w", err)
		}
		fmt.Fprintf(out, "user unlock: forgot %d failed sign-ins of %s, from every address; its next try waits for none of them\n", n, email)
		return nil
	case "remove":
		err := st.RemoveAccount(ctx, args[1])
		if errors.Is(err, store.ErrLastOwner) {
			return fmt.Errorf("user remove: %s is the only owner, and the other accounts are staff, who cannot manage accounts: make one of them an owner first (Accounts page), or remove them first", store.AccountKey(args[1]))
		}
		if err != nil {
			return fmt.Errorf("user remove: %w", noAccount(err, store.AccountKey(args[1])))
		}
		fmt.Fprintf(out, "user remove: %s removed, with its sessions and tokens; what it did stays in each enquiry's history\n", store.AccountKey(args[1]))
		return nil
	}
	return errors.New(usage)
}

// newPassword reads a password, asking twice (without echo) at a
// terminal or taking the first line of standard input otherwise, and
// hashes it.
func newPassword(in io.Reader, out io.Writer, email string) (string, error) {
	var password string
	if f, ok := in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintf(out, "Password for %s (at least %d characters): ", email, accounts.MinPasswordLength)
		first, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(out)
		if err != nil {
			return "", err
		}
		fmt.Fprint(out, "The same again: ")
		again, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(out)
		if err != nil {
			return "", err
		}
		if string(first) != string(again) {
			return "", errors.New("the two passwords differ; nothing was changed")
		}
		password = string(first)
	} else {
		line, err := bufio.NewReader(in).ReadString('\n')
		if err != nil && !(errors.Is(err, io.EOF) && line != "") {
			return "", errors.New("no password on standard input; nothing was changed")
		}
		password = strings.TrimRight(line, "\r\n")
	}
	if err := accounts.CheckPasswordRules(password); err != nil {
		return "", fmt.Errorf("%w; nothing was changed", err)
	}
	return accounts.HashPassword(password)
}

// tokenCommand runs `studio token create EMAIL`, `token list` and `token revoke ID`.
func tokenCommand(args []string, out io.Writer) error {
	ctx := context.Background()
	st, err := openStore(ctx, args)
	if err != nil {
		return err
	}
	defer st.Close()
	switch args[0] {
	case "create":
		secret := accounts.NewSecret()
		id, err := st.CreateToken(ctx, args[1], accounts.SecretHash(secret), time.Now())
		if err != nil {
			return fmt.Errorf("token create: %w", noAccount(err, store.AccountKey(args[1])))
		}
		fmt.Fprintf(out, "%s\n", secret)
		fmt.Fprintf(os.Stderr, "token create: token %d for %s, printed above and shown only now. Use it as\n  curl -H \"Authorization: Bearer $TOKEN\" https://…/studio/enquiries.csv\nRevoke it with `studio token revoke %d`.\n", id, store.AccountKey(args[1]), id)
		return nil
	case "list":
		tokens, err := st.Tokens(ctx)
		if err != nil {
			return err
		}
		for _, t := range tokens {
			used := "never used"
			if t.UsedAt != nil {
				used = "last used " + t.UsedAt.Format("2006-01-02 15:04 MST")
			}
			fmt.Fprintf(out, "%d\t%s\tmade %s\t%s\n", t.ID, t.Email, t.CreatedAt.Format("2006-01-02 15:04 MST"), used)
		}
		return nil
	case "revoke":
		id, err := strconv.ParseInt(args[1], 10, 64)
		if err != nil {
			return fmt.Errorf("token revoke: %q is not a token number (see `studio token list`)", args[1])
		}
		if err := st.RevokeToken(ctx, id); errors.Is(err, store.ErrNoToken) {
			return fmt.Errorf("token revoke: there is no token %d (see `studio token list`)", id)
		} else if err != nil {
			return fmt.Errorf("token revoke %d: %w", id, err)
		}
		fmt.Fprintf(out, "token revoke: token %d no longer opens anything\n", id)
		return nil
	}
	return errors.New(usage)
}

// noAccount says which e-mail has no account, and whom to ask.
func noAccount(err error, email string) error {
	if errors.Is(err, store.ErrNoAccount) {
		return fmt.Errorf("no account has the e-mail %s (see `studio user list`)", email)
	}
	return err
}

// bootstrapAccount makes STUDIO_PASSWORD an account "studio", as before
// accounts existed: created if missing, its password set if it differs.
func bootstrapAccount(ctx context.Context, st *store.Store, password string) error {
	a, err := st.AccountByEmail(ctx, "studio")
	switch {
	case errors.Is(err, store.ErrNoAccount):
		hash, err := accounts.HashPassword(password)
		if err == nil {
			err = st.CreateAccount(ctx, "studio", hash, time.Now())
		}
		return err
	case err != nil:
		return err
	case accounts.PasswordMatches(a.Password, password):
		return nil
	}
	hash, err := accounts.HashPassword(password)
	if err != nil {
		return err
	}
	return st.SetPassword(ctx, "studio", hash)
}
