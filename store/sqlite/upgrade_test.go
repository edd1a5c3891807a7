package sqlite

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/store/storetest"
)

// migrationDirs are where SQLite's migrations have lived in the repository.
var migrationDirs = []string{"store/migrations/sqlite", "store/sqlite/migrations"}

// TestUpgradeFromEveryReleasedSchema opens a store left at each schema the
// main line has had (testdata/released: one file each, made by that
// schema's migrations as git holds them, with the rows such a store could
// hold) with this binary. Each must migrate to every migration this binary
// has, end with the very schema a new store gets, keep every row, and play
// on. A new migration is covered as it lands: the fixtures stay, and the
// newest schema is read from the migrations themselves.
func TestUpgradeFromEveryReleasedSchema(t *testing.T) {
	storetest.CheckUpgrades(t, storetest.Upgrade{
		Fixtures: "testdata/released/*.db",
		Write:    writeReleased,
		Versions: schema.Versions,
		New:      func(t *testing.T) *sql.DB { return openTest(t, nil).db },
		SchemaOf: schemaOf,
		Cell:     quoteSQLite,
		Open: func(t *testing.T, fixture string) storetest.Upgraded {
			path := filepath.Join(t.TempDir(), "tttbot.db")
			data, err := os.ReadFile(fixture)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			before, columns := readAll(t, path)
			s := mustOpen(t, path, options{})
			return storetest.Upgraded{Before: before, Columns: columns, Store: s, DB: s.db}
		},
	})
}

// schemaOf is the database's schema: every table, index and trigger as its
// SQL, whitespace folded.
func schemaOf(tb testing.TB, db *sql.DB) []string {
	tb.Helper()
	rows, err := db.Query(`SELECT type, name, COALESCE(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var kind, name, text string
		if err := rows.Scan(&kind, &name, &text); err != nil {
			tb.Fatal(err)
		}
		out = append(out, kind+" "+name+": "+strings.Join(strings.Fields(text), " "))
	}
	return out
}

// quoteSQLite writes a column as SQLite's literal of its value, so a blob,
// a number and a text compare exactly.
func quoteSQLite(column string) string { return "quote(" + column + ")" }

// tablesOf lists the tables of db and their columns, schema_migrations
// aside (an upgrade adds to it).
func tablesOf(tb testing.TB, db *sql.DB) map[string][]string {
	tb.Helper()
	return storetest.ReadColumns(tb, db, `SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> 'schema_migrations' ORDER BY m.name, p.cid`)
}

// readAll reads every row of the database file at path, untouched, and
// the columns it read.
func readAll(tb testing.TB, path string) (storetest.Rows, map[string][]string) {
	tb.Helper()
	db, err := sql.Open("sqlite", fileDSN(path, "_pragma=query_only(1)"))
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	cols := tablesOf(tb, db)
	return storetest.ReadRows(tb, db, cols, quoteSQLite), cols
}

// writeReleased writes testdata/released/SCHEMA.db for each schema in git's
// history of the migrations: that schema's migrations applied as they were
// then, testdata/v5.db's rows inserted once the schema they were written at
// is reached (storetest.RowsVersion), on the columns it has.
func writeReleased(t *testing.T) {
	src, err := sql.Open("sqlite", fileDSN("testdata/v5.db", "_pragma=query_only(1)"))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	source := tablesOf(t, src)
	os.RemoveAll("testdata/released")
	if err := os.MkdirAll("testdata/released", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, r := range storetest.ReleasedSchemas(t, migrationDirs...) {
		path := filepath.Join("testdata/released", r.Name()+".db")
		db, err := sql.Open("sqlite", fileDSN(path, "_pragma=foreign_keys(1)", "_pragma=journal_mode(DELETE)"))
		if err != nil {
			t.Fatal(err)
		}
		db.SetMaxOpenConns(1)
		mustExec(t, db, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)`)
		migrate := func(ms []storetest.Migration) {
			for _, m := range ms {
				mustExec(t, db, m.SQL)
				mustExec(t, db, `INSERT INTO schema_migrations (version, name) VALUES (?, ?)`, m.Version, m.Name)
			}
		}
		upTo, after := r.Split(storetest.RowsVersion)
		migrate(upTo)
		have := tablesOf(t, db)
		for _, table := range storetest.ParentsFirst(source) {
			cols := slices.DeleteFunc(slices.Clone(source[table]), func(c string) bool { return !slices.Contains(have[table], c) })
			if len(cols) == 0 {
				continue
			}
			list := strings.Join(cols, ", ")
			mustExec(t, db, `ATTACH DATABASE 'file:testdata/v5.db?mode=ro' AS v5`)
			mustExec(t, db, "INSERT INTO "+table+" ("+list+") SELECT "+list+" FROM v5."+table)
			mustExec(t, db, `DETACH DATABASE v5`)
		}
		migrate(after)
		mustExec(t, db, `VACUUM`)
		db.Close()
		t.Logf("wrote %s (from %s)", path, r.Commit[:12])
	}
}

func mustExec(tb testing.TB, db *sql.DB, query string, args ...any) {
	tb.Helper()
	if _, err := db.ExecContext(context.Background(), query, args...); err != nil {
		tb.Fatalf("%s: %v", query, err)
	}
}
