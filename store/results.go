package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tttbot/tttbot/table"
)

// Results: finished games and the standings summed over them.
// recordResults runs inside the batch's transaction that saves the tables
// whose games finished, so a game's end and its result are durable
// together, exactly once.

// recordResults writes the results of the games that finished in saves (a
// batch's, each of which won its compare-and-swap) and moves their players'
// ratings, in batch order: a player in two of them is rated by the first,
// then the second. On PostgreSQL every statement is a round trip on the one
// write connection, so the work is done a few statements a batch, not a
// dozen a game: each result with its players in one, and the ratings of all
// of them in three (create the rows that are new, read them all locked,
// write them all).
func (s *SQL) recordResults(ctx context.Context, tx *sql.Tx, saves []table.Save) error {
	rs := make([]*table.Result, len(saves))
	for i, save := range saves {
		if err := s.insertResult(ctx, tx, save.Now, save.Result); err != nil {
			return fmt.Errorf("record result: %w", err)
		}
		rs[i] = save.Result
	}
	if err := s.rate(ctx, tx, rs); err != nil {
		return fmt.Errorf("rate result: %w", err)
	}
	return nil
}

// insertResult writes r and its players.
func (s *SQL) insertResult(ctx context.Context, tx *sql.Tx, now time.Time, r *table.Result) error {
	row, err := s.resultRow(now, r)
	if err != nil {
		return err
	}
	if s.d.unnest {
		_, err := s.execTx(ctx, tx, qInsertResultWithPlayers, row.withPlayers()...)
		return err
	}
	var id int64
	if err := s.queryRowTx(ctx, tx, qInsertResult, row.game...).Scan(&id); err != nil {
		return err
	}
	for i, p := range row.players {
		if _, err := s.execTx(ctx, tx, qInsertResultPlayer, id, r.Scope, p, row.seats[i], row.outcomes[i], row.finishes[i], row.places[i]); err != nil {
			return err
		}
	}
	return nil
}

// resultRow is what a result writes: the game's row (qInsertResult's
// arguments) and its players' columns, one entry a seat.
type resultRow struct {
	game                        []any
	players, outcomes, finishes []string
	seats, places               []int64
}

// withPlayers are qInsertResultWithPlayers' arguments: the game's row,
// then its players' columns.
func (r resultRow) withPlayers() []any {
	return append(slices.Clip(r.game), r.players, r.seats, r.outcomes, r.finishes, r.places)
}

// resultRow returns what r writes, recorded at now.
func (s *SQL) resultRow(now time.Time, r *table.Result) (resultRow, error) {
	record, err := r.Record.MarshalText()
	if err != nil {
		return resultRow{}, err
	}
	n := len(r.Players)
	row := resultRow{
		game: []any{r.Scope, r.Rules.Rows, r.Rules.Cols, r.Rules.Win, r.Rules.Gravity, r.Moves, s.d.stamp(now),
			r.Channel, r.Kind().String(), strings.Join(r.Tokens, " "), string(record), r.Reason.String()},
		players: make([]string, n), outcomes: make([]string, n), finishes: make([]string, n),
		seats: make([]int64, n), places: make([]int64, n),
	}
	for i, p := range r.Players {
		row.players[i], row.seats[i], row.outcomes[i], row.finishes[i] = p, int64(i), r.Outcome(i).String(), r.Finish(i).String()
		if i < len(r.Places) {
			row.places[i] = int64(r.Places[i])
		}
	}
	return row, nil
}

// compare orders rating rows bytewise by scope, kind, player: the order
// they are locked in.
func (k ratingKey) compare(o ratingKey) int {
	return cmp.Or(strings.Compare(k.scope, o.scope), strings.Compare(k.kind.String(), o.kind.String()), strings.Compare(k.player, o.player))
}

// rate moves the ratings of rs's players by their games: read, compute,
// write. The rows are created if new and then locked (PostgreSQL: FOR
// UPDATE; SQLite: the transaction holds the write lock from BEGIN) all at
// once, in one order (bytewise by scope, kind, player) whichever replica
// writes and whatever else the batch holds, so two replicas' batches cannot
// deadlock over them, and a concurrent game of the same player waits
// instead of losing this update.
func (s *SQL) rate(ctx context.Context, tx *sql.Tx, rs []*table.Result) error {
	keys := ratingKeys(rs)
	if len(keys) == 0 {
		return nil
	}
	cur, err := s.lockRatings(ctx, tx, keys)
	if err != nil {
		return err
	}
	if err := rateGames(cur, rs); err != nil {
		return err
	}
	return s.writeRatings(ctx, tx, keys, cur)
}

// ratingKeys lists the rating rows rs's rated games move, in the order
// they are locked.
func ratingKeys(rs []*table.Result) []ratingKey {
	seen := map[ratingKey]bool{}
	var keys []ratingKey
	for _, r := range rs {
		if !r.Rated() {
			continue
		}
		for _, scope := range r.RatingScopes() {
			for _, p := range r.Players {
				k := ratingKey{scope, r.Kind(), p}
				if !seen[k] {
					seen[k] = true
					keys = append(keys, k)
				}
			}
		}
	}
	slices.SortFunc(keys, ratingKey.compare)
	return keys
}

