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
	ping := stdlib.OptionShouldPing(func(_ context.Context, p stdlib.ShouldPingParams) bool { return p.IdleDuration > pgPingIdle })
	db := stdlib.OpenDB(*cfg, ping)
	db.SetMaxOpenConns(pgReadConns)
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
	wdb.SetConnMaxIdleTime(pgIdle)
	return newSQL(db, wdb, postgres, beforeCommit), nil
}
