package main

import (
	"errors"
	"io"
)

// The commands of bin/studio besides serving, each in the file of its
// subject: backup.go, users.go (accounts and tokens), publishing.go.

const usage = `usage: studio                       serve the site (settings from the environment; see the README)
       studio backup PATH           write a consistent copy of DATA_DIR's database (SQLite) and content (every branch, commit and photograph)
                                    to the new directory PATH, while the site runs; with PostgreSQL the content only (the database is pg_dump's)
       studio restore PATH          put the backup in PATH back into DATA_DIR (the server must be stopped); the first start builds its main
       studio user add EMAIL        add an owner's account to the inbox (the password from standard input, or asked for)
       studio user add --staff EMAIL  add a staff account: the inbox and the content's drafts, no accounts, exports or publishing
       studio user password EMAIL   change an account's password (its sessions end)
       studio user unlock EMAIL     forget an account's failed sign-ins, from every address, so they slow no one's next try
       studio user remove EMAIL     remove an account (its sessions and tokens end)
       studio user list             list the accounts
       studio token create EMAIL    make a token for scripts that download the CSV exports, printed once
       studio token list            list the tokens
       studio token revoke ID       revoke a token
       studio publish [--wait]      have the running server build the content repository's main now (--wait: follow it until live)
       studio releases              list the releases: live, ready, building, failed with their problems, damaged with their files
       studio releases --verify     check every release's files against its list of them, naming each damaged file
       studio rollback ID           make an earlier ready release live again (no rebuild; a running server switches within a second)`

// command runs one of the commands in usage.
func command(args []string, in io.Reader, out io.Writer) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	switch args[0] {
	case "backup", "restore":
		if len(args) == 2 {
			return backupCommand(args, out)
		}
	case "user":
		return userCommand(args[1:], in, out)
	case "token":
		return tokenCommand(args[1:], out)
	case "publish", "releases", "rollback":
		return releasesCommand(args, out)
	}
	return errors.New(usage)
}