// rateGames moves the standings in cur (which holds every key of
// ratingKeys(rs)) by rs's rated games, one after another.
func rateGames(cur map[ratingKey]table.Standing, rs []*table.Result) error {
	for _, r := range rs {
		if !r.Rated() {
			continue
		}
		for _, scope := range r.RatingScopes() {
			before := make([]table.Standing, len(r.Players))
			for i, p := range r.Players {
				before[i] = cur[ratingKey{scope, r.Kind(), p}]
			}
			after, err := r.Rate(before)
			if err != nil {
				return err
			}
			for i, p := range r.Players {
				cur[ratingKey{scope, r.Kind(), p}] = after[i]
			}
		}
	}
	return nil
}

// lockRatings creates the rating rows of keys (sorted) that do not exist
// yet and reads them all, locked until COMMIT.
func (s *SQL) lockRatings(ctx context.Context, tx *sql.Tx, keys []ratingKey) (map[ratingKey]table.Standing, error) {
	fresh := freshStandings(keys)
	if !s.d.unnest {
		cur := make(map[ratingKey]table.Standing, len(keys))
		for i, k := range keys {
			if _, err := s.execTx(ctx, tx, qNewRating, k.scope, k.kind.String(), k.player, fresh[i].Rating.Mu, fresh[i].Rating.Sigma); err != nil {
				return nil, err
			}
			st := fresh[i]
			if err := s.queryRowTx(ctx, tx, qReadRating, k.scope, k.kind.String(), k.player).Scan(&st.Rating.Mu, &st.Rating.Sigma, &st.Games); err != nil {
				return nil, err
			}
			cur[k] = st
		}
		return cur, nil
	}
	newArgs, lockArgs := ratingArgs(keys, fresh)
	if _, err := s.execTx(ctx, tx, qNewRatings, newArgs...); err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, qLockRatings, lockArgs...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return readRatings(rows, keys, fresh)
}

// freshStandings are keys' standings before any game.
func freshStandings(keys []ratingKey) []table.Standing {
	fresh := make([]table.Standing, len(keys))
	for i, k := range keys {
		fresh[i] = table.NewStanding(k.scope, k.kind, k.player)
	}
	return fresh
}

// ratingArgs are qNewRatings' arguments (keys with their fresh standings)
// and qLockRatings'.
func ratingArgs(keys []ratingKey, fresh []table.Standing) (newArgs, lockArgs []any) {
	scopes, kinds, players := make([]string, len(keys)), make([]string, len(keys)), make([]string, len(keys))
	mus, sigmas := make([]float64, len(keys)), make([]float64, len(keys))
	for i, k := range keys {
		scopes[i], kinds[i], players[i] = k.scope, k.kind.String(), k.player
		mus[i], sigmas[i] = fresh[i].Rating.Mu, fresh[i].Rating.Sigma
	}
	return []any{scopes, kinds, players, mus, sigmas}, []any{scopes, kinds, players}
}

// rowScanner is the part of a result set the store reads: database/sql's
// rows or pgx's.
type rowScanner interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// readRatings reads qLockRatings' rows: one for each of keys, whose
// standings are fresh but for the rating and games read.
func readRatings(rows rowScanner, keys []ratingKey, fresh []table.Standing) (map[ratingKey]table.Standing, error) {
	cur := make(map[ratingKey]table.Standing, len(keys))
	byKey := make(map[ratingKey]int, len(keys))
	for i, k := range keys {
		byKey[k] = i
	}
	for rows.Next() {
		var k ratingKey
		var kind string
		var mu, sigma float64
		var games int
		if err := rows.Scan(&k.scope, &kind, &k.player, &mu, &sigma, &games); err != nil {
			return nil, err
		}
		k.kind, _ = table.ParseKind(kind)
		i, ok := byKey[k]
		if !ok {
			return nil, fmt.Errorf("rating row %v not asked for", k)
		}
		st := fresh[i]
		st.Rating.Mu, st.Rating.Sigma, st.Games = mu, sigma, games
		cur[k] = st
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(cur) != len(keys) {
		return nil, fmt.Errorf("read %d of %d rating rows", len(cur), len(keys))
	}
	return cur, nil
}

// writeRatings writes the ratings of keys from cur.
func (s *SQL) writeRatings(ctx context.Context, tx *sql.Tx, keys []ratingKey, cur map[ratingKey]table.Standing) error {
	if !s.d.unnest {
		for _, k := range keys {
			st := cur[k]
			if _, err := s.execTx(ctx, tx, qUpdateRating, st.Rating.Mu, st.Rating.Sigma, st.Games, k.scope, k.kind.String(), k.player); err != nil {
				return err
			}
		}
		return nil
	}
	_, err := s.execTx(ctx, tx, qUpdateRatings, updateArgs(keys, cur)...)
	return err
}

// updateArgs are qUpdateRatings' arguments: keys' standings in cur.
func updateArgs(keys []ratingKey, cur map[ratingKey]table.Standing) []any {
	n := len(keys)
	scopes, kinds, players := make([]string, n), make([]string, n), make([]string, n)
	mus, sigmas, games := make([]float64, n), make([]float64, n), make([]int64, n)
	for i, k := range keys {
		st := cur[k]
		scopes[i], kinds[i], players[i] = k.scope, k.kind.String(), k.player
		mus[i], sigmas[i], games[i] = st.Rating.Mu, st.Rating.Sigma, int64(st.Games)
	}
	return []any{scopes, kinds, players, mus, sigmas, games}
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
