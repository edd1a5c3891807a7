// Package sqlite is tttbot's embedded durable store: one SQLite file, WAL
// with synchronous=FULL, written through the group-commit writer
// (store/internal/groupcommit), read through a pool of its own. Backup
// copies it while bots write to it, and Restore puts a copy back once no bot
// holds its lock file (lock.go).
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	_ "modernc.org/sqlite" // pure-Go SQLite: no cgo, so the static container build stays

	"github.com/tttbot/tttbot/store/internal/groupcommit"
	"github.com/tttbot/tttbot/store/internal/sqlread"
)

//go:embed migrations
var migrations embed.FS

// schema is how the file is migrated: SQLite's BEGIN IMMEDIATE already
// serialises migrations across processes.
var schema = sqlread.Schema{FS: migrations, Dir: "migrations", Q: func(q string) string { return q }}

// Store is the durable store on a SQLite file. Reads go through a pool
// (WAL lets readers run beside the writer); every write goes through one
// goroutine that owns the write connection and commits whatever queued
// meanwhile in one transaction.
type Store struct {
	sqlread.Reader
	groupcommit.Saves // SaveTable, Remember, Ready, WriteStats
	w                 *groupcommit.Writer
	db, wdb           *sql.DB // the read pool; the writer's one connection
	stmts             *statements
	lock              *storeLock // held while open: restore refuses to replace a store in use
}

// Open opens (creating it and its directory if needed) the SQLite database
// at path and migrates it. Writes are durable when SaveTable returns: WAL
// with synchronous=FULL survives a killed process and a power cut, and
// group commit shares each fsync among the saves that queued during the
// last one.
func Open(ctx context.Context, path string) (*Store, error) {
	return open(ctx, path, options{})
}

// options are the seams tests use.
type options struct {
	driver       string    // "" means modernc's "sqlite"; tests wrap it to inject faults
	beforeCommit func(int) // called in the writer before each COMMIT, with the batch's size
}

// readConns is the read pool's size: WAL lets readers run beside the one
// writer, and this machine class has a few cores.
const readConns = 4

func open(ctx context.Context, path string, opt options) (*Store, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, fmt.Errorf("sqlite: create %s: %w", dir, err)
		}
	}
	if opt.driver == "" {
		opt.driver = "sqlite"
	}
	lock, err := lockShared(path)
	if err != nil {
		return nil, err
	}
	s, err := openLocked(ctx, path, opt)
	if err != nil {
		lock.release()
		return nil, err
	}
	s.lock = lock
	return s, nil
}

// openLocked is open once the store's lock is held.
func openLocked(ctx context.Context, path string, opt options) (*Store, error) {
	dsn := func(pragmas ...string) string {
		return fileDSN(path, append([]string{
			"_pragma=busy_timeout(10000)",
			"_pragma=journal_mode(WAL)",
			"_pragma=synchronous(FULL)",
			"_pragma=foreign_keys(1)",
		}, pragmas...)...)
	}
	// The writer's database: one connection, which only the writer
	// goroutine uses. A failed batch discards it, and the next opens the
	// file afresh.
	wdb, err := sql.Open(opt.driver, dsn("_txlock=immediate")) // the write lock at BEGIN: no deadlocked upgrades
	if err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	wdb.SetMaxOpenConns(1)
	if _, err := sqlread.Migrate(ctx, wdb, schema); err != nil {
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
	st := &statements{}
	st.prepareWriter(ctx, wdb)
	s := &Store{Reader: sqlread.Reader{DB: preparedDB{db, st}, Stamp: stamp}, db: db, wdb: wdb, stmts: st}
	s.w = groupcommit.Start(wdb, committer{wdb: wdb, stmts: st, written: &written{}, beforeCommit: opt.beforeCommit})
	s.Saves = groupcommit.NewSaves(s.w)
	return s, nil
}

// stamp writes a time as the schema keeps it: UTC text in milliseconds, as
// strftime('%Y-%m-%dT%H:%M:%fZ') wrote it before the application's clock
// was passed in.
func stamp(t time.Time) any { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// Close answers every write already queued, then closes the database.
// Writes after Close fail with store.ErrClosed.
func (s *Store) Close() error {
	s.w.Close()
	s.stmts.close()
	return errors.Join(s.wdb.Close(), s.db.Close(), s.lock.release())
}

// statements keeps statements prepared. SQLite (modernc) otherwise parses
// and plans a statement every time it runs, and the same few statements
// run for every move. database/sql keeps a statement prepared on each
// connection it ran on and prepares it again on a new one.
type statements struct {
	m sync.Map // stmtKey → *sql.Stmt
}

// stmtKey names a prepared statement: the pool it was prepared on and its
// text.
type stmtKey struct {
	db    *sql.DB
	query string
}

// prepared returns query prepared on db, preparing it the first time; nil
// when preparing failed (the caller then runs the text).
func (st *statements) prepared(ctx context.Context, db *sql.DB, query string) *sql.Stmt {
	key := stmtKey{db, query}
	if p, ok := st.m.Load(key); ok {
		return p.(*sql.Stmt)
	}
	p, err := db.PrepareContext(ctx, query)
	if err != nil {
		return nil
	}
	if prior, loaded := st.m.LoadOrStore(key, p); loaded {
		p.Close()
		return prior.(*sql.Stmt)
	}
	return p
}

func (st *statements) close() {
	st.m.Range(func(_, p any) bool { p.(*sql.Stmt).Close(); return true })
}

// preparedDB is the read pool, each query prepared once.
type preparedDB struct {
	db *sql.DB
	st *statements
}

func (p preparedDB) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := p.st.prepared(ctx, p.db, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return p.db.QueryContext(ctx, query, args...)
}

func (p preparedDB) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := p.st.prepared(ctx, p.db, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return p.db.QueryRowContext(ctx, query, args...)
}
