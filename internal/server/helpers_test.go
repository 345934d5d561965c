package server

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"

	"studio/internal/store"
	"studio/internal/store/storetest"
)

// eachDatabase runs test on a fresh SQLite database and on a fresh
// PostgreSQL schema (skipped without STUDIO_TEST_DATABASE_URL, except
// under CI=true).
func eachDatabase(t *testing.T, test func(t *testing.T, st *store.Store)) {
	t.Run("sqlite", func(t *testing.T) {
		st, err := store.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "studio.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		test(t, st)
	})
	t.Run("postgres", func(t *testing.T) {
		st, err := store.OpenPostgres(context.Background(), storetest.PostgresURL(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		test(t, st)
	})
}

// discardLog is a logger for tests that do not read the log.
func discardLog() *slog.Logger { return slog.New(slog.DiscardHandler) }
