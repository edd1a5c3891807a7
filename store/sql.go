package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tttbot/tttbot/game"
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
	dir     string // migrations directory under migrations/
	now     string // SQL expression for the current time
	dollars bool   // placeholders are $1, $2 … instead of ?
	lock    string // statement that serialises migrations across processes
}

var (
	sqlite   = dialect{name: "sqlite", dir: "migrations/sqlite", now: "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"}
	postgres = dialect{name: "postgres", dir: "migrations/postgres", now: "now()", dollars: true, lock: "SELECT pg_advisory_xact_lock(7274001)"}
)

// q writes a query for the dialect: ? placeholders become $n for PostgreSQL,
// and NOW() becomes the dialect's clock.
func (d dialect) q(query string) string {
	query = strings.ReplaceAll(query, "NOW()", d.now)
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

// LoadTable implements bot.Store.
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

// SaveTable implements bot.Store: a compare-and-swap on the version, with the
// result (if any) in the same transaction, committed before it returns.
func (s *SQL) SaveTable(ctx context.Context, channel, guild string, data []byte, version int64, result *game.Result) (int64, bool, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, false, fmt.Errorf("save table: %w", err)
	}
	defer tx.Rollback()
	var res sql.Result
	if version == 0 {
		res, err = tx.ExecContext(ctx, s.d.q(`INSERT INTO channel_tables (channel, guild, data, version, updated_at)
			VALUES (?, ?, ?, 1, NOW()) ON CONFLICT (channel) DO NOTHING`), channel, guild, data)
	} else {
		res, err = tx.ExecContext(ctx, s.d.q(`UPDATE channel_tables SET data = ?, guild = ?, version = version + 1, updated_at = NOW()
			WHERE channel = ? AND version = ?`), data, guild, channel, version)
	}
	if err != nil {
		return 0, false, fmt.Errorf("save table: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return 0, false, fmt.Errorf("save table: %w", err)
	} else if n == 0 {
		return 0, false, nil // someone else wrote first
	}
	if result != nil {
		if err := s.insertResult(ctx, tx, result); err != nil {
			return 0, false, err
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, false, fmt.Errorf("save table: commit: %w", err)
	}
	return version + 1, true, nil
}

func (s *SQL) insertResult(ctx context.Context, tx *sql.Tx, r *game.Result) error {
	var id int64
	err := tx.QueryRowContext(ctx, s.d.q(`INSERT INTO results (scope, rows_n, cols_n, win_n, gravity, moves, finished_at)
		VALUES (?, ?, ?, ?, ?, ?, NOW()) RETURNING id`), r.Scope, r.Rules.Rows, r.Rules.Cols, r.Rules.Win, r.Rules.Gravity, r.Moves).Scan(&id)
	if err != nil {
		return fmt.Errorf("record result: %w", err)
	}
	for i, p := range r.Players {
		if _, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO result_players (result_id, scope, player, seat, outcome) VALUES (?, ?, ?, ?, ?)`),
			id, r.Scope, p, i, r.Outcome(i)); err != nil {
			return fmt.Errorf("record result: %w", err)
		}
	}
	return nil
}

const tallyColumns = `player,
	SUM(CASE WHEN outcome = 'win' THEN 1 ELSE 0 END),
	SUM(CASE WHEN outcome = 'loss' THEN 1 ELSE 0 END),
	SUM(CASE WHEN outcome = 'draw' THEN 1 ELSE 0 END)`

// Tally implements bot.Store.
func (s *SQL) Tally(ctx context.Context, scope, player string) (game.Tally, error) {
	t := game.Tally{Player: player}
	err := s.db.QueryRowContext(ctx, s.d.q(`SELECT `+tallyColumns+` FROM result_players WHERE scope = ? AND player = ? GROUP BY player`),
		scope, player).Scan(&t.Player, &t.Wins, &t.Losses, &t.Draws)
	if errors.Is(err, sql.ErrNoRows) {
		return t, nil
	}
	if err != nil {
		return t, fmt.Errorf("tally: %w", err)
	}
	return t, nil
}

// Leaderboard implements bot.Store, ordered as sortStandings orders.
func (s *SQL) Leaderboard(ctx context.Context, scope string, limit int) ([]game.Tally, error) {
	rows, err := s.db.QueryContext(ctx, s.d.q(`SELECT `+tallyColumns+` AS w FROM result_players WHERE scope = ? GROUP BY player
		ORDER BY 2 DESC, 3 ASC, 4 DESC, player ASC LIMIT ?`), scope, limit)
	if err != nil {
		return nil, fmt.Errorf("leaderboard: %w", err)
	}
	defer rows.Close()
	var out []game.Tally
	for rows.Next() {
		var t game.Tally
		if err := rows.Scan(&t.Player, &t.Wins, &t.Losses, &t.Draws); err != nil {
			return nil, fmt.Errorf("leaderboard: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}
