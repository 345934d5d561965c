package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"studio/internal/config"
	"studio/internal/store"
)

const usage = `usage: studio                       serve the site (settings from the environment; see the README)
       studio backup FILE           write a consistent copy of the SQLite database in DATA_DIR to FILE, while the site runs
       studio restore FILE          put the copy in FILE back in DATA_DIR (the server must be stopped)
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

// backupCommand runs `studio backup FILE` or `studio restore FILE`.
func backupCommand(args []string, out io.Writer) error {
	cfg, err := config.FromEnv(os.LookupEnv)
	if err != nil {
		return err
	}
	if cfg.DatabaseURL != "" {
		return fmt.Errorf("%s: DATABASE_URL is set: back up PostgreSQL with pg_dump and restore with pg_restore (see the README, \"Backups\")", args[0])
	}
	ctx := context.Background()
	file := args[1]
	if args[0] == "backup" {
		stats, err := store.Backup(ctx, cfg.DataDir, file)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "backup: %s: %d enquiries, %d bytes, in %s\n", file, stats.Enquiries, stats.Bytes, stats.Took.Round(1e6))
		return nil
	}
	stats, err := store.Restore(ctx, cfg.DataDir, file)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "restore: %s is now the database in %s: %d enquiries, %d bytes, in %s\n",
		file, cfg.AbsDataDir(), stats.Enquiries, stats.Bytes, stats.Took.Round(1e6))
	if stats.Replaced != "" {
		fmt.Fprintf(out, "restore: the database it replaced is kept as %s (with its -wal and -shm, if any); delete it once the site is checked\n", stats.Replaced)
	}
	return nil
}
