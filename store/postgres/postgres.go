// Package postgres is tttbot's durable store on PostgreSQL, which several
// replicas of the bot can share: every table write is a compare-and-swap on
// its version, so concurrent actions on one channel resolve to exactly one.
// Writes go through the group-commit writer (store/internal/groupcommit),
// reads through a pool of their own.
package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib" // pgx: the maintained PostgreSQL driver, through database/sql

	"github.com/tttbot/tttbot/store/internal/groupcommit"
	"github.com/tttbot/tttbot/store/internal/sqlread"
)

//go:embed migrations
var migrations embed.FS

// schema is how the database is migrated: one process at a time, under an
// advisory lock.
var schema = sqlread.Schema{FS: migrations, Dir: "migrations", Lock: "SELECT pg_advisory_xact_lock(7274001)", Q: sqlread.Dollars}

// Store is the durable store on a PostgreSQL database. Reads go through a
// pool; every write goes through one goroutine that owns the write
// connection and commits whatever queued meanwhile in one transaction.
type Store struct {
	sqlread.Reader
	groupcommit.Saves // SaveTable, Remember, Ready, WriteStats
	w                 *groupcommit.Writer
	db, wdb           *sql.DB // the read pool; the writer's one connection
}

// Open connects to the PostgreSQL database at url and migrates it.
//
// The read pool plans every run for the tables as they are, since they
// grow from empty by a row a move; the writer's statements all find their
// rows by key, so it keeps generic plans made with sequential scans off.
// A URL that sets plan_cache_mode or enable_seqscan keeps its own, and then
// the writer plans as the read pool does. (docs/store.md has the
// measurements behind both.)
func Open(ctx context.Context, url string) (*Store, error) {
	return open(ctx, url, nil)
}

// Pool sizes and health checks. Reads share a pool; the writer has one
// connection of its own (more would only contend for the same rows and
// flush more commits).
const (
	pgReadConns = 16
	pgIdle      = 5 * time.Minute
	// pgPingIdle: a connection idle longer than this is pinged before reuse
	// (pgx's ResetSession), so one that a restart or pg_terminate_backend
	// killed meanwhile is replaced instead of failing a request. A dead
	// connection reused sooner fails, and retry repeats the statement.
	pgPingIdle = time.Second
)

func open(ctx context.Context, url string, beforeCommit func(int)) (*Store, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	_, ownMode := cfg.RuntimeParams["plan_cache_mode"]
	_, ownScans := cfg.RuntimeParams["enable_seqscan"]
	if !ownMode {
		cfg.RuntimeParams["plan_cache_mode"] = "force_custom_plan"
	}
	ping := stdlib.OptionShouldPing(func(_ context.Context, p stdlib.ShouldPingParams) bool { return p.IdleDuration > pgPingIdle })
	db := stdlib.OpenDB(*cfg, ping)
	db.SetMaxOpenConns(pgReadConns)
	// Keep every read connection once opened: database/sql keeps only 2
	// idle by default, and reopening one costs a backend fork and its
	// authentication per read (docs/store.md).
	db.SetMaxIdleConns(pgReadConns)
	db.SetConnMaxIdleTime(pgIdle)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if _, err := sqlread.Migrate(ctx, db, schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	wdb := stdlib.OpenDB(*writerConfig(cfg, ownMode || ownScans), ping)
	wdb.SetMaxOpenConns(1)
	wdb.SetMaxIdleConns(1)
	wdb.SetConnMaxIdleTime(pgIdle)
	s := &Store{Reader: sqlread.Reader{DB: dollarDB{db}, Stamp: stamp, Retry: retry}, db: db, wdb: wdb}
	s.w = groupcommit.Start(wdb, committer{beforeCommit: beforeCommit, known: known{}})
	s.Saves = groupcommit.NewSaves(s.w)
	return s, nil
}

// writerConfig is the read pool's cfg for the writer's connection: generic
// plans that walk the keys (see docs/store.md), unless the URL set either.
func writerConfig(cfg *pgx.ConnConfig, urlPlans bool) *pgx.ConnConfig {
	w := cfg.Copy()
	if !urlPlans {
		w.RuntimeParams["plan_cache_mode"] = "force_generic_plan"
		w.RuntimeParams["enable_seqscan"] = "off"
	}
	return w
}

// stamp is the application's time as PostgreSQL keeps it.
func stamp(t time.Time) any { return t.UTC() }

// Close answers every write already queued, then closes the pools.
// Writes after Close fail with store.ErrClosed.
func (s *Store) Close() error {
	s.w.Close()
	return errors.Join(s.wdb.Close(), s.db.Close())
}

// dollarDB is the read pool, given queries with ? placeholders.
type dollarDB struct{ db *sql.DB }

func (d dollarDB) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return d.db.QueryContext(ctx, sqlread.Dollars(query), args...)
}

func (d dollarDB) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return d.db.QueryRowContext(ctx, sqlread.Dollars(query), args...)
}

// retry runs f again while it fails on a dead connection (a backend
// terminated or restarted under the pool): database/sql discards each dead
// connection, so every try gets another. When every backend was killed at
// once, the pool may hand out several dead ones in a row, so it tries as
// often as the pool can hold connections, and once more for a fresh one.
// Only for statements that are safe to repeat: reads, and writes guarded by
// a compare-and-swap.
func retry(ctx context.Context, f func() error) error {
	err := f()
	for range pgReadConns {
		if err == nil || !deadConn(err) || ctx.Err() != nil {
			break
		}
		err = f()
	}
	return err
}

// deadConn reports whether err says the connection itself is gone, rather
// than the statement failing.
func deadConn(err error) bool {
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr):
		// Class 57P: admin_shutdown (pg_terminate_backend), crash_shutdown,
		// cannot_connect_now.
		return strings.HasPrefix(pgErr.Code, "57P")
	case errors.Is(err, driver.ErrBadConn), errors.Is(err, sql.ErrConnDone),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return true
	}
	return pgconn.SafeToRetry(err) && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}
