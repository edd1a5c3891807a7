package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/tttbot/tttbot/store/internal/groupcommit"
	"github.com/tttbot/tttbot/store/internal/results"
	"github.com/tttbot/tttbot/table"
)

// batchStatement is the one place PostgreSQL writes table saves: a round of
// them (distinct channels, distinct interaction IDs) and first deliveries
// in one statement, since on the one write connection round trips are what
// a batch costs besides its COMMIT. It swaps first and records deliveries
// only for the swaps that won, so a lost swap leaves nothing to take back:
//
//   - seen: saves whose interaction was handled before (duplicates, which
//     write nothing);
//   - swapped, inserted: the compare-and-swaps of the others, an update
//     from the version read or the insert of a new channel (a channel
//     another request or replica moved meanwhile is not returned: it lost);
//   - recorded: the won saves' interaction IDs. With no ON CONFLICT: the
//     same ID recorded meanwhile by another replica fails the statement,
//     and the batch runs again op by op, when this save finds it seen;
//   - cleared, armed: the won saves' clock deadlines;
//   - firsts: the batch's own deliveries (Remember), those not recorded
//     before returned.
//
// finishedStatement extends it (saveWith and saveAnswer are its two parts).
const batchStatement = saveWith + saveAnswer

const saveWith = `WITH input AS (
	SELECT * FROM unnest($1::text[], $2::text[], $3::bytea[], $4::bigint[], $5::timestamptz[], $6::text[], $7::timestamptz[], $10::boolean[])
		AS i(channel, guild, data, version, at, delivery, deadline, open_game)
), seen AS (
	SELECT i.channel FROM input i JOIN handled_interactions h ON h.id = i.delivery
), swapped AS (
	UPDATE channel_tables AS t
	SET data = i.data, guild = i.guild, version = t.version + 1, updated_at = i.at, open_game = i.open_game
	FROM input i
	WHERE t.channel = i.channel AND t.version = i.version
		AND NOT EXISTS (SELECT 1 FROM handled_interactions h WHERE h.id = i.delivery)
	RETURNING t.channel, i.delivery, i.at, i.deadline
), inserted AS (
	INSERT INTO channel_tables (channel, guild, data, version, updated_at, open_game)
	SELECT i.channel, i.guild, i.data, 1, i.at, i.open_game FROM input i
	WHERE i.version = 0 AND NOT EXISTS (SELECT 1 FROM handled_interactions h WHERE h.id = i.delivery)
	ON CONFLICT (channel) DO NOTHING
	RETURNING channel
), won AS (
	SELECT channel, delivery, at, deadline FROM swapped
	UNION ALL SELECT i.channel, i.delivery, i.at, i.deadline FROM inserted JOIN input i USING (channel)
), recorded AS (
	INSERT INTO handled_interactions (id, handled_at)
	SELECT delivery, at FROM won WHERE delivery <> ''
), cleared AS (
	DELETE FROM clock_deadlines WHERE channel IN (SELECT channel FROM won WHERE deadline IS NULL)
), armed AS (
	INSERT INTO clock_deadlines (channel, due_at)
	SELECT channel, deadline FROM won WHERE deadline IS NOT NULL
	ON CONFLICT (channel) DO UPDATE SET due_at = excluded.due_at
), firsts AS (
	INSERT INTO handled_interactions (id, handled_at)
	SELECT * FROM unnest($8::text[], $9::timestamptz[])
	ON CONFLICT (id) DO NOTHING
	RETURNING id
)`

const saveAnswer = `
SELECT 'dup', channel FROM seen
UNION ALL SELECT 'won', channel FROM won
UNION ALL SELECT 'first', id FROM firsts`

