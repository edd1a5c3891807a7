package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tttbot/tttbot/table"
)

// SQL is the durable store on a relational database: SQLite (embedded) or
// PostgreSQL (shared by several replicas). Both speak the same queries; the
// dialect holds the few differences.
type SQL struct {
	db *sql.DB
	d  dialect
}

// dialect is what differs between the databases.
type dialect struct {
	name    string
	dir     string              // migrations directory under migrations/
	stamp   func(time.Time) any // the application's time as the database keeps it
	dollars bool                // placeholders are $1, $2 … instead of ?
	lock    string              // statement that serialises migrations across processes
}

var (
	sqlite   = dialect{name: "sqlite", dir: "migrations/sqlite", stamp: sqliteStamp}
	postgres = dialect{name: "postgres", dir: "migrations/postgres", stamp: func(t time.Time) any { return t.UTC() }, dollars: true, lock: "SELECT pg_advisory_xact_lock(7274001)"}
)

// sqliteStamp writes a time as the SQLite schema keeps it: UTC text in
// milliseconds, as strftime('%Y-%m-%dT%H:%M:%fZ') wrote it before the
// application's clock was passed in.
func sqliteStamp(t time.Time) any { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// q writes a query for the dialect: ? placeholders become $n for PostgreSQL.
// Queries take times as arguments: the application's clock is the only one,
// so tests that move it move the database's time stamps too.
func (d dialect) q(query string) string {
	if !d.dollars {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Close closes the database.
func (s *SQL) Close() error { return s.db.Close() }

// Dialect names the database: "sqlite" or "postgres".
func (s *SQL) Dialect() string { return s.d.name }

// LoadTable implements table.Store.
func (s *SQL) LoadTable(ctx context.Context, channel string) ([]byte, int64, bool, error) {
	var data []byte
	var version int64
	err := s.db.QueryRowContext(ctx, s.d.q(`SELECT data, version FROM channel_tables WHERE channel = ?`), channel).Scan(&data, &version)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, 0, false, nil
	case err != nil:
		return nil, 0, false, fmt.Errorf("load table: %w", err)
	}
	return data, version, true, nil
}

// SaveTable implements table.Store: a compare-and-swap on the version, with the
// result (if any) in the same transaction, committed before it returns.
func (s *SQL) SaveTable(ctx context.Context, save table.Save) (int64, bool, error) {
	channel, guild, data, version, now, result := save.Channel, save.Guild, save.Data, save.Version, save.Now, save.Result
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, false, fmt.Errorf("save table: %w", err)
	}
	defer tx.Rollback()
	var res sql.Result
	if version == 0 {
		res, err = tx.ExecContext(ctx, s.d.q(`INSERT INTO channel_tables (channel, guild, data, version, updated_at)
			VALUES (?, ?, ?, 1, ?) ON CONFLICT (channel) DO NOTHING`), channel, guild, data, s.d.stamp(now))
	} else {
		res, err = tx.ExecContext(ctx, s.d.q(`UPDATE channel_tables SET data = ?, guild = ?, version = version + 1, updated_at = ?
			WHERE channel = ? AND version = ?`), data, guild, s.d.stamp(now), channel, version)
	}
	if err != nil {
		return 0, false, fmt.Errorf("save table: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return 0, false, fmt.Errorf("save table: %w", err)
	} else if n == 0 {
		return 0, false, nil // someone else wrote first
	}
	if err := s.saveDeadline(ctx, tx, channel, save.Deadline); err != nil {
		return 0, false, err
	}
	if result != nil {
		if err := s.insertResult(ctx, tx, now, result); err != nil {
			return 0, false, err
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, false, fmt.Errorf("save table: commit: %w", err)
	}
	return version + 1, true, nil
}
