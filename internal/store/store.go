// Package store keeps the studio's enquiries, newsletter subscribers and
// pending e-mails: in SQLite under DATA_DIR by default, in PostgreSQL when
// DATABASE_URL is set. Both run the same SQL, apart from the placeholders
// and the few migration lines where the two dialects differ.
package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"
	_ "modernc.org/sqlite"             // registers "sqlite", pure Go

	"studio/internal/datadir"
)

// Dialect names the database behind a Store.
type Dialect string

const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// querier is a database or a transaction: what a read needs of either, so
// that one method serves on its own and inside a write.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Store is the database. It is safe for concurrent use.
type Store struct {
	dialect Dialect
	// write takes every writing transaction. For SQLite it is one
	// connection, so writers queue in Go instead of spinning on SQLite's
	// lock; read is a pool of readers, which WAL lets run beside the writer.
	// For PostgreSQL both are the same pool.
	write  *sql.DB
	read   *sql.DB
	batch  *batcher      // SQLite: enquiries are committed in groups (batch.go)
	events *eventBatcher // SQLite: and so are analytics events (event_batch.go)
	// snapshotWait is how long an erasure waits for the snapshots older
	// than it to end before PostgreSQL's files are rewritten (erase.go);
	// zero: a minute.
	snapshotWait time.Duration
}

// Open opens PostgreSQL when databaseURL is set and the SQLite file
// studio.db in dataDir otherwise, and applies the migrations.
func Open(ctx context.Context, databaseURL, dataDir string) (*Store, error) {
	if databaseURL != "" {
		return OpenPostgres(ctx, databaseURL)
	}
	return OpenSQLite(ctx, datadir.Dir(dataDir).Database())
}

// OpenSQLite opens (creating it if needed) the SQLite database at path.
// WAL, synchronous=FULL and BEGIN IMMEDIATE make every committed write
// durable before the caller hears of it; the busy timeout covers another
// process holding the lock for a moment. secure_delete makes SQLite
// overwrite with zeros what a delete or an update frees, so a deleted
// enquiry does not stay readable in the file's free space (ErasePerson
// goes further: overwrite).
func OpenSQLite(ctx context.Context, path string) (*Store, error) {
	q := url.Values{}
	for _, p := range []string{"journal_mode(WAL)", "synchronous(FULL)", "busy_timeout(10000)", "foreign_keys(ON)", "secure_delete(ON)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	dsn := "file:" + path + "?" + q.Encode()
	write, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open sqlite %s: %w", path, err)
	}
	write.SetMaxOpenConns(1)
	write.SetConnMaxIdleTime(0)
	read, err := sql.Open("sqlite", dsn)
	if err != nil {
		write.Close()
		return nil, fmt.Errorf("store: open sqlite %s: %w", path, err)
	}
	read.SetMaxOpenConns(4)
	s := &Store{dialect: SQLite, write: write, read: read}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	s.batch = newBatcher(s)
	s.events = newEventBatcher(s)
	return s, nil
}

// OpenPostgres connects to the PostgreSQL database at databaseURL.
func OpenPostgres(ctx context.Context, databaseURL string) (*Store, error) {
	db, err := sql.Open("pgx", databaseURL)
	if err != nil {
		return nil, fmt.Errorf("store: open postgres: %w", err)
	}
	db.SetMaxOpenConns(20)
	db.SetMaxIdleConns(20)
	db.SetConnMaxLifetime(30 * time.Minute)
	s := &Store{dialect: Postgres, write: db, read: db}
	if err := s.Ping(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Dialect says which database this is.
func (s *Store) Dialect() Dialect { return s.dialect }

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.read.PingContext(ctx); err != nil {
		return fmt.Errorf("store: ping %s: %w", s.dialect, err)
	}
	return nil
}

// Close closes the database.
func (s *Store) Close() error {
	if s.batch != nil {
		s.batch.close()
	}
	if s.events != nil {
		s.events.close()
	}
	err := s.write.Close()
	if s.read != s.write {
		if rerr := s.read.Close(); err == nil {
			err = rerr
		}
	}
	return err
}

// q rewrites a query written with ? placeholders for the dialect:
// PostgreSQL numbers them ($1, $2, ...). A ? inside a quoted literal is
// text, not a placeholder, and stays.
func (s *Store) q(query string) string {
	if s.dialect != Postgres {
		return query
	}
	var b strings.Builder
	n, quoted := 0, false
	for _, r := range query {
		if r == '\'' {
			quoted = !quoted // a doubled '' inside a literal toggles twice
		}
		if r == '?' && !quoted {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// inTx runs fn in a writing transaction and commits it.
func (s *Store) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// insertID inserts a row and returns its id.
func (s *Store) insertID(ctx context.Context, tx *sql.Tx, query string, args ...any) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, s.q(query+" RETURNING id"), args...).Scan(&id)
	return id, err
}

func millis(t time.Time) int64 { return t.UnixMilli() }