// The other statements a batch may take. Rating rows are locked
// bytewise-sorted (COLLATE "C"), the order results.Keys gives.
const (
	qProbe = `INSERT INTO store_probe (id, probes) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET probes = store_probe.probes + 1`
	// qPrune finds the old IDs by the primary key (groupcommit.SnowflakeAt);
	// handled_at keeps it exact.
	qPrune                   = `DELETE FROM handled_interactions WHERE id < $1 AND handled_at < $2`
	qInsertResultWithPlayers = `WITH r AS (
			INSERT INTO results (scope, rows_n, cols_n, win_n, gravity, moves, finished_at, channel, kind, tokens, record, reason)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id)
		INSERT INTO result_players (result_id, scope, player, seat, outcome, finish, place)
		SELECT r.id, $1, p.player, p.seat, p.outcome, p.finish, p.place
		FROM r, unnest($13::text[], $14::int[], $15::text[], $16::text[], $17::int[]) AS p(player, seat, outcome, finish, place)`
	qNewRatings = `INSERT INTO ratings (scope, kind, player, mu, sigma, games)
		SELECT n.scope, n.kind, n.player, n.mu, n.sigma, 0
		FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::float8[]) AS n(scope, kind, player, mu, sigma)
		ON CONFLICT (scope, kind, player) DO NOTHING`
	qLockRatings = `SELECT r.scope, r.kind, r.player, r.mu, r.sigma, r.games
		FROM ratings r JOIN unnest($1::text[], $2::text[], $3::text[]) AS k(scope, kind, player)
			ON r.scope = k.scope AND r.kind = k.kind AND r.player = k.player
		ORDER BY r.scope COLLATE "C", r.kind COLLATE "C", r.player COLLATE "C"
		FOR UPDATE OF r`
	qUpdateRatings = `UPDATE ratings SET mu = u.mu, sigma = u.sigma, games = u.games
		FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::float8[], $6::int[]) AS u(scope, kind, player, mu, sigma, games)
		WHERE ratings.scope = u.scope AND ratings.kind = u.kind AND ratings.player = u.player`
)

// committer writes PostgreSQL's batches with pgx's pipelines: a batch is
// one round trip when it is one round of saves and deliveries (the common
// batch of moves: one autocommitted statement, finishedStatement when games
// finish whose players' ratings it knows), else one transaction of two
// round trips, since a finished game's ratings are then computed here from
// rows read locked in the same transaction.
type committer struct {
	beforeCommit func(int)
	known        known // the writer's own: only its goroutine commits
}

// Commit implements groupcommit.Committer.
func (c committer) Commit(ctx context.Context, conn *sql.Conn, b groupcommit.Batch, alone bool) (sent bool, err error) {
	err = conn.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("store: the write connection is a %T, not pgx's", dc)
		}
		if alone {
			sent, err = c.commitAlone(ctx, sc.Conn(), b)
		} else {
			sent, err = c.commitTogether(ctx, sc.Conn(), b)
		}
		return err
	})
	return sent, err
}

// commitTogether writes b's ops with no savepoints.
func (c committer) commitTogether(ctx context.Context, pc *pgx.Conn, b groupcommit.Batch) (sent bool, err error) {
	rounds := roundsOf(b.Ops)
	simple := len(rounds) == 1 && b.PruneBefore.IsZero() && !slices.ContainsFunc(b.Ops, func(op *groupcommit.Op) bool {
		return op.Kind == groupcommit.Probe
	})
	finished := finishedKeys(b.Ops)
	if simple { // autocommitted: one round trip, one flush
		query, args, ok := batchStatement, statementArgs(rounds[0]), true
		var after map[results.Key]table.Standing
		if slices.ContainsFunc(b.Ops, func(op *groupcommit.Op) bool { return op.Save.Result != nil }) {
			query = finishedStatement
			args, after, ok = c.known.finishedArgs(rounds[0]) // else exchange reads the ratings
		}
		if ok {
			c.hook(len(b.Ops))
			rows, err := pc.Query(ctx, query, args...)
			if err == nil {
				err = answer(rows, rounds[0])
			}
			switch {
			case err == nil:
				c.known.remember(after)
				return true, nil
			case !stale(err):
				c.known.forget(finished)
				return !unsent(err), fmt.Errorf("store: save batch: %w", err)
			}
			c.known.forget(finished) // another replica rated them, or a game's save did not win
		}
	}
	close := []string{"COMMIT"}
	var pruneArgs []any
	if !b.PruneBefore.IsZero() {
		close = []string{qPrune, "COMMIT"}
		pruneArgs = []any{groupcommit.SnowflakeAt(b.PruneBefore), b.PruneBefore.UTC()}
	}
	cur, sent, err := c.exchange(ctx, pc, rounds, "BEGIN", close, pruneArgs, func() { c.hook(len(b.Ops)) })
	if err != nil {
		c.known.forget(finished)
	} else {
		c.known.remember(cur)
	}
	if err != nil && !sent {
		err = fmt.Errorf("%w: %w", groupcommit.ErrOpFailed, err)
	}
	return sent, err
}

