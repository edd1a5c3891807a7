package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/tttbot/tttbot/store/internal/groupcommit"
	"github.com/tttbot/tttbot/store/internal/results"
	"github.com/tttbot/tttbot/table"
)

// The writer's statements, prepared once on the write pool when the store
// opens: later, while the writer holds the pool's one connection, preparing
// on the pool would wait for that connection forever. Tx.StmtContext
// prepares them on the transaction's own connection when it is new.
const (
	qRecordDelivery = `INSERT INTO handled_interactions (id, handled_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING`
	qForgetDelivery = `DELETE FROM handled_interactions WHERE id = ?`
	qInsertTable    = `INSERT INTO channel_tables (channel, guild, data, version, updated_at, open_game)
			VALUES (?, ?, ?, 1, ?, ?) ON CONFLICT (channel) DO NOTHING`
	qUpdateTable = `UPDATE channel_tables SET data = ?, guild = ?, version = version + 1, updated_at = ?, open_game = ?
			WHERE channel = ? AND version = ?`
	// qUpdateTableSameOpen is qUpdateTable for a row whose open_game is
	// known to keep its value (written): not setting it leaves the index of
	// open games alone.
	qUpdateTableSameOpen = `UPDATE channel_tables SET data = ?, guild = ?, version = version + 1, updated_at = ?
			WHERE channel = ? AND version = ?`
	qDeleteDeadline = `DELETE FROM clock_deadlines WHERE channel = ?`
	qSetDeadline    = `INSERT INTO clock_deadlines (channel, due_at) VALUES (?, ?)
			ON CONFLICT (channel) DO UPDATE SET due_at = excluded.due_at`
	qProbe = `INSERT INTO store_probe (id, probes) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET probes = store_probe.probes + 1`
	// qPrune finds the old IDs by the primary key (groupcommit.SnowflakeAt);
	// handled_at keeps it exact.
	qPrune = `DELETE FROM handled_interactions WHERE id < ? AND handled_at < ?`

	// A finished game's result and its players' ratings: a dozen
	// statements a game, which parsing made cost as much as a game's moves.
	qInsertResultPlayer = `INSERT INTO result_players (result_id, scope, player, seat, outcome, finish, place) VALUES (?, ?, ?, ?, ?, ?, ?)`
	qReadRating         = `SELECT mu, sigma, games FROM ratings WHERE scope = ? AND kind = ? AND player = ?`
	qWriteRating        = `INSERT INTO ratings (scope, kind, player, mu, sigma, games) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (scope, kind, player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games`
)

// prepareWriter prepares the writer's statements on wdb; one that fails to
// prepare runs as text.
func (st *statements) prepareWriter(ctx context.Context, wdb *sql.DB) {
	for _, q := range []string{qRecordDelivery, qForgetDelivery, qInsertTable, qUpdateTable, qUpdateTableSameOpen, qDeleteDeadline, qSetDeadline,
		results.Insert, qInsertResultPlayer, qReadRating, qWriteRating} {
		st.prepared(ctx, wdb, q)
	}
}

// committer writes SQLite's batches: one transaction, the ops one after
// another. The transaction holds the file's write lock from BEGIN, so
// nothing it reads can change before its COMMIT.
type committer struct {
	wdb          *sql.DB
	stmts        *statements
	written      *written
	beforeCommit func(int)
}

// tx is the batch's transaction, running the prepared statements.
type tx struct {
	*sql.Tx
	c committer
	// bound holds the prepared statements bound to this transaction, each
	// bound once a batch: binding (Tx.StmtContext) builds a new sql.Stmt
	// every time, and a batch runs the same few statements for every op.
	bound map[string]*sql.Stmt
}

// stmt is query's prepared statement bound to the transaction; nil when it
// was not prepared (it then runs as text).
func (t tx) stmt(ctx context.Context, query string) *sql.Stmt {
	if s, ok := t.bound[query]; ok {
		return s
	}
	p, ok := t.c.stmts.m.Load(stmtKey{t.c.wdb, query})
	if !ok {
		return nil
	}
	s := t.StmtContext(ctx, p.(*sql.Stmt))
	t.bound[query] = s
	return s
}

func (t tx) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if s := t.stmt(ctx, query); s != nil {
		return s.ExecContext(ctx, args...)
	}
	return t.ExecContext(ctx, query, args...)
}

