package storetest

import (
	"bytes"
	"database/sql"
	"fmt"
	"os/exec"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// ReleasedSchema is one set of migrations that the main line has held: a
// schema some bot may have left a store at.
type ReleasedSchema struct {
	Commit     string      // the first commit on the main line that had it
	Migrations []Migration // in version order
}

// Migration is one migration file as the main line held it.
type Migration struct {
	Version int
	Name    string // its file name, as schema_migrations records it
	SQL     string
}

// Name names the schema by its versions, e.g. "0001-0003" for a store that
// had 1 and 3 but not yet 2 (migrations land in any order): the file name
// of its fixture.
func (r ReleasedSchema) Name() string {
	vs := make([]string, len(r.Migrations))
	for i, m := range r.Migrations {
		vs[i] = fmt.Sprintf("%04d", m.Version)
	}
	return strings.Join(vs, "-")
}

// RowsVersion is the schema testdata/v5's rows were written at. A fixture
// applies its migrations up to it, then the rows, then the rest: as a store
// that held those rows was upgraded, so that a migration filling a new
// column from the rows already there (0011's open_game) fills it.
const RowsVersion = 5

// Split returns r's migrations up to version v and those after it.
func (r ReleasedSchema) Split(v int) (upTo, after []Migration) {
	i := len(r.Migrations)
	for k, m := range r.Migrations {
		if m.Version > v {
			i = k
			break
		}
	}
	return r.Migrations[:i], r.Migrations[i:]
}

// ReleasedSchemas reads from git every set of migration files in dirs
// (each a directory, relative to the repository's root, where the store's
// migrations have lived) that commits on the first-parent line of HEAD
// have held, in the order they appeared. Fixture generators use it, so the
// fixtures are the schemas that were, not what a migration's file says
// today.
func ReleasedSchemas(tb testing.TB, dirs ...string) []ReleasedSchema {
	tb.Helper()
	root := strings.TrimSpace(git(tb, "", "rev-parse", "--show-toplevel"))
	commits := strings.Fields(git(tb, root, append([]string{"rev-list", "--first-parent", "--reverse", "HEAD", "--"}, dirs...)...))
	var out []ReleasedSchema
	seen := map[string]bool{}
	for _, c := range commits {
		var r ReleasedSchema
		for _, line := range strings.Split(strings.TrimSpace(git(tb, root, append([]string{"ls-tree", "-r", c, "--"}, dirs...)...)), "\n") {
			// "<mode> blob <sha>\t<path>"
			meta, file, ok := strings.Cut(line, "\t")
			if !ok || !strings.HasSuffix(file, ".sql") {
				continue
			}
			name := path.Base(file)
			num, _, _ := strings.Cut(name, "_")
			v, err := strconv.Atoi(num)
			if err != nil {
				tb.Fatalf("migration %s at %s: no number", file, c)
			}
			fields := strings.Fields(meta)
			r.Migrations = append(r.Migrations, Migration{Version: v, Name: name, SQL: git(tb, root, "cat-file", "blob", fields[2])})
		}
		if len(r.Migrations) == 0 {
			continue
		}
		slices.SortFunc(r.Migrations, func(a, b Migration) int { return a.Version - b.Version })
		r.Commit = c
		if !seen[r.Name()] {
			seen[r.Name()] = true
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		tb.Fatalf("git history holds no migrations in %v", dirs)
	}
	return out
}

func git(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// Rows are every row of a database's tables, each row its cells as text,
// sorted, by table: what an upgrade must keep.
type Rows map[string][]string

// ReadColumns runs query, which lists a database's tables and their
// columns as (table, column) rows in the order of each table's columns,
// and returns the columns by table: the form ReadRows reads. The query is
// the store's own, in its dialect's catalogue.
func ReadColumns(tb testing.TB, db *sql.DB, query string) map[string][]string {
	tb.Helper()
	rows, err := db.Query(query)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var table, col string
		if err := rows.Scan(&table, &col); err != nil {
			tb.Fatal(err)
		}
		out[table] = append(out[table], col)
	}
	if err := rows.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// ReadRows reads the rows of each table in columns (table → the columns to
// read) with db; cell writes a column as a text expression in the
// database's dialect.
func ReadRows(tb testing.TB, db *sql.DB, columns map[string][]string, cell func(column string) string) Rows {
	tb.Helper()
	out := Rows{}
	for table, cols := range columns {
		EachRow(tb, db, table, cols, cell, func(cells []sql.NullString) {
			var line []string
			for i, c := range cells {
				v := "NULL"
				if c.Valid {
					v = strconv.Quote(c.String)
				}
				line = append(line, cols[i]+"="+v)
			}
			out[table] = append(out[table], strings.Join(line, " "))
		})
		slices.Sort(out[table])
	}
	return out
}

// EachRow reads cols of every row of table with db, ordered by the first,
// each column written as text by cell (ReadRows), and calls row with the
// row's cells: a NULL is a cell not Valid.
func EachRow(tb testing.TB, db *sql.DB, table string, cols []string, cell func(column string) string, row func(cells []sql.NullString)) {
	tb.Helper()
	exprs := make([]string, len(cols))
	for i, c := range cols {
		exprs[i] = cell(c)
	}
	rows, err := db.Query("SELECT " + strings.Join(exprs, ", ") + " FROM " + table + " ORDER BY 1")
	if err != nil {
		tb.Fatalf("rows of %s: %v", table, err)
	}
	defer rows.Close()
	for rows.Next() {
		cells := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range cells {
			ptrs[i] = &cells[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			tb.Fatal(err)
		}
		row(cells)
	}
	if err := rows.Err(); err != nil {
		tb.Fatalf("rows of %s: %v", table, err)
	}
}

// CheckKept fails for every row of want missing from got.
func CheckKept(tb testing.TB, want, got Rows) {
	tb.Helper()
	for table, rows := range want {
		for _, r := range rows {
			if !slices.Contains(got[table], r) {
				tb.Errorf("%s lost a row in the upgrade: %s", table, r)
			}
		}
	}
}

// SchemaDiff lists the lines of a schema (one a table, column, index or
// constraint) that only one side has: an upgraded store's and a new one's.
func SchemaDiff(upgraded, fresh []string) string {
	var b strings.Builder
	for _, l := range upgraded {
		if !slices.Contains(fresh, l) {
			fmt.Fprintf(&b, "- upgraded: %s\n", l)
		}
	}
	for _, l := range fresh {
		if !slices.Contains(upgraded, l) {
			fmt.Fprintf(&b, "+ new:      %s\n", l)
		}
	}
	return b.String()
}

// ParentsFirst orders a store's tables (by name) so that a table is filled
// before those that refer to it: channel_tables and results first, the
// rest by name.
func ParentsFirst(tables map[string][]string) []string {
	order := []string{"channel_tables", "results"}
	var rest []string
	for t := range tables {
		if !slices.Contains(order, t) {
			rest = append(rest, t)
		}
	}
	slices.Sort(rest)
	return append(order, rest...)
}
