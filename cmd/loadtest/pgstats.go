package main

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/tttbot/tttbot/config"
)

// Scans is how many rows PostgreSQL read from the bot's tables during a
// run, by sequential and by index scans (pg_stat_user_tables). The bot's
// statements all find their rows by key, so a large sequential figure
// means a plan went wrong: a generic plan kept from when a table was empty
// once read a hundred million rows in a 40-second run.
type Scans struct {
	SeqRows, IndexRows int64
}

// isPostgres reports whether db (the -db flag) names PostgreSQL, as the
// bot reads DATABASE_URL.
func isPostgres(db string) bool {
	d, err := config.ParseDatabaseURL(db)
	return err == nil && d.Kind == config.Postgres
}

// tableScans reads the database's running totals of rows read by scans.
func tableScans(ctx context.Context, url string) (Scans, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return Scans{}, fmt.Errorf("postgres statistics: %w", err)
	}
	defer conn.Close(ctx)
	var s Scans
	err = conn.QueryRow(ctx, `SELECT COALESCE(sum(seq_tup_read), 0)::bigint, COALESCE(sum(idx_tup_fetch), 0)::bigint FROM pg_stat_user_tables`).Scan(&s.SeqRows, &s.IndexRows)
	if err != nil {
		return Scans{}, fmt.Errorf("postgres statistics: %w", err)
	}
	return s, nil
}

// vacuum vacuums and analyzes the bot's tables (or those named) on PostgreSQL, as
// autovacuum would have over the year a prefill stands for: a year-old
// database is not a year of dead row versions (every rating update leaves
// one) and of statistics from when its tables were empty. Servers that run
// with autovacuum off (a test server may) would otherwise measure that.
func vacuum(ctx context.Context, url string, tables ...string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return fmt.Errorf("vacuum: %w", err)
	}
	defer conn.Close(ctx)
	if len(tables) == 0 {
		tables = []string{"ratings", "results", "result_players", "channel_tables", "clock_deadlines", "handled_interactions"}
	}
	for _, t := range tables {
		if _, err := conn.Exec(ctx, "VACUUM (ANALYZE) "+t); err != nil {
			return fmt.Errorf("vacuum %s: %w", t, err)
		}
	}
	return nil
}
