package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // pgx: the maintained PostgreSQL driver, through database/sql
)

// OpenPostgres connects to the PostgreSQL database at url and migrates it.
// Several tttbot processes can share it: every table write is a
// compare-and-swap on its version, so concurrent actions on one channel
// resolve to exactly one.
func OpenPostgres(ctx context.Context, url string) (*SQL, error) {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	db.SetMaxOpenConns(16)
	db.SetConnMaxIdleTime(5 * time.Minute)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if _, err := migrate(ctx, db, postgres); err != nil {
		db.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	return &SQL{db: db, d: postgres}, nil
}
