package storetest

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the driver the stores use
)

// PostgresURL returns a URL for a fresh schema of its own on the test
// server, dropped when the test ends. Without TEST_DATABASE_URL it skips.
func PostgresURL(tb testing.TB) string {
	tb.Helper()
	base := os.Getenv("TEST_DATABASE_URL")
	if base == "" {
		tb.Skip("PostgreSQL tests skipped: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable); .ci/run sets it")
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		tb.Fatal(err)
	}
	schema := fmt.Sprintf("tttbot_test_%d", rand.Uint64())
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		admin.Close()
		tb.Fatalf("TEST_DATABASE_URL=%s: %v", base, err)
	}
	tb.Cleanup(func() {
		admin.Exec("DROP SCHEMA " + schema + " CASCADE")
		admin.Close()
	})
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	return base + sep + "search_path=" + schema
}
