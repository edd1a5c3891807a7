package storetest

import (
	"database/sql"
	"flag"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var updateReleased = flag.Bool("update-released", false, "rewrite each store's testdata/released from git's history of its migrations, filled with its testdata/v5's rows")

// Upgrade is what CheckUpgrades needs of one store to open its released
// fixtures (testdata/released: a store left at each schema the main line
// has had, with the rows such a store could hold).
type Upgrade struct {
	// Fixtures globs the fixture files, one a schema; each file's subtest
	// is named after it, less its extension.
	Fixtures string
	// Write writes the fixtures again, from git's history of the
	// migrations (ReleasedSchemas), when the test runs with
	// -update-released.
	Write func(t *testing.T)
	// Versions lists every migration this binary has.
	Versions func() ([]int, error)
	// New opens a new store and returns its database: the schema every
	// upgrade must end with. A function, so a store that skips (no
	// server) does so only once the fixtures are known to be there.
	New func(t *testing.T) *sql.DB
	// SchemaOf reads a database's schema, one line a table, column, index
	// or constraint, sorted, in a form that compares across databases.
	SchemaOf func(testing.TB, *sql.DB) []string
	// Cell writes a column as a text expression in the store's dialect
	// (ReadRows).
	Cell func(column string) string
	// Open loads fixture into a database of its own, reads its rows before
	// anything else touches them, and opens it with this binary's store.
	Open func(t *testing.T, fixture string) Upgraded
}

// Upgraded is a released fixture opened with this binary's store.
type Upgraded struct {
	Before  Rows                // the fixture's rows, read before the store opened it
	Columns map[string][]string // the columns Before holds, by table
	Store   Store
	DB      *sql.DB // the upgraded database, to read its migrations, schema and rows
}

// CheckUpgrades opens each released fixture with this binary's store. Each
// must migrate to every migration this binary has, end with the very
// schema a new store gets, keep every row (on the columns the fixture
// had), and play on (PlaysOnReleased).
func CheckUpgrades(t *testing.T, u Upgrade) {
	t.Helper()
	if *updateReleased {
		u.Write(t)
	}
	known, err := u.Versions()
	if err != nil {
		t.Fatal(err)
	}
	fixtures, err := filepath.Glob(u.Fixtures)
	if err != nil || len(fixtures) == 0 {
		t.Fatalf("no fixtures in %s (%v): run go test -run %s -update-released", filepath.Dir(u.Fixtures), err, t.Name())
	}
	want := u.SchemaOf(t, u.New(t))
	for _, fixture := range fixtures {
		name := filepath.Base(fixture)
		t.Run(strings.TrimSuffix(name, filepath.Ext(name)), func(t *testing.T) {
			up := u.Open(t, fixture)
			if got := appliedVersions(t, up.DB); !slices.Equal(got, known) {
				t.Errorf("migrations applied %v, want every one this binary has: %v", got, known)
			}
			if have := u.SchemaOf(t, up.DB); !slices.Equal(have, want) {
				t.Errorf("the upgraded schema differs from a new store's:\n%s", SchemaDiff(have, want))
			}
			CheckKept(t, up.Before, ReadRows(t, up.DB, up.Columns, u.Cell))
			PlaysOnReleased(t, up.Store)
		})
	}
}

// appliedVersions reads the migrations schema_migrations records, in order.
func appliedVersions(tb testing.TB, db *sql.DB) []int {
	tb.Helper()
	rows, err := db.Query(`SELECT version FROM schema_migrations ORDER BY version`)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	var got []int
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			tb.Fatal(err)
		}
		got = append(got, v)
	}
	if err := rows.Err(); err != nil {
		tb.Fatal(err)
	}
	return got
}