func (t tx) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	if s := t.stmt(ctx, query); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return t.QueryRowContext(ctx, query, args...)
}

// Commit implements groupcommit.Committer. Finished games' results are
// written after the ops, all together, unless each op runs alone: then
// each result lands or fails inside its save's savepoint.
//
// The batch's statements run without ctx's deadline. The driver watches a
// context that can end with a goroutine, a progress handler and a busy
// handler set up for every statement, a fifth of the store's CPU a save at
// 64 channels (BenchmarkDurableSaves); and what the deadline guards
// against here is bounded
// without it: the write lock is taken at BEGIN, and a wait for it ends
// with busy_timeout (10 s, within the batch's bound), while every
// statement after is a lookup by key.
func (c committer) Commit(ctx context.Context, conn *sql.Conn, b groupcommit.Batch, alone bool) (sent bool, err error) {
	ctx = context.WithoutCancel(ctx)
	sqlTx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("store: begin: %w", err)
	}
	defer sqlTx.Rollback()
	t := tx{sqlTx, c, make(map[string]*sql.Stmt)}
	var finished []*table.Result
	var at []time.Time
	err = groupcommit.Each(ctx, sqlTx, b.Ops, alone, func(op *groupcommit.Op) error {
		op.Out = t.apply(ctx, op)
		if op.Out.Err != nil || !op.Out.OK || op.Kind != groupcommit.Save || op.Save.Result == nil {
			return op.Out.Err
		}
		if alone {
			return t.recordResults(ctx, []*table.Result{op.Save.Result}, []time.Time{op.Save.Now})
		}
		finished, at = append(finished, op.Save.Result), append(at, op.Save.Now)
		return nil
	})
	if err != nil {
		return false, err
	}
	if len(finished) > 0 {
		if err := t.recordResults(ctx, finished, at); err != nil {
			return false, fmt.Errorf("%w: %w", groupcommit.ErrOpFailed, err)
		}
	}
	if !b.PruneBefore.IsZero() {
		prune := func() error {
			_, err := t.ExecContext(ctx, qPrune, groupcommit.SnowflakeAt(b.PruneBefore), stamp(b.PruneBefore))
			return err
		}
		if alone { // a failed prune only waits for the next
			err = groupcommit.InSavepoint(ctx, sqlTx, prune)
		} else if err = prune(); err != nil {
			err = fmt.Errorf("%w: prune handled interactions: %w", groupcommit.ErrOpFailed, err)
		}
		if err != nil {
			return false, err
		}
	}
	if c.beforeCommit != nil {
		c.beforeCommit(len(b.Ops))
	}
	if err := sqlTx.Commit(); err != nil {
		return true, fmt.Errorf("store: commit: %w", err)
	}
	c.written.committed(b.Ops)
	return true, nil
}

// apply runs one op's statements.
func (t tx) apply(ctx context.Context, op *groupcommit.Op) groupcommit.Result {
	switch op.Kind {
	case groupcommit.Save:
		return t.save(ctx, op.Save)
	case groupcommit.Delivery:
		first, err := t.recordDelivery(ctx, op.ID, op.At)
		return groupcommit.Result{OK: first, Err: err}
	case groupcommit.Probe:
		if _, err := t.ExecContext(ctx, qProbe); err != nil {
			return groupcommit.Result{Err: fmt.Errorf("write probe: %w", err)}
		}
		return groupcommit.Result{OK: true}
	}
	return groupcommit.Result{Err: fmt.Errorf("store: unknown op %d", op.Kind)}
}