// finishedKeys are the rating rows the finished games among ops move.
func finishedKeys(ops []*groupcommit.Op) []results.Key {
	var games []*table.Result
	for _, op := range ops {
		if op.Kind == groupcommit.Save && op.Save.Result != nil {
			games = append(games, op.Save.Result)
		}
	}
	return results.Keys(games)
}

// commitAlone writes each of b's ops in a savepoint of its own.
func (c committer) commitAlone(ctx context.Context, pc *pgx.Conn, b groupcommit.Batch) (sent bool, err error) {
	c.known.forget(finishedKeys(b.Ops)) // whichever of its games commit, the next batch reads them again
	if _, err := pc.Exec(ctx, "BEGIN"); err != nil {
		return false, fmt.Errorf("store: begin: %w", err)
	}
	for _, op := range b.Ops {
		if _, _, err := c.exchange(ctx, pc, [][]*groupcommit.Op{{op}}, "SAVEPOINT op", []string{"RELEASE SAVEPOINT op"}, nil, nil); err != nil {
			op.Out = groupcommit.Result{Err: err}
			if _, err := pc.Exec(ctx, "ROLLBACK TO SAVEPOINT op"); err != nil {
				return false, fmt.Errorf("store: rollback to savepoint: %w", err)
			}
		}
	}
	if !b.PruneBefore.IsZero() { // a failed prune only waits for the next
		if _, err := pc.Exec(ctx, "SAVEPOINT op"); err != nil {
			return false, fmt.Errorf("store: savepoint: %w", err)
		}
		if _, err := pc.Exec(ctx, qPrune, groupcommit.SnowflakeAt(b.PruneBefore), b.PruneBefore.UTC()); err != nil {
			if _, err := pc.Exec(ctx, "ROLLBACK TO SAVEPOINT op"); err != nil {
				return false, fmt.Errorf("store: rollback to savepoint: %w", err)
			}
		}
	}
	c.hook(len(b.Ops))
	if _, err := pc.Exec(ctx, "COMMIT"); err != nil {
		return true, fmt.Errorf("store: commit: %w", err)
	}
	return true, nil
}

func (c committer) hook(n int) {
	if c.beforeCommit != nil {
		c.beforeCommit(n)
	}
}

// exchange writes rounds inside a transaction in two pipelined round trips
// and sets each op's answer. The first: open, each round's batchStatement,
// the probes, and the rating rows of every finished game created and
// locked. The second, once the swaps that won are known and the ratings
// computed: the won games' results, the ratings, and close (closeArgs are
// close[0]'s when it takes any). A game whose swap lost has its players'
// rows locked to no purpose (the channel moved on another replica, which
// rates that game itself). It returns the standings of the rating rows it
// locked, as close leaves them; sent says whether close may have run: a
// failure before it left nothing behind.
func (c committer) exchange(ctx context.Context, pc *pgx.Conn, rounds [][]*groupcommit.Op, open string, close []string, closeArgs []any, beforeClose func()) (cur map[results.Key]table.Standing, sent bool, err error) {
	var finished []*table.Result
	for _, round := range rounds {
		for _, op := range round {
			if op.Kind == groupcommit.Save && op.Save.Result != nil {
				finished = append(finished, op.Save.Result)
			}
		}
	}
	keys := results.Keys(finished)
	fresh := results.Fresh(keys)
	cur, err = lock(ctx, pc, rounds, open, keys, fresh)
	if err != nil {
		return nil, false, err
	}
	second := &pgx.Batch{}
	var rated []*table.Result
	for _, round := range rounds {
		for _, op := range round {
			if op.Kind != groupcommit.Save || op.Save.Result == nil || !op.Out.OK {
				continue
			}
			row, err := results.RowOf(op.Save.Now, op.Save.Result, stamp)
			if err != nil {
				return nil, false, fmt.Errorf("record result: %w", err)
			}
			second.Queue(qInsertResultWithPlayers, append(slices.Clip(row.Game), row.Players, row.Seats, row.Outcomes, row.Finishes, row.Places)...)
			rated = append(rated, op.Save.Result)
		}
	}
	if wonKeys := results.Keys(rated); len(wonKeys) > 0 {
		if err := results.Rate(cur, rated); err != nil {
			return nil, false, fmt.Errorf("rate result: %w", err)
		}
		second.Queue(qUpdateRatings, updateArgs(wonKeys, cur)...)
	}
	for i, q := range close {
		if i == 0 && closeArgs != nil {
			second.Queue(q, closeArgs...)
		} else {
			second.Queue(q)
		}
	}
	if beforeClose != nil {
		beforeClose()
	}
	if err := pc.SendBatch(ctx, second).Close(); err != nil {
		return nil, !unsent(err), fmt.Errorf("store: commit batch: %w", err)
	}
	return cur, true, nil
}

