// Package storetest gives tests a fresh PostgreSQL schema of their own on
// the database named by STUDIO_TEST_DATABASE_URL (.ci/run starts one), so
// that the tests of every package run against both databases.
package storetest

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
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
	base, admin := open(t)
	schema := newName()
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() { admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`) })
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	return base + sep + "search_path=" + schema
}

// PostgresDatabaseURL makes a database of its own on the test PostgreSQL
// server, dropped when the test ends, and returns the URL that opens it;
// skipped or failed as PostgresURL. It is for a test that no other test's
// transactions may touch: VACUUM keeps every row version that a
// transaction open anywhere in the database may still see, and the tests
// of a package run at once.
func PostgresDatabaseURL(t testing.TB) string {
	t.Helper()
	raw, admin := open(t)
	name := newName()
	if _, err := admin.Exec(`CREATE DATABASE ` + name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() { admin.Exec(`DROP DATABASE ` + name + ` WITH (FORCE)`) })
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("%s: %v", URLVar, err)
	}
	u.Path = "/" + name
	return u.String()
}

// open returns the test database's URL and a connection to it, closed
// when the test ends.
func open(t testing.TB) (string, *sql.DB) {
	t.Helper()
	base := os.Getenv(URLVar)
	if base == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: CI must run the PostgreSQL half of the tests (.ci/run starts one)", URLVar)
		}
		t.Skipf("PostgreSQL half skipped: set %s (e.g. postgres://postgres@127.0.0.1:5432/studio_test?sslmode=disable) to run it", URLVar)
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	return base, admin
}

// newName is a random name for a schema or a database.
func newName() string {
	b := make([]byte, 6)
	rand.Read(b)
	return "test_" + hex.EncodeToString(b)
}
