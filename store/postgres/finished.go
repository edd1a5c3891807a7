package postgres

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/tttbot/tttbot/store/internal/groupcommit"
	"github.com/tttbot/tttbot/store/internal/results"
	"github.com/tttbot/tttbot/table"
)

// finishedStatement is batchStatement for a round with finished games,
// when the writer already knows every rating row they move: the round's
// saves and deliveries, and, for the won games, their results rows and
// their players' rows, and every rating row swapped from the standing the
// writer knows to the one it computed. One statement, autocommitted, so a
// batch with finished games costs what a batch of moves costs: one round
// trip, one flush.
//
// The ratings were computed before the statement, as if every finished
// game's save wins, from standings that another replica may have moved
// since. So the statement checks both once it has written everything: if
// a finished game's save did not win (lost its swap, or a duplicate), or a
// rating row is not the one known, it divides by zero. That fails the
// statement, which undoes all of it, and the batch is written as before
// (exchange: the rating rows read locked in its transaction). See
// errStale.
//
// Result IDs are drawn in the games' order in the round (the ops' order),
// as exchange inserts them one after another.
const finishedStatement = saveWith + `, game AS (
	SELECT * FROM unnest($11::text[], $12::text[], $13::int[], $14::int[], $15::int[], $16::boolean[], $17::int[], $18::timestamptz[],
			$19::text[], $20::text[], $21::text[], $22::text[], $23::text[]) WITH ORDINALITY
		AS g(save_channel, scope, rows_n, cols_n, win_n, gravity, moves, finished_at, channel, kind, tokens, record, reason, n)
), game_won AS (
	SELECT nextval('results_id_seq') AS id, g.* FROM (
		SELECT g.* FROM game g JOIN won w ON w.channel = g.save_channel ORDER BY g.n
	) g
), result AS (
	INSERT INTO results (id, scope, rows_n, cols_n, win_n, gravity, moves, finished_at, channel, kind, tokens, record, reason)
	SELECT id, scope, rows_n, cols_n, win_n, gravity, moves, finished_at, channel, kind, tokens, record, reason FROM game_won
	RETURNING id
), seat AS (
	INSERT INTO result_players (result_id, scope, player, seat, outcome, finish, place)
	SELECT g.id, g.scope, p.player, p.seat, p.outcome, p.finish, p.place
	FROM game_won g JOIN unnest($24::text[], $25::text[], $26::int[], $27::text[], $28::text[], $29::int[])
		AS p(save_channel, player, seat, outcome, finish, place) ON p.save_channel = g.save_channel
), rated AS (
	UPDATE ratings AS r SET mu = n.mu, sigma = n.sigma, games = n.games
	FROM unnest($30::text[], $31::text[], $32::text[], $33::float8[], $34::float8[], $35::int[], $36::float8[], $37::float8[], $38::int[])
		AS n(scope, kind, player, was_mu, was_sigma, was_games, mu, sigma, games)
	WHERE r.scope = n.scope AND r.kind = n.kind AND r.player = n.player
		AND r.mu = n.was_mu AND r.sigma = n.was_sigma AND r.games = n.was_games
	RETURNING 1
), checked AS (
	SELECT 1 / ((SELECT count(*) FROM result) = cardinality($11::text[]) AND (SELECT count(*) FROM rated) = cardinality($30::text[]))::int AS ok
)
` + saveAnswer + `
UNION ALL SELECT 'checked', ok::text FROM checked`

// errStale is how finishedStatement says the ratings it was given were
// computed from what is no longer so (SQLSTATE division_by_zero, which
// nothing else in it can raise).
const errStale = "22012"

// stale reports whether err is finishedStatement's check failing.
func stale(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == errStale
}

// maxKnown bounds the standings the writer keeps: about a few thousand
// players' ratings, every kind, in their server and everywhere. When it is
// full it starts again empty (a player it forgot costs one batch written
// the longer way).
const maxKnown = 1 << 14

// known are rating rows as the writer last wrote them or read them locked
// in a transaction that committed: the standings finishedStatement swaps
// from. Only the writer goroutine uses them. A row another replica moved
// since is only a guess that fails the check, never a wrong rating.
type known map[results.Key]table.Standing

// remember notes the standings of keys in cur, committed.
func (k known) remember(cur map[results.Key]table.Standing) {
	if len(k)+len(cur) > maxKnown {
		clear(k)
	}
	for key, st := range cur {
		k[key] = st
	}
}

// forget drops keys, which a failed batch may have left other than known.
func (k known) forget(keys []results.Key) {
	for _, key := range keys {
		delete(k, key)
	}
}

// finishedArgs are finishedStatement's arguments for round (batchStatement's
// first) and the standings its games leave, computed from those known as
// if every game's save wins. ok is false when a rating row they move is not
// known, or a game cannot be recorded or rated (exchange then says why).
func (k known) finishedArgs(round []*groupcommit.Op) (args []any, after map[results.Key]table.Standing, ok bool) {
	var games []*table.Result
	var saves []*groupcommit.Op
	for _, op := range round {
		if op.Kind == groupcommit.Save && op.Save.Result != nil {
			games = append(games, op.Save.Result)
			saves = append(saves, op)
		}
	}
	keys := results.Keys(games)
	after = make(map[results.Key]table.Standing, len(keys))
	for _, key := range keys {
		st, found := k[key]
		if !found {
			return nil, nil, false
		}
		after[key] = st
	}
	if results.Rate(after, games) != nil {
		return nil, nil, false
	}
	// The games' rows a column an array: the save's channel, then
	// results.Insert's columns (pgx encodes each element by its own type).
	var g [][]any
	var p playerColumns
	for i, op := range saves {
		row, err := results.RowOf(op.Save.Now, games[i], stamp)
		if err != nil {
			return nil, nil, false
		}
		if g == nil {
			g = make([][]any, 1+len(row.Game))
		}
		g[0] = append(g[0], op.Save.Channel)
		for j, v := range row.Game {
			g[j+1] = append(g[j+1], v)
		}
		for j := range row.Players {
			p.channel = append(p.channel, op.Save.Channel)
			p.player = append(p.player, row.Players[j])
			p.seat = append(p.seat, row.Seats[j])
			p.outcome = append(p.outcome, row.Outcomes[j])
			p.finish = append(p.finish, row.Finishes[j])
			p.place = append(p.place, row.Places[j])
		}
	}
	n := len(keys)
	scopes, kinds, players := make([]string, n), make([]string, n), make([]string, n)
	wasMu, wasSigma, mu, sigma := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	wasGames, nowGames := make([]int64, n), make([]int64, n)
	for i, key := range keys {
		was, now := k[key], after[key]
		scopes[i], kinds[i], players[i] = key.Scope, key.Kind.String(), key.Player
		wasMu[i], wasSigma[i], wasGames[i] = was.Rating.Mu, was.Rating.Sigma, int64(was.Games)
		mu[i], sigma[i], nowGames[i] = now.Rating.Mu, now.Rating.Sigma, int64(now.Games)
	}
	args = statementArgs(round)
	for _, col := range g {
		args = append(args, col)
	}
	args = append(args, p.channel, p.player, p.seat, p.outcome, p.finish, p.place,
		scopes, kinds, players, wasMu, wasSigma, wasGames, mu, sigma, nowGames)
	return args, after, true
}

// playerColumns are the result_players rows of a round's finished games,
// each with its game's save's channel.
type playerColumns struct {
	channel, player, outcome, finish []string
	seat, place                      []int64
}
