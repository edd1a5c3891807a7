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
// the bot at 0.19× the bound instead of 0.29×.
//
// The read pool therefore plans every run for the table as it is
// (plan_cache_mode force_custom_plan; the statements stay parsed). Its
// queries include lists and tallies, whose best plan does depend on size.
//
// The writer's statements all find their rows by key (the batch statement,
// inserts, updates and deletes by primary key, the prune's key range), so
// the plan they need does not depend on the tables' size: the writer keeps
// generic plans (force_generic_plan), made with seq scans off so that one
// made on an empty table still walks the keys. Planning the batch statement
// afresh cost PostgreSQL 0.36 ms a batch against 0.12 ms for a generic plan
// (EXPLAIN ANALYZE, 27 rows), on the one connection every write waits for:
// under cmd/loadtest, 16 channels, builds in turn, a batch took 2.2–2.7 ms
// instead of 2.9–4.5 ms and the bot reached 0.28–0.34× the bound instead of
// 0.20–0.25×. Seq scans off alone, with custom plans, gave 0.24–0.28×.
// A URL that sets plan_cache_mode or enable_seqscan keeps its own, and then
// the writer plans as the read pool does.

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
	_, ownMode := cfg.RuntimeParams["plan_cache_mode"]
	_, ownScans := cfg.RuntimeParams["enable_seqscan"]
	if !ownMode {
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
	wdb := stdlib.OpenDB(*writerConfig(cfg, ownMode || ownScans), ping)
	wdb.SetMaxOpenConns(1)
	wdb.SetMaxIdleConns(1)
	wdb.SetConnMaxIdleTime(pgIdle)
	return newSQL(db, wdb, postgres, beforeCommit), nil
}

// writerConfig is the read pool's cfg for the writer's connection: generic
// plans that walk the keys (see Plans above), unless the URL set either.
func writerConfig(cfg *pgx.ConnConfig, urlPlans bool) *pgx.ConnConfig {
	w := cfg.Copy()
	if !urlPlans {
		w.RuntimeParams["plan_cache_mode"] = "force_generic_plan"
		w.RuntimeParams["enable_seqscan"] = "off"
	}
	return w
}