// lock is exchange's first round trip. It returns the standings of keys
// as read locked.
func lock(ctx context.Context, pc *pgx.Conn, rounds [][]*groupcommit.Op, open string, keys []results.Key, fresh []table.Standing) (map[results.Key]table.Standing, error) {
	first := &pgx.Batch{}
	first.Queue(open)
	var probes []*groupcommit.Op
	for _, round := range rounds {
		if args := statementArgs(round); args != nil {
			first.Queue(batchStatement, args...)
		}
		for _, op := range round {
			if op.Kind == groupcommit.Probe {
				probes = append(probes, op)
			}
		}
	}
	for range probes {
		first.Queue(qProbe)
	}
	newArgs, lockArgs := ratingArgs(keys, fresh)
	if len(keys) > 0 {
		first.Queue(qNewRatings, newArgs...)
		first.Queue(qLockRatings, lockArgs...)
	}
	br := pc.SendBatch(ctx, first)
	cur, err := func() (map[results.Key]table.Standing, error) {
		if _, err := br.Exec(); err != nil {
			return nil, fmt.Errorf("store: %s: %w", open, err)
		}
		for _, round := range rounds {
			if statementArgs(round) == nil {
				continue
			}
			rows, err := br.Query()
			if err == nil {
				err = answer(rows, round)
			}
			if err != nil {
				return nil, fmt.Errorf("store: save batch: %w", err)
			}
		}
		for _, op := range probes {
			if _, err := br.Exec(); err != nil {
				return nil, fmt.Errorf("write probe: %w", err)
			}
			op.Out = groupcommit.Result{OK: true}
		}
		if len(keys) == 0 {
			return nil, nil
		}
		if _, err := br.Exec(); err != nil {
			return nil, fmt.Errorf("rate result: %w", err)
		}
		rows, err := br.Query()
		if err != nil {
			return nil, fmt.Errorf("rate result: %w", err)
		}
		defer rows.Close()
		return results.ReadLocked(rows, keys, fresh)
	}()
	return cur, errors.Join(err, br.Close())
}

// roundsOf splits ops into rounds that batchStatement can each take: in a
// round every channel and every interaction ID comes at most once, so a
// channel's second save in a batch (or a second delivery of one
// interaction) goes in the next round's statement, which sees the first's
// writes. Ops keep their order within a round.
func roundsOf(ops []*groupcommit.Op) [][]*groupcommit.Op {
	var rounds [][]*groupcommit.Op
	next := map[string]int{} // "c"+channel, "i"+interaction ID → the first round still free for it
	for _, op := range ops {
		var keys []string
		if op.Kind == groupcommit.Save {
			keys = append(keys, "c"+op.Save.Channel)
		}
		if id, _ := op.Delivered(); id != "" {
			keys = append(keys, "i"+id)
		}
		r := 0
		for _, k := range keys {
			r = max(r, next[k])
		}
		for _, k := range keys {
			next[k] = r + 1
		}
		for len(rounds) <= r {
			rounds = append(rounds, nil)
		}
		rounds[r] = append(rounds[r], op)
	}
	return rounds
}

