// Package sqlread holds what the durable stores read and how they migrate,
// the same for SQLite and PostgreSQL: queries are written with ? placeholders
// and the store's Querier rewrites them as its database wants.
package sqlread

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

// Querier runs a read on a pool: *sql.DB's two methods, given queries with
// ? placeholders.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Reader answers the store's reads from a read pool. Queries take times as
// arguments: the application's clock is the only one, so tests that move
// it move the database's time stamps too.
type Reader struct {
	DB    Querier
	Stamp func(time.Time) any // the application's time as the database keeps it
	// Retry runs f again when it failed on a dead connection (PostgreSQL's
	// backends can be terminated under the pool); nil runs it once.
	Retry func(ctx context.Context, f func() error) error
}

// retry runs f through r.Retry. Only for statements safe to repeat.
func (r *Reader) retry(ctx context.Context, f func() error) error {
	if r.Retry == nil {
		return f()
	}
	return r.Retry(ctx, f)
}

// LoadTable answers as table.Store asks.
func (r *Reader) LoadTable(ctx context.Context, channel string) ([]byte, int64, bool, error) {
	var data []byte
	var version int64
	err := r.retry(ctx, func() error {
		return r.DB.QueryRowContext(ctx, `SELECT data, version FROM channel_tables WHERE channel = ?`, channel).Scan(&data, &version)
	})
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, 0, false, nil
	case err != nil:
		return nil, 0, false, fmt.Errorf("load table: %w", err)
	}
	return data, version, true, nil
}

// LoadTableHandled is LoadTable, and whether interactionID was recorded as
// handled, in one query: a request reads the database once before its
// write.
func (r *Reader) LoadTableHandled(ctx context.Context, channel, interactionID string) ([]byte, int64, bool, bool, error) {
	var data []byte
	var version sql.NullInt64
	var handled bool
	err := r.retry(ctx, func() error {
		return r.DB.QueryRowContext(ctx, `SELECT c.data, c.version, EXISTS (SELECT 1 FROM handled_interactions WHERE id = ?)
			FROM (SELECT 1) AS one LEFT JOIN channel_tables AS c ON c.channel = ?`, interactionID, channel).Scan(&data, &version, &handled)
	})
	if err != nil {
		return nil, 0, false, false, fmt.Errorf("load table: %w", err)
	}
	return data, version.Int64, version.Valid, handled, nil
}

// Handled reports whether an interaction ID was recorded as handled, by a
// save (table.Save.Delivery) or Remember, here or on another replica. It
// only reads: the save's own record is the authoritative one.
func (r *Reader) Handled(ctx context.Context, interactionID string) (bool, error) {
	var one int
	err := r.retry(ctx, func() error {
		return r.DB.QueryRowContext(ctx, `SELECT 1 FROM handled_interactions WHERE id = ?`, interactionID).Scan(&one)
	})
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("handled: %w", err)
	}
	return true, nil
}

// NextDeadline is the earliest clock deadline of any game, or ok=false
// when no game is on a clock.
func (r *Reader) NextDeadline(ctx context.Context) (due time.Time, ok bool, err error) {
	var raw any
	err = r.DB.QueryRowContext(ctx, `SELECT MIN(due_at) FROM clock_deadlines`).Scan(&raw)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("next deadline: %w", err)
	}
	if raw == nil {
		return time.Time{}, false, nil
	}
	due, err = readStamp(raw)
	return due, err == nil, err
}

