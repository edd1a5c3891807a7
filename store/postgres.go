package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib" // pgx: the maintained PostgreSQL driver, through database/sql
)

// OpenPostgres connects to the PostgreSQL database at url and migrates it.
// Several tttbot processes can share it: every table write is a
// compare-and-swap on its version, so concurrent actions on one channel
// resolve to exactly one.
func OpenPostgres(ctx context.Context, url string) (*SQL, error) {
	return openPostgres(ctx, url, nil)
}

// Plans. pgx prepares every statement once a connection, and after five
// runs PostgreSQL may keep one generic plan for it for the connection's
// life. The tables start empty and grow by a row a move; a plan made while
// handled_interactions was a few pages (a new database, or autovacuum off
// or not yet run, so no ANALYZE has told it otherwise) scans the whole table
// for every batch long after it holds tens of thousands of rows: measured
// under cmd/loadtest on a new database, 100 million rows read in 40 s and
// the bot at 0.19× the bound instead of 0.29×. With plan_cache_mode
// force_custom_plan every run is planned for the table as it is (the
// statements stay parsed; planning costs less than the scan it avoids).
// A URL that sets plan_cache_mode itself keeps its own.

// Pool sizes and health checks. Reads share a pool; the writer has one
// connection of its own (more would only contend for the same rows and
// flush more commits).
const (
	pgReadConns = 16
	pgIdle      = 5 * time.Minute
	// pgPingIdle: a connection idle longer than this is pinged before reuse
	// (pgx's ResetSession), so one that a restart or pg_terminate_backend
	// killed meanwhile is replaced instead of failing a request. A dead
	// connection reused sooner fails once, and retry repeats the statement.
	pgPingIdle = time.Second
)

func openPostgres(ctx context.Context, url string, beforeCommit func(int)) (*SQL, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if _, set := cfg.RuntimeParams["plan_cache_mode"]; !set {
		cfg.RuntimeParams["plan_cache_mode"] = "force_custom_plan"
	}
	ping := stdlib.OptionShouldPing(func(_ context.Context, p stdlib.ShouldPingParams) bool { return p.IdleDuration > pgPingIdle })
	db := stdlib.OpenDB(*cfg, ping)
	db.SetMaxOpenConns(pgReadConns)
	// Keep every read connection once opened: database/sql keeps only 2 idle
	// by default, so under concurrent loads the other 14 were closed after
	// each query and reopened for the next (a backend fork, startup and
	// auth per read: most of a request's time, measured with
	// pg_stat_database.sessions under cmd/loadtest).
	db.SetMaxIdleConns(pgReadConns)
	db.SetConnMaxIdleTime(pgIdle)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if _, err := migrate(ctx, db, postgres); err != nil {
		db.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	wdb := stdlib.OpenDB(*cfg, ping)
	wdb.SetMaxOpenConns(1)
	wdb.SetMaxIdleConns(1)
	wdb.SetConnMaxIdleTime(pgIdle)
	return newSQL(db, wdb, postgres, beforeCommit), nil
}
