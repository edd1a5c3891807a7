package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // pure-Go SQLite: no cgo, so the static container build stays
)

// OpenSQLite opens (creating it and its directory if needed) the SQLite
// database at path and migrates it. Writes are durable when SaveTable
// returns: WAL with synchronous=FULL survives a killed process and a power cut.
func OpenSQLite(ctx context.Context, path string) (*SQL, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, fmt.Errorf("sqlite: create %s: %w", dir, err)
		}
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + strings.Join([]string{
		"_pragma=busy_timeout(10000)",
		"_pragma=journal_mode(WAL)",
		"_pragma=synchronous(FULL)",
		"_pragma=foreign_keys(1)",
		"_txlock=immediate", // take the write lock at BEGIN: no deadlocked upgrades
	}, "&")
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	// One connection: SQLite has one writer anyway, and a single connection
	// turns lock contention into queueing instead of SQLITE_BUSY errors.
	db.SetMaxOpenConns(1)
	if _, err := migrate(ctx, db, sqlite); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite %s: %w", path, err)
	}
	return &SQL{db: db, d: sqlite}, nil
}