// DueChannels lists up to limit channels whose deadline is at or before
// now, earliest first.
func (r *Reader) DueChannels(ctx context.Context, now time.Time, limit int) ([]string, error) {
	rows, err := r.DB.QueryContext(ctx, `SELECT channel FROM clock_deadlines WHERE due_at <= ? ORDER BY due_at, channel LIMIT ?`,
		r.Stamp(now), limit)
	if err != nil {
		return nil, fmt.Errorf("due channels: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var ch string
		if err := rows.Scan(&ch); err != nil {
			return nil, fmt.Errorf("due channels: %w", err)
		}
		out = append(out, ch)
	}
	return out, rows.Err()
}

// GamesOpen counts the tables whose last save was an open game, from the
// partial index on open_game: as cheap with a year of finished games as
// with none.
func (r *Reader) GamesOpen(ctx context.Context) (int64, error) {
	var n int64
	if err := r.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM channel_tables WHERE open_game`).Scan(&n); err != nil {
		return 0, fmt.Errorf("games open: %w", err)
	}
	return n, nil
}

const tallyColumns = `player,
	SUM(CASE WHEN outcome = 'win' THEN 1 ELSE 0 END),
	SUM(CASE WHEN outcome = 'loss' THEN 1 ELSE 0 END),
	SUM(CASE WHEN outcome = 'draw' THEN 1 ELSE 0 END)`

// Tally answers as table.Records asks.
func (r *Reader) Tally(ctx context.Context, scope, player string) (table.Tally, error) {
	t := table.Tally{Player: player}
	err := r.DB.QueryRowContext(ctx, `SELECT `+tallyColumns+` FROM result_players WHERE scope = ? AND player = ? GROUP BY player`,
		scope, player).Scan(&t.Player, &t.Wins, &t.Losses, &t.Draws)
	if errors.Is(err, sql.ErrNoRows) {
		return t, nil
	}
	if err != nil {
		return t, fmt.Errorf("tally: %w", err)
	}
	return t, nil
}

// Ratings answers as table.Records asks.
func (r *Reader) Ratings(ctx context.Context, scope, player string) ([]table.Standing, error) {
	// The kinds named, so that each is one lookup of the primary key
	// (scope, kind, player) rather than a walk of the scope's ratings, and
	// no index of its own is needed: every index on ratings is one more
	// write for each rating a finished game moves.
	args := []any{scope}
	for _, k := range table.Kinds() {
		args = append(args, k.String())
	}
	rows, err := r.DB.QueryContext(ctx, `SELECT kind, mu, sigma, games FROM ratings WHERE scope = ? AND kind IN (`+ratingKinds+`) AND player = ?`,
		append(args, player)...)
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

// ratingKinds are the placeholders of table.Kinds in Ratings' query.
var ratingKinds = strings.TrimSuffix(strings.Repeat("?, ", len(table.Kinds())), ", ")

// sortByKind orders one player's standings as table.Kinds lists the kinds.
func sortByKind(sts []table.Standing) {
	slices.SortFunc(sts, func(a, b table.Standing) int {
		return slices.Index(table.Kinds(), a.Kind) - slices.Index(table.Kinds(), b.Kind)
	})
}

// RatingBoard answers as table.Records asks.
func (r *Reader) RatingBoard(ctx context.Context, scope string, kind table.Kind, limit int) ([]table.Standing, error) {
	rows, err := r.DB.QueryContext(ctx, `SELECT player, mu, sigma, games FROM ratings WHERE scope = ? AND kind = ? AND games > 0
		ORDER BY mu - 3 * sigma DESC, player ASC LIMIT ?`, scope, kind.String(), limit)
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

// History answers as table.Records asks, in one query: the page of the
// player's games (from an index that holds them in order), each game's row
// and its players' rows, a row a player. Reading each game by itself took
// two queries a game, nineteen a page: on PostgreSQL nineteen round trips.
func (r *Reader) History(ctx context.Context, q table.HistoryQuery) ([]table.Finished, error) {
	page, args := `SELECT result_id FROM result_players WHERE player = ?`, []any{q.Player}
	if q.Scope != table.Everywhere {
		page, args = page+` AND scope = ?`, append(args, q.Scope)
	}
	rows, err := r.DB.QueryContext(ctx, `SELECT r.id, `+gameColumns+`, p.player, p.outcome, p.finish, p.place
		FROM (`+page+` ORDER BY result_id DESC LIMIT ? OFFSET ?) AS page
		JOIN results r ON r.id = page.result_id
		JOIN result_players p ON p.result_id = r.id
		ORDER BY r.id DESC, p.seat`, append(args, q.Limit, q.Offset)...)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	defer rows.Close()
	out := []table.Finished{}
	for rows.Next() {
		var id int64
		var g gameRow
		var pl playerRow
		if err := rows.Scan(append(append([]any{&id}, g.dest()...), pl.dest()...)...); err != nil {
			return nil, fmt.Errorf("history: %w", err)
		}
		if len(out) == 0 || out[len(out)-1].ID != id {
			f := table.Finished{ID: id}
			if err := g.fill(&f); err != nil {
				return nil, fmt.Errorf("finished game %d: %w", id, err)
			}
			out = append(out, f)
		}
		pl.add(&out[len(out)-1].Result)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	return out, nil
}

// LastFinished answers as table.Records asks.
func (r *Reader) LastFinished(ctx context.Context, channel string) (table.Finished, bool, error) {
	var id int64
	err := r.DB.QueryRowContext(ctx, `SELECT id FROM results WHERE channel = ? ORDER BY id DESC LIMIT 1`, channel).Scan(&id)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return table.Finished{}, false, nil
	case err != nil:
		return table.Finished{}, false, fmt.Errorf("last finished game: %w", err)
	}
	return r.FinishedGame(ctx, id)
}

// FinishedGame answers as table.Records asks.
func (r *Reader) FinishedGame(ctx context.Context, id int64) (table.Finished, bool, error) {
	f := table.Finished{ID: id}
	var g gameRow
	err := r.DB.QueryRowContext(ctx, `SELECT `+gameColumns+` FROM results r WHERE id = ?`, id).Scan(g.dest()...)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return f, false, nil
	case err != nil:
		return f, false, fmt.Errorf("finished game %d: %w", id, err)
	}
	if err := g.fill(&f); err != nil {
		return f, false, fmt.Errorf("finished game %d: %w", id, err)
	}
	rows, err := r.DB.QueryContext(ctx, `SELECT p.player, p.outcome, p.finish, p.place FROM result_players p WHERE result_id = ? ORDER BY seat`, id)
	if err != nil {
		return f, false, fmt.Errorf("finished game %d: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var pl playerRow
		if err := rows.Scan(pl.dest()...); err != nil {
			return f, false, fmt.Errorf("finished game %d: %w", id, err)
		}
		pl.add(&f.Result)
	}
	if err := rows.Err(); err != nil {
		return f, false, fmt.Errorf("finished game %d: %w", id, err)
	}
	return f, true, nil
}

// gameColumns are a finished game's columns of results (as r), which
// gameRow reads.
const gameColumns = `r.scope, r.channel, r.rows_n, r.cols_n, r.win_n, r.gravity, r.moves, r.finished_at, r.tokens, r.record, r.reason`

// gameRow is a finished game's row of results.
type gameRow struct {
	res                    table.Result
	at                     any
	tokens, record, reason string
}

func (g *gameRow) dest() []any {
	res := &g.res
	return []any{&res.Scope, &res.Channel, &res.Rules.Rows, &res.Rules.Cols, &res.Rules.Win, &res.Rules.Gravity, &res.Moves, &g.at, &g.tokens, &g.record, &g.reason}
}

// fill makes f the game read, with no players yet (playerRow.add adds
// them).
func (g *gameRow) fill(f *table.Finished) error {
	var err error
	if f.At, err = readStamp(g.at); err != nil {
		return err
	}
	f.Result = g.res
	res := &f.Result
	res.Tokens = strings.Fields(g.tokens)
	if err := res.Record.UnmarshalText([]byte(g.record)); err != nil {
		return err
	}
	if err := res.Reason.UnmarshalText([]byte(g.reason)); err != nil {
		return err
	}
	res.Winner = table.NoWinner
	return nil
}

// playerRow is one player's row of result_players: player, outcome,
// finish, place.
type playerRow struct {
	player, outcome, finish string
	place                   int
}

func (p *playerRow) dest() []any { return []any{&p.player, &p.outcome, &p.finish, &p.place} }

// add adds the player, the next seat, to res.
func (p *playerRow) add(res *table.Result) {
	if p.outcome == table.Win.String() {
		res.Winner = len(res.Players)
	}
	fin, ok := table.ParseFinish(p.finish)
	if !ok { // recorded before finishes were kept
		fin = map[string]table.Finish{"win": table.FinishWon, "draw": table.FinishDraw}[p.outcome]
	}
	res.Players, res.Finishes, res.Places = append(res.Players, p.player), append(res.Finishes, fin), append(res.Places, p.place)
	res.Rules.Players = len(res.Players)
}

// readStamp reads a time stamp as the dialect keeps it: text on SQLite
// (UTC, RFC 3339 in milliseconds), a time on PostgreSQL.
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
