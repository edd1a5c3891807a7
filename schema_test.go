package main

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// privateSchema creates a schema of its own on the test server and returns a
// URL that uses it; the schema is dropped when the test ends.
func privateSchema(tb testing.TB, base string) string {
	tb.Helper()
	db, err := sql.Open("pgx", base)
	if err != nil {
		tb.Fatal(err)
	}
	schema := fmt.Sprintf("tttbot_main_%d", rand.Uint64())
	if _, err := db.Exec("CREATE SCHEMA " + schema); err != nil {
		db.Close()
		tb.Fatalf("TEST_DATABASE_URL: %v", err)
	}
	tb.Cleanup(func() {
		db.Exec("DROP SCHEMA " + schema + " CASCADE")
		db.Close()
	})
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	return base + sep + "search_path=" + schema
}
