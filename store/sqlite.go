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
// returns: WAL with synchronous=FULL survives a killed process and a power
// cut, and group commit (batch.go) shares each fsync among the saves that
// queued during the last one.
func OpenSQLite(ctx context.Context, path string) (*SQL, error) {
	return openSQLite(ctx, path, sqliteOptions{})
}

// sqliteOptions are the seams tests use.
type sqliteOptions struct {
	driver       string    // "" means modernc's "sqlite"; tests wrap it to inject faults
	beforeCommit func(int) // see SQL.beforeCommit
}

// readConns is the read pool's size: WAL lets readers run beside the one
// writer, and this machine class has a few cores.
const readConns = 4

func openSQLite(ctx context.Context, path string, opt sqliteOptions) (*SQL, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, fmt.Errorf("sqlite: create %s: %w", dir, err)
		}
	}
	if opt.driver == "" {
		opt.driver = "sqlite"
	}
	dsn := func(pragmas ...string) string {
		return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + strings.Join(append([]string{
			"_pragma=busy_timeout(10000)",
			"_pragma=journal_mode(WAL)",
			"_pragma=synchronous(FULL)",
			"_pragma=foreign_keys(1)",
		}, pragmas...), "&")
	}
	// The writer's database: one connection, which only the writer
	// goroutine uses. A failed batch discards it, and the next opens the
	// file afresh.
	wdb, err := sql.Open(opt.driver, dsn("_txlock=immediate")) // the write lock at BEGIN: no deadlocked upgrades
	if err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	wdb.SetMaxOpenConns(1)
	if _, err := migrate(ctx, wdb, sqlite); err != nil {
		wdb.Close()
		return nil, fmt.Errorf("sqlite %s: %w", path, err)
	}
	db, err := sql.Open(opt.driver, dsn("_pragma=query_only(1)"))
	if err != nil {
		wdb.Close()
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	db.SetMaxOpenConns(readConns)
	db.SetMaxIdleConns(readConns)
	return newSQL(db, wdb, sqlite, opt.beforeCommit), nil
}