// save is the one place SQLite writes a table save: its delivery recorded,
// the compare-and-swap on the version, then, if it won, the channel's clock
// deadline. A lost swap (OK=false) and a delivery recorded before (Dup) are
// this save's answers, not errors, and leave nothing written: the delivery
// goes first, so a duplicate has written nothing yet, and a lost swap
// deletes the delivery it just recorded. What the row is known to hold
// (written) spares the statements that would write nothing new. A
// finished game's result is written by recordResults.
func (t tx) save(ctx context.Context, save table.Save) groupcommit.Result {
	fail := func(err error) groupcommit.Result { return groupcommit.Result{Err: fmt.Errorf("save table: %w", err)} }
	if save.Delivery != "" {
		first, err := t.recordDelivery(ctx, save.Delivery, save.Now)
		if err != nil {
			return fail(err)
		}
		if !first {
			return groupcommit.Result{Dup: true}
		}
	}
	var res sql.Result
	var err error
	prior, known := t.c.written.prior(save)
	switch {
	case save.Version == 0:
		res, err = t.exec(ctx, qInsertTable, save.Channel, save.Guild, save.Data, stamp(save.Now), save.Open)
	case known && prior.open == save.Open:
		res, err = t.exec(ctx, qUpdateTableSameOpen, save.Data, save.Guild, stamp(save.Now), save.Channel, save.Version)
	default:
		res, err = t.exec(ctx, qUpdateTable, save.Data, save.Guild, stamp(save.Now), save.Open, save.Channel, save.Version)
	}
	if err != nil {
		return fail(err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fail(err)
	} else if n == 0 { // someone else wrote first
		if save.Delivery != "" {
			if _, err := t.exec(ctx, qForgetDelivery, save.Delivery); err != nil {
				return fail(fmt.Errorf("forget delivery: %w", err))
			}
		}
		return groupcommit.Result{}
	}
	switch {
	case save.Deadline.IsZero() && known && !prior.deadline: // nothing to delete
	case save.Deadline.IsZero():
		_, err = t.exec(ctx, qDeleteDeadline, save.Channel)
	default:
		_, err = t.exec(ctx, qSetDeadline, save.Channel, stamp(save.Deadline))
	}
	if err != nil {
		return fail(fmt.Errorf("save deadline: %w", err))
	}
	return groupcommit.Result{Version: save.Version + 1, OK: true}
}

// recordDelivery records an interaction ID as handled at now, and reports
// whether it was new.
func (t tx) recordDelivery(ctx context.Context, id string, now time.Time) (bool, error) {
	res, err := t.exec(ctx, qRecordDelivery, id, stamp(now))
	if err != nil {
		return false, fmt.Errorf("record delivery: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("record delivery: %w", err)
	}
	return n == 1, nil
}

// recordResults writes the results of finished games (each of whose saves
// won its compare-and-swap), recorded at at, and moves their players'
// ratings, in order: a player in two of them is rated by the first, then
// the second.
func (t tx) recordResults(ctx context.Context, rs []*table.Result, at []time.Time) error {
	for i, r := range rs {
		if err := t.insertResult(ctx, at[i], r); err != nil {
			return fmt.Errorf("record result: %w", err)
		}
	}
	if err := t.rate(ctx, rs); err != nil {
		return fmt.Errorf("rate result: %w", err)
	}
	return nil
}

// insertResult writes r and its players.
func (t tx) insertResult(ctx context.Context, now time.Time, r *table.Result) error {
	row, err := results.RowOf(now, r, stamp)
	if err != nil {
		return err
	}
	// Run as an exec, the row RETURNING gives is stepped past unread: its
	// id is the rowid just inserted, and a Result costs less than the Rows
	// a query reads it through.
	res, err := t.exec(ctx, results.Insert, row.Game...)
	if err != nil {
		return err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return err
	}
	for i, p := range row.Players {
		if _, err := t.exec(ctx, qInsertResultPlayer, id, r.Scope, p, row.Seats[i], row.Outcomes[i], row.Finishes[i], row.Places[i]); err != nil {
			return err
		}
	}
	return nil
}

// rate moves the ratings of rs's players by their games: each row read (a
// player's first game of a kind in a scope has none: its standing is
// fresh), all computed, then each written, created if new. The
// transaction holds the write lock from BEGIN, so nothing changes a row
// between its read and its write; a row is read and written by two
// statements, not created, read and updated by three.
func (t tx) rate(ctx context.Context, rs []*table.Result) error {
	keys := results.Keys(rs)
	if len(keys) == 0 {
		return nil
	}
	fresh := results.Fresh(keys)
	cur := make(map[results.Key]table.Standing, len(keys))
	for i, k := range keys {
		st := fresh[i]
		err := t.queryRow(ctx, qReadRating, k.Scope, k.Kind.String(), k.Player).Scan(&st.Rating.Mu, &st.Rating.Sigma, &st.Games)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		cur[k] = st
	}
	if err := results.Rate(cur, rs); err != nil {
		return err
	}
	for _, k := range keys {
		st := cur[k]
		if _, err := t.exec(ctx, qWriteRating, k.Scope, k.Kind.String(), k.Player, st.Rating.Mu, st.Rating.Sigma, st.Games); err != nil {
			return err
		}
	}
	return nil
}
