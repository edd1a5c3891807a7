package postgres

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/store/storetest"
)

// migrationDirs are where PostgreSQL's migrations have lived in the
// repository.
var migrationDirs = []string{"store/migrations/postgres", "store/postgres/migrations"}

// TestUpgradeFromEveryReleasedSchema loads, in a schema of its own, a store
// left at each schema the main line has had (testdata/released: that
// schema's migrations as git holds them, and the rows such a store could
// hold, as SQL) and opens it with this binary. Each must migrate to every
// migration this binary has, end with the very schema a new store gets,
// keep every row, and play on. A new migration is covered as it lands.
func TestUpgradeFromEveryReleasedSchema(t *testing.T) {
	storetest.CheckUpgrades(t, storetest.Upgrade{
		Fixtures: "testdata/released/*.sql",
		Write:    writeReleased,
		Versions: schema.Versions,
		New:      func(t *testing.T) *sql.DB { return openTest(t, nil).db },
		SchemaOf: schemaOf,
		Cell:     textPG,
		Open: func(t *testing.T, fixture string) storetest.Upgraded {
			script, err := os.ReadFile(fixture)
			if err != nil {
				t.Fatal(err)
			}
			url := utcURL(storetest.PostgresURL(t))
			db := mustSQL(t, url)
			if _, err := db.Exec(string(script)); err != nil {
				t.Fatal(err)
			}
			columns := tablesOf(t, db)
			before := storetest.ReadRows(t, db, columns, textPG)
			return storetest.Upgraded{Before: before, Columns: columns, Store: mustOpen(t, url, nil), DB: db}
		},
	})
}

// utcURL asks the server to write times in UTC, so rows read as text
// compare whatever the server's own zone.
func utcURL(url string) string {
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	return url + sep + "timezone=UTC"
}

func mustSQL(tb testing.TB, url string) *sql.DB {
	tb.Helper()
	db, err := sql.Open("pgx", url)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// textPG writes a column as its text.
func textPG(column string) string { return column + "::text" }

// schemaOf is the current schema's shape: columns with their types,
// nullability and defaults; indexes; constraints. Names of the schema
// itself are left out, so two schemas compare.
func schemaOf(tb testing.TB, db *sql.DB) []string {
	tb.Helper()
	var out []string
	for _, q := range []string{
		`SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' null=' || is_nullable || ' default=' || COALESCE(column_default, '')
			FROM information_schema.columns WHERE table_schema = current_schema()`,
		`SELECT 'index ' || indexname || ': ' || replace(indexdef, schemaname || '.', '') FROM pg_indexes WHERE schemaname = current_schema()`,
		`SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ': ' || pg_get_constraintdef(oid)
			FROM pg_constraint WHERE connamespace = current_schema()::regnamespace`,
	} {
		rows, err := db.Query(q)
		if err != nil {
			tb.Fatal(err)
		}
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				tb.Fatal(err)
			}
			out = append(out, line)
		}
		rows.Close()
	}
	slices.Sort(out)
	return out
}

// tablesOf lists the current schema's tables and their columns,
// schema_migrations aside (an upgrade adds to it).
func tablesOf(tb testing.TB, db *sql.DB) map[string][]string {
	tb.Helper()
	return storetest.ReadColumns(tb, db, `SELECT table_name, column_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name <> 'schema_migrations' ORDER BY table_name, ordinal_position`)
}

// writeReleased writes testdata/released/SCHEMA.sql for each schema in
// git's history of the migrations: that schema's migrations as they were
// then, with testdata/v5.sql's rows inserted once the schema they were
// written at is reached (storetest.RowsVersion), on the columns it has. It needs
// TEST_DATABASE_URL: the schemas are built on the server to learn their
// columns.
func writeReleased(t *testing.T) {
	dump, err := os.ReadFile("testdata/v5.sql")
	if err != nil {
		t.Fatal(err)
	}
	src := mustSQL(t, utcURL(storetest.PostgresURL(t)))
	if _, err := src.Exec(string(dump)); err != nil {
		t.Fatal(err)
	}
	source := tablesOf(t, src)
	os.RemoveAll("testdata/released")
	if err := os.MkdirAll("testdata/released", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, r := range storetest.ReleasedSchemas(t, migrationDirs...) {
		var b strings.Builder
		fmt.Fprintf(&b, "-- tttbot's PostgreSQL store at schema %s, as the main line had it at %s, holding\n", r.Name(), r.Commit[:12])
		fmt.Fprintf(&b, "-- testdata/v5.sql's rows on the columns it has. Written by TestUpgradeFromEveryReleasedSchema -update-released.\n\n")
		b.WriteString("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL);\n\n")
		migrate := func(ms []storetest.Migration) {
			for _, m := range ms {
				fmt.Fprintf(&b, "-- %s\n%s\n", m.Name, strings.TrimSpace(m.SQL))
				fmt.Fprintf(&b, "INSERT INTO schema_migrations (version, name) VALUES (%d, %s);\n\n", m.Version, literal(m.Name))
			}
		}
		upTo, after := r.Split(storetest.RowsVersion)
		migrate(upTo)
		scratch := mustSQL(t, utcURL(storetest.PostgresURL(t)))
		if _, err := scratch.Exec(b.String()); err != nil {
			t.Fatalf("schema %s: %v", r.Name(), err)
		}
		have := tablesOf(t, scratch)
		for _, table := range storetest.ParentsFirst(source) {
			cols := slices.DeleteFunc(slices.Clone(source[table]), func(c string) bool { return !slices.Contains(have[table], c) })
			if len(cols) == 0 {
				continue
			}
			storetest.EachRow(t, src, table, cols, textPG, func(cells []sql.NullString) {
				vals := make([]string, len(cells))
				for i, c := range cells {
					vals[i] = "NULL"
					if c.Valid {
						vals[i] = literal(c.String)
					}
				}
				fmt.Fprintf(&b, "INSERT INTO %s (%s) VALUES (%s);\n", table, strings.Join(cols, ", "), strings.Join(vals, ", "))
			})
		}
		b.WriteString("\n")
		migrate(after)
		b.WriteString("SELECT setval(pg_get_serial_sequence('results', 'id'), (SELECT COALESCE(MAX(id), 0) + 1 FROM results), false);\n")
		path := filepath.Join("testdata/released", r.Name()+".sql")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (from %s)", path, r.Commit[:12])
	}
}

// literal quotes s as an SQL string literal (standard_conforming_strings:
// a backslash is itself).
func literal(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
