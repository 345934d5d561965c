package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"studio/internal/backup"
	"studio/internal/config"
)

// backupCommand runs `studio backup PATH` or `studio restore PATH`.
func backupCommand(args []string, out io.Writer) error {
	cfg, err := config.FromEnv(os.LookupEnv)
	if err != nil {
		return err
	}
	database := backup.SQLite
	if cfg.DatabaseURL != "" {
		database = backup.PostgreSQL
	}
	ctx := context.Background()
	path := args[1]
	start := time.Now()
	if args[0] == "backup" {
		m, err := backup.Write(ctx, cfg.DataDir, path, database)
		if err != nil {
			return err
		}
		took := time.Since(start).Round(time.Millisecond)
		if database == backup.SQLite {
			fmt.Fprintf(out, "backup: %s: %d enquiries, %d commits of the content (branches %s), %d bytes, in %s\n",
				path, m.Enquiries, m.Commits, m.Branches(), m.Bytes(), took)
			return nil
		}
		fmt.Fprintf(out, "backup: %s: %d commits of the content (branches %s), %d bytes, in %s\n", path, m.Commits, m.Branches(), m.Bytes(), took)
		fmt.Fprintln(out, `backup: the database is PostgreSQL (DATABASE_URL) and is not in this backup: back it up with pg_dump (see docs/backups.md)`)
		return nil
	}
	r, err := backup.Restore(ctx, cfg.DataDir, path, database)
	took := time.Since(start).Round(time.Millisecond)
	if err != nil {
		printReplaced(out, r.Replaced) // a restore cut short after it began to switch
		return err
	}
	switch {
	case r.DatabaseOnly:
		fmt.Fprintf(out, "restore: %s is now the database in %s: %d enquiries, in %s\n", path, cfg.AbsDataDir(), r.Manifest.Enquiries, took)
	case database == backup.SQLite:
		fmt.Fprintf(out, "restore: %s is now the database and the content in %s: %d enquiries, %d commits of the content (branches %s), in %s\n",
			path, cfg.AbsDataDir(), r.Manifest.Enquiries, r.Manifest.Commits, r.Manifest.Branches(), took)
	default:
		fmt.Fprintf(out, "restore: %s is now the content in %s: %d commits (branches %s), in %s\n",
			path, cfg.AbsDataDir(), r.Manifest.Commits, r.Manifest.Branches(), took)
	}
	printReplaced(out, r.Replaced)
	switch {
	case r.DatabaseOnly:
		fmt.Fprintln(out, "restore: this backup holds the database only (backups before they held the content): the content and releases in DATA_DIR are left as they are")
	case database == backup.PostgreSQL:
		fmt.Fprintln(out, `restore: the database is PostgreSQL (DATABASE_URL): restore it with pg_restore (see docs/backups.md)`)
		fmt.Fprintln(out, "restore: the first start takes main and the live release from the database; a restored main the database lacks is kept as a branch, unshared-…")
	default:
		fmt.Fprintln(out, "restore: the first start builds the restored main and makes it live")
	}
	return nil
}

// printReplaced says where what a restore replaced was kept.
func printReplaced(out io.Writer, replaced []string) {
	for _, kept := range replaced {
		fmt.Fprintf(out, "restore: what it replaced is kept as %s; delete it once the site is checked\n", kept)
	}
}
