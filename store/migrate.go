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
func loadMigrations(dir string) ([]migration, error) { return loadMigrationsFrom(migrations, dir) }

// loadMigrationsFrom reads the migrations in dir of fsys.
func loadMigrationsFrom(fsys fs.FS, dir string) ([]migration, error) {
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

// migrate brings the schema up to the newest embedded version, in one
// transaction (serialised across processes on PostgreSQL), and refuses a
// database whose schema is newer than this binary knows.
func migrate(ctx context.Context, db *sql.DB, d dialect) (int, error) {
	return migrateFrom(ctx, db, d, migrations)
}

// migrateFrom is migrate with the migrations read from fsys.
func migrateFrom(ctx context.Context, db *sql.DB, d dialect, fsys fs.FS) (int, error) {
	ms, err := loadMigrationsFrom(fsys, d.dir)
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
	for v := range applied {
		if !slices.ContainsFunc(ms, func(m migration) bool { return m.version == v }) {
			return 0, fmt.Errorf("%w: the database has migration %d, which this binary does not know (it knows up to %d); run a newer tttbot (or restore a backup)", ErrSchemaTooNew, v, known)
		}
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
		if _, err := tx.ExecContext(ctx, d.q(`INSERT INTO schema_migrations (version, name) VALUES (?, ?)`), m.version, m.name); err != nil {
			return 0, fmt.Errorf("migrate %s: %w", m.name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("migrate: commit: %w", err)
	}
	return known, nil
}
