// Package storetest gives tests a fresh PostgreSQL schema of their own on
// the database named by STUDIO_TEST_DATABASE_URL (.ci/run starts one), so
// that the tests of every package run against both databases.
package storetest

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"
)

// URLVar names the PostgreSQL database the tests also run against.
const URLVar = "STUDIO_TEST_DATABASE_URL"

// PostgresURL makes a schema of its own on the test PostgreSQL database,
// dropped when the test ends, and returns the URL that opens it. Without a
// URL the test is skipped, unless CI=true, where that is a failure.
func PostgresURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv(URLVar)
	if url == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: CI must run the PostgreSQL half of the tests (.ci/run starts one)", URLVar)
		}
		t.Skipf("PostgreSQL half skipped: set %s (e.g. postgres://postgres@127.0.0.1:5432/studio_test?sslmode=disable) to run it", URLVar)
	}
	b := make([]byte, 6)
	rand.Read(b)
	schema := "test_" + hex.EncodeToString(b)
	admin, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() { admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`) })
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	return url + sep + "search_path=" + schema
}
