package sqlread

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/tttbot/tttbot/store"
)

// Schema is a database's migrations and how to apply them.
type Schema struct {
	FS  fs.FS  // holds the migrations
	Dir string // their directory in FS
	// Lock is a statement that serialises migrations across processes
	// ("" when the database's own write lock does).
	Lock string
	// Q writes a query with ? placeholders as the database wants it.
	Q func(string) string
}

// migration is one numbered SQL file.
type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations reads the migrations in dir of fsys, in version order.
// Files are named NNNN_description.sql.
func loadMigrations(fsys fs.FS, dir string) ([]migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || !strings.HasSuffix(e.Name(), ".sql") {
			return nil, fmt.Errorf("migration %s: want NNNN_name.sql", e.Name())
		}
		body, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: e.Name(), sql: string(body)})
	}
	slices.SortFunc(out, func(a, b migration) int { return a.version - b.version })
	for i, m := range out {
		// Numbers may skip (each stream of work owns its number and they land
		// in any order), but never repeat.
		if m.version < 1 || i > 0 && m.version == out[i-1].version {
			return nil, fmt.Errorf("migration %s: versions must be distinct and from 1", m.name)
		}
	}
	return out, nil
}

// Versions returns the versions of sc's migrations, lowest first: the
// schemas this binary knows.
func (sc Schema) Versions() ([]int, error) {
	ms, err := loadMigrations(sc.FS, sc.Dir)
	if err != nil {
		return nil, err
	}
	vs := make([]int, len(ms))
	for i, m := range ms {
		vs[i] = m.version
	}
	return vs, nil
}

// Migrate brings the schema up to the newest version sc knows, in one
// transaction (serialised across processes by sc.Lock), and refuses a
// database whose schema is newer than that (store.ErrSchemaTooNew). It
// returns the newest version known.
func Migrate(ctx context.Context, db *sql.DB, sc Schema) (int, error) {
	ms, err := loadMigrations(sc.FS, sc.Dir)
	if err != nil {
		return 0, err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	if sc.Lock != "" {
		if _, err := tx.ExecContext(ctx, sc.Lock); err != nil {
			return 0, fmt.Errorf("migrate: lock: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)`); err != nil {
		return 0, fmt.Errorf("migrate: %w", err)
	}
	applied := map[int]bool{}
	rows, err := tx.QueryContext(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return 0, fmt.Errorf("migrate: %w", err)
	}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return 0, fmt.Errorf("migrate: %w", err)
		}
		applied[v] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("migrate: %w", err)
	}
	known := 0
	if len(ms) > 0 {
		known = ms[len(ms)-1].version
	}
	var unknown []int
	for v := range applied {
		if !slices.ContainsFunc(ms, func(m migration) bool { return m.version == v }) {
			unknown = append(unknown, v)
		}
	}
	if len(unknown) > 0 {
		// Nothing has been written: the transaction rolls back. The
		// message is what the operator reads when an older binary starts.
		slices.Sort(unknown)
		return 0, fmt.Errorf("%w: the database's schema is at version %d (migrations %v are unknown here), and this tttbot knows versions up to %d. "+
			"A newer tttbot has upgraded it; this one stops rather than run on a schema it does not know. "+
			"Run the newer version again, or, to go back to this one, restore a backup taken before the upgrade (tttbot restore)",
			store.ErrSchemaTooNew, slices.Max(slices.Collect(maps.Keys(applied))), unknown, known)
	}
	// Every known migration not applied yet, in order: one that landed after
	// a higher-numbered one (parallel streams) is still applied.
	for _, m := range ms {
		if applied[m.version] {
			continue
		}
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return 0, fmt.Errorf("migrate %s: %w", m.name, err)
		}
		if _, err := tx.ExecContext(ctx, sc.Q(`INSERT INTO schema_migrations (version, name) VALUES (?, ?)`), m.version, m.name); err != nil {
			return 0, fmt.Errorf("migrate %s: %w", m.name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("migrate: commit: %w", err)
	}
	return known, nil
}

// Dollars writes a query with ? placeholders as PostgreSQL wants it: $1,
// $2 and so on.
func Dollars(query string) string {
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
