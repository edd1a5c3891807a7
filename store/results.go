package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tttbot/tttbot/table"
)

// Results: finished games and the standings summed over them. insertResult
// runs inside a table save's transaction, so a game's end and its result are
// durable together, exactly once.

func (s *SQL) insertResult(ctx context.Context, tx *sql.Tx, now time.Time, r *table.Result) error {
	record, err := r.Record.MarshalText()
	if err != nil {
		return fmt.Errorf("record result: %w", err)
	}
	var id int64
	err = s.queryRowTx(ctx, tx, qInsertResult, r.Scope, r.Rules.Rows, r.Rules.Cols, r.Rules.Win, r.Rules.Gravity, r.Moves, s.d.stamp(now),
		r.Channel, r.Kind().String(), strings.Join(r.Tokens, " "), string(record), r.Reason.String()).Scan(&id)
	if err != nil {
		return fmt.Errorf("record result: %w", err)
	}
	for i, p := range r.Players {
		finish, place := r.Finish(i).String(), 0
		if i < len(r.Places) {
			place = r.Places[i]
		}
		if _, err := s.execTx(ctx, tx, qInsertResultPlayer,
			id, r.Scope, p, i, r.Outcome(i).String(), finish, place); err != nil {
			return fmt.Errorf("record result: %w", err)
		}
	}
	if !r.Rated() {
		return nil
	}
	for _, scope := range r.RatingScopes() {
		if err := s.rate(ctx, tx, scope, r); err != nil {
			return fmt.Errorf("rate result: %w", err)
		}
	}
	return nil
}

