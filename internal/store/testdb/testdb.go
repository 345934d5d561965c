// Package testdb opens stores for the tests of the packages above
// internal/store: a SQLite file in the test's directory, a PostgreSQL
// schema of the test's own (storetest), or each in turn. (The store's own
// tests cannot import it, as it imports the store.)
package testdb

import (
	"context"
	"path/filepath"
	"testing"

	"studio/internal/store"
	"studio/internal/store/storetest"
)

// SQLite opens a new SQLite store in the test's temporary directory,
// closed when the test ends.
func SQLite(t testing.TB) *store.Store {
	t.Helper()
	st, err := store.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "studio.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// Postgres opens a store on a fresh schema of the test PostgreSQL
// database, dropped when the test ends (skipped without one, outside CI).
func Postgres(t testing.TB) *store.Store {
	t.Helper()
	st, err := store.OpenPostgres(context.Background(), storetest.PostgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// Each runs test on a new SQLite store, then on a new PostgreSQL one, as
// the subtests "sqlite" and "postgres".
func Each(t *testing.T, test func(t *testing.T, st *store.Store)) {
	t.Run("sqlite", func(t *testing.T) { test(t, SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { test(t, Postgres(t)) })
}