// statementArgs are batchStatement's arguments for a round's saves and
// deliveries; nil when it has none.
func statementArgs(round []*groupcommit.Op) []any {
	var (
		channels, guilds, deliveries []string
		datas                        [][]byte
		versions                     []int64
		ats                          []time.Time
		deadlines                    []*time.Time
		firstIDs                     []string
		firstAts                     []time.Time
		opens                        []bool
	)
	for _, op := range round {
		switch op.Kind {
		case groupcommit.Delivery:
			firstIDs = append(firstIDs, op.ID)
			firstAts = append(firstAts, op.At.UTC())
		case groupcommit.Save:
			sv := op.Save
			channels = append(channels, sv.Channel)
			guilds = append(guilds, sv.Guild)
			datas = append(datas, sv.Data)
			versions = append(versions, sv.Version)
			ats = append(ats, sv.Now.UTC())
			deliveries = append(deliveries, sv.Delivery)
			var due *time.Time
			if !sv.Deadline.IsZero() {
				d := sv.Deadline.UTC()
				due = &d
			}
			deadlines = append(deadlines, due)
			opens = append(opens, sv.Open)
		}
	}
	if len(channels) == 0 && len(firstIDs) == 0 {
		return nil
	}
	return []any{channels, guilds, datas, versions, ats, deliveries, deadlines, firstIDs, firstAts, opens}
}

// answer reads batchStatement's rows and sets the answer of each op of the
// round it ran.
func answer(rows pgx.Rows, round []*groupcommit.Op) error {
	defer rows.Close()
	got := map[string]map[string]bool{"dup": {}, "won": {}, "first": {}, "checked": {}}
	for rows.Next() {
		var kind, key string
		if err := rows.Scan(&kind, &key); err != nil {
			return err
		}
		got[kind][key] = true
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, op := range round {
		switch {
		case op.Kind == groupcommit.Delivery:
			op.Out = groupcommit.Result{OK: got["first"][op.ID]}
		case op.Kind != groupcommit.Save:
		case got["dup"][op.Save.Channel]:
			op.Out = groupcommit.Result{Dup: true}
		case got["won"][op.Save.Channel]:
			op.Out = groupcommit.Result{Version: op.Save.Version + 1, OK: true}
		default:
			op.Out = groupcommit.Result{} // lost the swap
		}
	}
	return nil
}

// ratingArgs are qNewRatings' arguments (keys with their fresh standings)
// and qLockRatings'.
func ratingArgs(keys []results.Key, fresh []table.Standing) (newArgs, lockArgs []any) {
	scopes, kinds, players := make([]string, len(keys)), make([]string, len(keys)), make([]string, len(keys))
	mus, sigmas := make([]float64, len(keys)), make([]float64, len(keys))
	for i, k := range keys {
		scopes[i], kinds[i], players[i] = k.Scope, k.Kind.String(), k.Player
		mus[i], sigmas[i] = fresh[i].Rating.Mu, fresh[i].Rating.Sigma
	}
	return []any{scopes, kinds, players, mus, sigmas}, []any{scopes, kinds, players}
}

// updateArgs are qUpdateRatings' arguments: keys' standings in cur.
func updateArgs(keys []results.Key, cur map[results.Key]table.Standing) []any {
	n := len(keys)
	scopes, kinds, players := make([]string, n), make([]string, n), make([]string, n)
	mus, sigmas, games := make([]float64, n), make([]float64, n), make([]int64, n)
	for i, k := range keys {
		st := cur[k]
		scopes[i], kinds[i], players[i] = k.Scope, k.Kind.String(), k.Player
		mus[i], sigmas[i], games[i] = st.Rating.Mu, st.Rating.Sigma, int64(st.Games)
	}
	return []any{scopes, kinds, players, mus, sigmas, games}
}

// unsent reports whether a statement that failed with err committed
// nothing: PostgreSQL refused it, or it never left (pgx knows when nothing
// was written to the connection). After a connection lost mid-statement it
// may have committed.
func unsent(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) || pgconn.SafeToRetry(err)
}
