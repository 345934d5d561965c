package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Migrations live in migrations/ as NNNN_what.sql, or as a
// NNNN_what.sqlite.sql / NNNN_what.postgres.sql pair where the dialects
// differ. They are applied in order, each in its own transaction, and
// recorded in schema_migrations.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

func (s *Store) migrations() ([]migration, error) {
	names, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	byVersion := map[int]migration{}
	for _, path := range names {
		name := strings.TrimPrefix(path, "migrations/")
		base := strings.TrimSuffix(name, ".sql")
		if d := strings.LastIndexByte(base, '.'); d >= 0 {
			if Dialect(base[d+1:]) != s.dialect {
				continue
			}
			base = base[:d]
		}
		num, _, _ := strings.Cut(base, "_")
		version, err := strconv.Atoi(num)
		if err != nil {
			return nil, fmt.Errorf("store: migration %s does not start with a number", name)
		}
		if _, dup := byVersion[version]; dup {
			return nil, fmt.Errorf("store: two migrations numbered %d for %s", version, s.dialect)
		}
		b, err := migrationFiles.ReadFile(path)
		if err != nil {
			return nil, err
		}
		byVersion[version] = migration{version: version, name: name, sql: string(b)}
	}
	list := make([]migration, 0, len(byVersion))
	for _, m := range byVersion {
		list = append(list, m)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].version < list[j].version })
	return list, nil
}

// migrate brings the schema up to date. On PostgreSQL an advisory lock
// makes copies of the server that start together take turns.
func (s *Store) migrate(ctx context.Context) error {
	list, err := s.migrations()
	if err != nil {
		return err
	}
	created := `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMP NOT NULL)`
	if _, err := s.write.ExecContext(ctx, created); err != nil {
		return fmt.Errorf("store: create schema_migrations: %w", err)
	}
	for _, m := range list {
		err := s.inTx(ctx, func(tx *sql.Tx) error {
			if s.dialect == Postgres {
				if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(4242001)`); err != nil {
					return err
				}
			}
			var n int
			if err := tx.QueryRowContext(ctx, s.q(`SELECT count(*) FROM schema_migrations WHERE version = ?`), m.version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, s.q(`INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`), m.version, time.Now().UTC())
			return err
		})
		if err != nil {
			return fmt.Errorf("store: migration %s: %w", m.name, err)
		}
	}
	return nil
}
