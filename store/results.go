package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/tttbot/tttbot/table"
)

// Results: finished games and the standings summed over them. insertResult
// runs inside a table save's transaction, so a game's end and its result are
// durable together, exactly once.

func (s *SQL) insertResult(ctx context.Context, tx *sql.Tx, now time.Time, r *table.Result) error {
	var id int64
	err := tx.QueryRowContext(ctx, s.d.q(`INSERT INTO results (scope, rows_n, cols_n, win_n, gravity, moves, finished_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`), r.Scope, r.Rules.Rows, r.Rules.Cols, r.Rules.Win, r.Rules.Gravity, r.Moves, s.d.stamp(now)).Scan(&id)
	if err != nil {
		return fmt.Errorf("record result: %w", err)
	}
	for i, p := range r.Players {
		if _, err := tx.ExecContext(ctx, s.d.q(`INSERT INTO result_players (result_id, scope, player, seat, outcome) VALUES (?, ?, ?, ?, ?)`),
			id, r.Scope, p, i, r.Outcome(i).String()); err != nil {
			return fmt.Errorf("record result: %w", err)
		}
	}
	return nil
}

const tallyColumns = `player,
	SUM(CASE WHEN outcome = 'win' THEN 1 ELSE 0 END),
	SUM(CASE WHEN outcome = 'loss' THEN 1 ELSE 0 END),
	SUM(CASE WHEN outcome = 'draw' THEN 1 ELSE 0 END)`

// Tally implements table.Store.
func (s *SQL) Tally(ctx context.Context, scope, player string) (table.Tally, error) {
	t := table.Tally{Player: player}
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

// Leaderboard implements table.Store, ordered as sortStandings orders.
func (s *SQL) Leaderboard(ctx context.Context, scope string, limit int) ([]table.Tally, error) {
	rows, err := s.db.QueryContext(ctx, s.d.q(`SELECT `+tallyColumns+` AS w FROM result_players WHERE scope = ? GROUP BY player
		ORDER BY 2 DESC, 3 ASC, 4 DESC, player ASC LIMIT ?`), scope, limit)
	if err != nil {
		return nil, fmt.Errorf("leaderboard: %w", err)
	}
	defer rows.Close()
	var out []table.Tally
	for rows.Next() {
		var t table.Tally
		if err := rows.Scan(&t.Player, &t.Wins, &t.Losses, &t.Draws); err != nil {
			return nil, fmt.Errorf("leaderboard: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}