// rate moves the ratings of r's players in scope by one game, inside the
// transaction that records r: read, compute, write. The rows are created if
// new and then locked (PostgreSQL: FOR UPDATE; SQLite: the transaction holds
// the write lock from BEGIN), in player order so two games sharing players
// cannot deadlock, so a concurrent game of the same player waits instead of
// losing this update.
func (s *SQL) rate(ctx context.Context, tx *sql.Tx, scope string, r *table.Result) error {
	kind := r.Kind().String()
	order := make([]int, len(r.Players))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(r.Players[a], r.Players[b]) })
	readRating := qReadRating
	if s.d.dollars { // PostgreSQL
		readRating = qReadRatingForUpdate
	}
	cur := make([]table.Standing, len(r.Players))
	for _, i := range order {
		cur[i] = table.NewStanding(scope, r.Kind(), r.Players[i])
		if _, err := s.execTx(ctx, tx, qNewRating, scope, kind, r.Players[i], cur[i].Rating.Mu, cur[i].Rating.Sigma); err != nil {
			return err
		}
		if err := s.queryRowTx(ctx, tx, readRating,
			scope, kind, r.Players[i]).Scan(&cur[i].Rating.Mu, &cur[i].Rating.Sigma, &cur[i].Games); err != nil {
			return err
		}
	}
	next, err := r.Rate(cur)
	if err != nil {
		return err
	}
	for _, i := range order {
		if _, err := s.execTx(ctx, tx, qUpdateRating,
			next[i].Rating.Mu, next[i].Rating.Sigma, next[i].Games, scope, kind, r.Players[i]); err != nil {
			return err
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

// Ratings implements table.Store.
func (s *SQL) Ratings(ctx context.Context, scope, player string) ([]table.Standing, error) {
	rows, err := s.db.QueryContext(ctx, s.d.q(`SELECT kind, mu, sigma, games FROM ratings WHERE scope = ? AND player = ?`), scope, player)
	if err != nil {
		return nil, fmt.Errorf("ratings: %w", err)
	}
	defer rows.Close()
	var out []table.Standing
	for rows.Next() {
		st := table.Standing{Scope: scope, Player: player}
		var kind string
		if err := rows.Scan(&kind, &st.Rating.Mu, &st.Rating.Sigma, &st.Games); err != nil {
			return nil, fmt.Errorf("ratings: %w", err)
		}
		st.Kind, _ = table.ParseKind(kind)
		out = append(out, st)
	}
	sortByKind(out)
	return out, rows.Err()
}

// sortByKind orders one player's standings as table.Kinds lists the kinds.
func sortByKind(sts []table.Standing) {
	slices.SortFunc(sts, func(a, b table.Standing) int {
		return slices.Index(table.Kinds(), a.Kind) - slices.Index(table.Kinds(), b.Kind)
	})
}

// RatingBoard implements table.Store.
func (s *SQL) RatingBoard(ctx context.Context, scope string, kind table.Kind, limit int) ([]table.Standing, error) {
	rows, err := s.db.QueryContext(ctx, s.d.q(`SELECT player, mu, sigma, games FROM ratings WHERE scope = ? AND kind = ? AND games > 0
		ORDER BY mu - 3 * sigma DESC, player ASC LIMIT ?`), scope, kind.String(), limit)
	if err != nil {
		return nil, fmt.Errorf("rating board: %w", err)
	}
	defer rows.Close()
	var out []table.Standing
	for rows.Next() {
		st := table.Standing{Scope: scope, Kind: kind}
		if err := rows.Scan(&st.Player, &st.Rating.Mu, &st.Rating.Sigma, &st.Games); err != nil {
			return nil, fmt.Errorf("rating board: %w", err)
		}
		out = append(out, st)
	}
	return out, rows.Err()
}

// History implements table.Store.
func (s *SQL) History(ctx context.Context, q table.HistoryQuery) ([]table.Finished, error) {
	query, args := `SELECT result_id FROM result_players WHERE player = ?`, []any{q.Player}
	if q.Scope != table.Everywhere {
		query, args = query+` AND scope = ?`, append(args, q.Scope)
	}
	rows, err := s.db.QueryContext(ctx, s.d.q(query+` ORDER BY result_id DESC LIMIT ? OFFSET ?`), append(args, q.Limit, q.Offset)...)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, fmt.Errorf("history: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	out := make([]table.Finished, 0, len(ids))
	for _, id := range ids {
		f, found, err := s.FinishedGame(ctx, id)
		if err != nil {
			return nil, err
		}
		if found {
			out = append(out, f)
		}
	}
	return out, nil
}

// LastFinished implements table.Store.
func (s *SQL) LastFinished(ctx context.Context, channel string) (table.Finished, bool, error) {
	var id int64
	err := s.db.QueryRowContext(ctx, s.d.q(`SELECT id FROM results WHERE channel = ? ORDER BY id DESC LIMIT 1`), channel).Scan(&id)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return table.Finished{}, false, nil
	case err != nil:
		return table.Finished{}, false, fmt.Errorf("last finished game: %w", err)
	}
	return s.FinishedGame(ctx, id)
}

// FinishedGame implements table.Store.
func (s *SQL) FinishedGame(ctx context.Context, id int64) (table.Finished, bool, error) {
	f := table.Finished{ID: id}
	r := &f.Result
	var at any
	var tokens, record, reason string
	err := s.db.QueryRowContext(ctx, s.d.q(`SELECT scope, channel, rows_n, cols_n, win_n, gravity, moves, finished_at, tokens, record, reason
		FROM results WHERE id = ?`), id).Scan(&r.Scope, &r.Channel, &r.Rules.Rows, &r.Rules.Cols, &r.Rules.Win, &r.Rules.Gravity, &r.Moves, &at, &tokens, &record, &reason)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return f, false, nil
	case err != nil:
		return f, false, fmt.Errorf("finished game %d: %w", id, err)
	}
	if f.At, err = readStamp(at); err != nil {
		return f, false, fmt.Errorf("finished game %d: %w", id, err)
	}
	r.Tokens = strings.Fields(tokens)
	if err := r.Record.UnmarshalText([]byte(record)); err != nil {
		return f, false, fmt.Errorf("finished game %d: %w", id, err)
	}
	if err := r.Reason.UnmarshalText([]byte(reason)); err != nil {
		return f, false, fmt.Errorf("finished game %d: %w", id, err)
	}
	rows, err := s.db.QueryContext(ctx, s.d.q(`SELECT player, outcome, finish, place FROM result_players WHERE result_id = ? ORDER BY seat`), id)
	if err != nil {
		return f, false, fmt.Errorf("finished game %d: %w", id, err)
	}
	defer rows.Close()
	r.Winner = table.NoWinner
	for rows.Next() {
		var player, outcome, finish string
		var place int
		if err := rows.Scan(&player, &outcome, &finish, &place); err != nil {
			return f, false, fmt.Errorf("finished game %d: %w", id, err)
		}
		if outcome == table.Win.String() {
			r.Winner = len(r.Players)
		}
		fin, ok := table.ParseFinish(finish)
		if !ok { // recorded before finishes were kept
			fin = map[string]table.Finish{"win": table.FinishWon, "draw": table.FinishDraw}[outcome]
		}
		r.Players, r.Finishes, r.Places = append(r.Players, player), append(r.Finishes, fin), append(r.Places, place)
	}
	if err := rows.Err(); err != nil {
		return f, false, fmt.Errorf("finished game %d: %w", id, err)
	}
	r.Rules.Players = len(r.Players)
	return f, true, nil
}

// readStamp reads a time stamp as the dialect keeps it: text on SQLite
// (sqliteStamp's format), a time on PostgreSQL.
func readStamp(v any) (time.Time, error) {
	switch t := v.(type) {
	case time.Time:
		return t.UTC(), nil
	case string:
		return time.Parse(time.RFC3339Nano, t)
	case []byte:
		return time.Parse(time.RFC3339Nano, string(t))
	}
	return time.Time{}, fmt.Errorf("time stamp of type %T", v)
}
