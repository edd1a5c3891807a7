package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
)

//go:embed migrations
var migrations embed.FS

// ErrSchemaTooNew means the database was migrated by a newer tttbot than
// this one; running would risk corrupting it, so the store refuses.
var ErrSchemaTooNew = errors.New("database schema is newer than this tttbot")

// migration is one numbered SQL file.
type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations reads the dialect's migrations in version order. Files are
// named NNNN_description.sql.
func loadMigrations(dir string) ([]migration, error) {
	entries, err := fs.ReadDir(migrations, dir)
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
		body, err := fs.ReadFile(migrations, path.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: e.Name(), sql: string(body)})
	}
	slices.SortFunc(out, func(a, b migration) int { return a.version - b.version })
	// Numbers are reserved per stream of work (0002 store, 0003 competitive,
	// 0004 clocks), so one may land before a lower one: gaps are allowed,
	// duplicates are not, and migrate applies whatever is missing.
	for i := 1; i < len(out); i++ {
		if out[i].version == out[i-1].version {
			return nil, fmt.Errorf("migration %s: version %d is used twice", out[i].name, out[i].version)
		}
	}
	return out, nil
}

// migrate brings the schema up to the newest embedded version, in one
// transaction (serialised across processes on PostgreSQL), and refuses a
// database whose schema is newer than this binary knows.
func migrate(ctx context.Context, db *sql.DB, d dialect) (int, error) {
	ms, err := loadMigrations(d.dir)
	if err != nil {
		return 0, err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	if d.lock != "" {
		if _, err := tx.ExecContext(ctx, d.lock); err != nil {
			return 0, fmt.Errorf("migrate: lock: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)`); err != nil {
		return 0, fmt.Errorf("migrate: %w", err)
	}
	applied, err := appliedVersions(ctx, tx)
	if err != nil {
		return 0, err
	}
	for v := range applied {
		if !slices.ContainsFunc(ms, func(m migration) bool { return m.version == v }) {
			return 0, fmt.Errorf("%w: the database has migration %d, which this binary does not know; run a newer tttbot (or restore a backup)", ErrSchemaTooNew, v)
		}
	}
	for _, m := range ms {
		if applied[m.version] {
			continue
		}
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return 0, fmt.Errorf("migrate %s: %w", m.name, err)
		}
		if _, err := tx.ExecContext(ctx, d.q(`INSERT INTO schema_migrations (version, name) VALUES (?, ?)`), m.version, m.name); err != nil {
			return 0, fmt.Errorf("migrate %s: %w", m.name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("migrate: commit: %w", err)
	}
	return len(ms), nil
}

// appliedVersions reads which migrations the database has.
func appliedVersions(ctx context.Context, tx *sql.Tx) (map[int]bool, error) {
	rows, err := tx.QueryContext(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	defer rows.Close()
	applied := map[int]bool{}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("migrate: %w", err)
		}
		applied[v] = true
	}
	return applied, rows.Err()
}
