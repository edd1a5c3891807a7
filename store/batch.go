package store

import (
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tttbot/tttbot/table"
)

// Group commit. One goroutine (write) owns the write connection. Every
// durable write (a table save, a first delivery, a readiness probe) is an op
// put on the queue; the writer takes whatever queued while the last COMMIT
// was flushing, runs it in one transaction with a SAVEPOINT per op, COMMITs
// once (the one fsync), and only then answers each op. No timer: a lone
// write goes at once, and under load batches grow by themselves.
//
// Hooks for other files: whatever else a save makes durable (deadlines) is
// written by saveExtras, called inside the save's savepoint after its
// compare-and-swap won, with the batch's *sql.Tx. Such functions must only
// run statements on that tx (never Commit or Rollback it); an error they
// return rolls back that save alone and becomes its answer. Finished games'
// results and ratings are written once a batch for all its saves
// (recordResults); when that fails, the batch runs again with a savepoint
// an op, and each op writes its own result inside it.

// maxBatch bounds one transaction: enough to cover every channel that can
// be waiting at once, small enough that one COMMIT never holds the write
// lock for long.
const maxBatch = 256

// batchWithin bounds one batch's statements: callers wait past their own
// contexts (their save may commit), so the writer needs its own bound.
const batchWithin = 30 * time.Second

// pruneEvery is how often the writer deletes handled interaction IDs older
// than keepDeliveries.
const pruneEvery = 10 * time.Minute

// keepDeliveries is how long an interaction ID is remembered. Discord
// answers an interaction only within 3 s and its token lives 15 minutes; it
// does not redeliver one a day later, and a signature older than five
// minutes is refused anyway (bot/httpapi), so a replay cannot come later.
const keepDeliveries = 24 * time.Hour

// ErrClosed is returned by writes after Close.
var ErrClosed = errors.New("store: closed")

type opKind int

const (
	opSave     opKind = iota // a table save
	opDelivery               // FirstDelivery: record an interaction ID
	opProbe                  // Ready: prove the store still writes
	opFunc                   // inBatch: any other write
)

// writeOp is one durable write waiting for its COMMIT.
type writeOp struct {
	kind opKind
	save table.Save                                  // opSave
	id   string                                      // opDelivery
	now  time.Time                                   // opDelivery
	f    func(ctx context.Context, tx *sql.Tx) error // opFunc
	out  writeResult
	// grouped: saveMany did the swap (and the delivery and the deadline)
	// and set out; only a finished game's result remains.
	grouped bool
	done    chan writeResult // buffered 1: the answer, sent after COMMIT
}

type writeResult struct {
	version int64 // opSave: the new version
	ok      bool  // opSave: the swap won; opDelivery: first delivery
	// dup (opSave): the save's delivery was recorded already, so the save
	// changed nothing. An answer, not a failure.
	dup bool
	err error
}

// delivered is the interaction ID op records as handled, and when; "" when
// none.
func (op *writeOp) delivered() (string, time.Time) {
	switch op.kind {
	case opDelivery:
		return op.id, op.now
	case opSave:
		return op.save.Delivery, op.save.Now
	}
	return "", time.Time{}
}

// key is the row op writes.
func (op *writeOp) key() string {
	if op.kind == opSave {
		return op.save.Channel
	}
	return op.id
}

// do hands op to the writer and waits for its answer. Once op is queued,
// the caller waits for the answer even past ctx: the write may commit, and
// the bot must not say nothing changed when something did.
//
// A readiness probe (wait=false) is no user's action: it gives up at ctx.
func (s *SQL) do(ctx context.Context, op *writeOp, wait bool) writeResult {
	op.done = make(chan writeResult, 1)
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return writeResult{err: ErrClosed}
	}
	select {
	case s.queue <- op:
	case <-ctx.Done():
		s.mu.RUnlock()
		return writeResult{err: ctx.Err()}
	}
	s.mu.RUnlock()
	if !wait {
		select {
		case r := <-op.done:
			return r
		case <-ctx.Done():
			return writeResult{err: ctx.Err()}
		}
	}
	return <-op.done
}

// write is the writer goroutine: it drains the queue in batches until
// Close closes it.
func (s *SQL) write() {
	defer close(s.stopped)
	batch := make([]*writeOp, 0, maxBatch)
	for first := range s.queue {
		batch = append(batch[:0], first)
	drain:
		for len(batch) < maxBatch {
			select {
			case op, ok := <-s.queue:
				if !ok {
					break drain
				}
				batch = append(batch, op)
			default:
				break drain
			}
		}
		s.runBatch(batch)
		clear(batch) // let the answered ops go
	}
}

// runBatch commits batch and answers every op in it.
//
// The fast path runs the ops one after another with no savepoints: on
// PostgreSQL each savepoint is two more round trips per op, and ops rarely
// fail (a lost compare-and-swap is an answer, not a failure). When an op
// does fail, that transaction rolls back and the batch runs again with a
// savepoint around each op, so the failure stays that op's own.
//
// A batch that failed before its COMMIT was sent committed nothing, so it is
// retried once on a fresh connection (a PostgreSQL backend terminated under
// a pooled connection costs no request); a failed COMMIT is not retried,
// since it may have landed.
func (s *SQL) runBatch(batch []*writeOp) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), batchWithin)
	defer cancel()
	// Rows are locked in one order, whichever replica writes: two batches on
	// one PostgreSQL cannot deadlock over channels or interaction IDs.
	// Stable, so saves of one channel keep their arrival order.
	slices.SortStableFunc(batch, func(a, b *writeOp) int {
		return cmp.Or(cmp.Compare(a.kind, b.kind), strings.Compare(a.key(), b.key()))
	})
	sent, err := s.commitBatch(ctx, batch, false)
	if errors.Is(err, errOpFailed) {
		sent, err = s.commitBatch(ctx, batch, true)
	}
	if err != nil && !sent {
		_, err = s.commitBatch(ctx, batch, true)
	}
	s.health.record(err, batch)
	s.busy.Add(int64(time.Since(start)))
	if err == nil {
		s.writes.Add(int64(len(batch)))
	}
	for _, op := range batch {
		if err != nil {
			op.out = writeResult{err: err}
		}
		op.done <- op.out
	}
}

// errOpFailed stops a batch run without savepoints at its first failing op.
var errOpFailed = errors.New("store: an op failed")

// commitBatch runs batch in one transaction on the write connection, with a
// savepoint around each op or none (then failing at the first failing op).
// sentCommit says whether COMMIT was attempted. After any failure, the
// connection is discarded, so the next batch opens a fresh one: a SQLite
// file made writable again, or a PostgreSQL backend restarted, is picked up
// without restarting the bot.
func (s *SQL) commitBatch(ctx context.Context, batch []*writeOp, savepoints bool) (sentCommit bool, err error) {
	conn, err := s.wdb.Conn(ctx)
	if err != nil {
		return false, fmt.Errorf("store: write connection: %w", err)
	}
	failed := false
	defer func() {
		if err != nil || failed {
			conn.Raw(func(any) error { return driver.ErrBadConn }) // close it, not pool it
		}
		conn.Close()
	}()
	if !savepoints && s.oneStatement(batch) {
		sent, err := s.commitStatement(ctx, conn, batch)
		if err != nil && !sent {
			// Refused, or never sent: run it again the usual way, with
			// a savepoint around each op if it was one op's fault.
			err = fmt.Errorf("%w: %w", errOpFailed, err)
		}
		return sent, err
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("store: begin: %w", err)
	}
	defer tx.Rollback()
	run := func(f func() error) error {
		if savepoints {
			return s.inSavepoint(ctx, tx, f)
		}
		if err := f(); err != nil {
			return fmt.Errorf("%w: %w", errOpFailed, err)
		}
		return nil
	}
	for _, op := range batch {
		op.grouped = false
	}
	if !savepoints && s.d.unnest {
		if err := s.saveMany(ctx, tx, batch); err != nil {
			return false, fmt.Errorf("%w: %w", errOpFailed, err)
		}
	}
	var newest time.Time
	var finished []*writeOp // without savepoints: saves whose results are still to write
	for _, op := range batch {
		apply := func() error {
			if !op.grouped { // saveMany did the grouped ones' saves
				op.out = s.apply(ctx, tx, op)
			}
			if op.out.err != nil || !op.out.ok || op.kind != opSave || op.save.Result == nil {
				return op.out.err
			}
			if !savepoints {
				finished = append(finished, op)
				return nil
			}
			// In its own savepoint, the result fails or lands with its save.
			if err := s.recordResults(ctx, tx, []table.Save{op.save}); err != nil {
				op.out = writeResult{err: err}
			}
			return op.out.err
		}
		if op.grouped && !op.out.ok {
			continue
		}
		if err := run(apply); err != nil {
			return false, err
		}
		failed = failed || op.out.err != nil
		if id, at := op.delivered(); id != "" && at.After(newest) {
			newest = at
		}
	}
	if len(finished) > 0 {
		// All at once (a few statements, not a dozen a game); should it
		// fail, the batch runs again with a savepoint an op, and the
		// failure is the op's own.
		saves := make([]table.Save, len(finished))
		for i, op := range finished {
			saves[i] = op.save
		}
		if err := run(func() error { return s.recordResults(ctx, tx, saves) }); err != nil {
			return false, err
		}
	}
	if !newest.IsZero() && newest.Sub(s.pruned) > pruneEvery {
		if err := run(func() error { return s.prune(ctx, tx, newest) }); err != nil {
			return false, err
		}
	}
	if s.beforeCommit != nil {
		s.beforeCommit(len(batch))
	}
	if err := tx.Commit(); err != nil {
		return true, fmt.Errorf("store: commit: %w", err)
	}
	if !newest.IsZero() && newest.Sub(s.pruned) > pruneEvery {
		s.pruned = newest
	}
	s.commits.Add(1)
	return true, nil
}

// inSavepoint runs f inside a savepoint: when f fails, only its own writes
// roll back and the batch goes on. The error returned is the savepoint's
// own (the transaction is broken); f's error is f's to report.
func (s *SQL) inSavepoint(ctx context.Context, tx *sql.Tx, f func() error) error {
	if _, err := tx.ExecContext(ctx, "SAVEPOINT op"); err != nil {
		return fmt.Errorf("store: savepoint: %w", err)
	}
	if f() != nil {
		if _, err := tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT op"); err != nil {
			return fmt.Errorf("store: rollback to savepoint: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, "RELEASE SAVEPOINT op"); err != nil {
		return fmt.Errorf("store: release savepoint: %w", err)
	}
	return nil
}

// apply runs one op's statements on tx.
func (s *SQL) apply(ctx context.Context, tx *sql.Tx, op *writeOp) writeResult {
	switch op.kind {
	case opSave:
		return s.saveInTx(ctx, tx, op.save)
	case opDelivery:
		first, err := s.recordDelivery(ctx, tx, op.id, op.now)
		return writeResult{ok: first, err: err}
	case opProbe:
		_, err := tx.ExecContext(ctx, `INSERT INTO store_probe (id, probes) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET probes = store_probe.probes + 1`)
		if err != nil {
			return writeResult{err: fmt.Errorf("write probe: %w", err)}
		}
		return writeResult{ok: true}
	case opFunc:
		return writeResult{ok: true, err: op.f(ctx, tx)}
	}
	return writeResult{err: fmt.Errorf("store: unknown op %d", op.kind)}
}

// inBatch runs f inside the next batch's transaction, in a savepoint of its
// own, and returns once the COMMIT covering it is durable (or f's error,
// having changed nothing). It is how a write that is not part of a table
// save (a clock enforced at start, a cleanup) reaches the database: the
// read pool (s.db) is read-only on SQLite, and the write connection belongs
// to the writer. f may run more than once (a batch is retried when its
// connection died before COMMIT, or re-run with savepoints when another op
// failed), so it must only run statements on tx and keep no state of its
// own between runs; it must not Commit or Rollback tx. Like a save, once
// queued it waits for its answer past ctx.
func (s *SQL) inBatch(ctx context.Context, f func(ctx context.Context, tx *sql.Tx) error) error {
	return s.do(ctx, &writeOp{kind: opFunc, f: f}, true).err
}

// saveInTx is one table save inside the batch: its delivery recorded, the
// compare-and-swap on the version, then, if it won, saveExtras. A lost swap
// (ok=false) and a delivery recorded before (dup) are this save's answers,
// not errors, and leave nothing written: the delivery goes first, so a
// duplicate has written nothing yet, and a lost swap deletes the delivery
// it just inserted. No savepoint is needed for either.
func (s *SQL) saveInTx(ctx context.Context, tx *sql.Tx, save table.Save) writeResult {
	if save.Delivery != "" {
		first, err := s.recordDelivery(ctx, tx, save.Delivery, save.Now)
		if err != nil {
			return writeResult{err: err}
		}
		if !first {
			return writeResult{dup: true}
		}
	}
	var res sql.Result
	var err error
	if save.Version == 0 {
		res, err = s.execTx(ctx, tx, qInsertTable, save.Channel, save.Guild, save.Data, s.d.stamp(save.Now))
	} else {
		res, err = s.execTx(ctx, tx, qUpdateTable, save.Data, save.Guild, s.d.stamp(save.Now), save.Channel, save.Version)
	}
	if err != nil {
		return writeResult{err: fmt.Errorf("save table: %w", err)}
	}
	if n, err := res.RowsAffected(); err != nil {
		return writeResult{err: fmt.Errorf("save table: %w", err)}
	} else if n == 0 { // someone else wrote first
		if save.Delivery != "" {
			if err := s.forgetDeliveries(ctx, tx, []string{save.Delivery}); err != nil {
				return writeResult{err: err}
			}
		}
		return writeResult{}
	}
	if err := s.saveExtras(ctx, tx, save); err != nil {
		return writeResult{err: err}
	}
	return writeResult{version: save.Version + 1, ok: true}
}

// recordDelivery records an interaction ID as handled at now, and reports
// whether it was new.
func (s *SQL) recordDelivery(ctx context.Context, tx *sql.Tx, id string, now time.Time) (bool, error) {
	res, err := s.execTx(ctx, tx, qRecordDelivery,
		id, s.d.stamp(now))
	if err != nil {
		return false, fmt.Errorf("record delivery: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("record delivery: %w", err)
	}
	return n == 1, nil
}

// forgetDeliveries deletes interaction IDs this transaction just recorded
// for saves that then lost their compare-and-swap: those interactions were
// not applied, so they are not handled.
func (s *SQL) forgetDeliveries(ctx context.Context, tx *sql.Tx, ids []string) error {
	var err error
	if s.d.unnest {
		_, err = tx.ExecContext(ctx, `DELETE FROM handled_interactions WHERE id = ANY($1::text[])`, ids)
	} else {
		for _, id := range ids {
			if _, err = tx.ExecContext(ctx, `DELETE FROM handled_interactions WHERE id = ?`, id); err != nil {
				break
			}
		}
	}
	if err != nil {
		return fmt.Errorf("forget deliveries: %w", err)
	}
	return nil
}

// saveMany does a batch's table saves (PostgreSQL) in one statement
// whatever the batch's size, batchStatement, inside the batch's
// transaction: on PostgreSQL, round trips on the one write connection are
// what a batch costs besides its COMMIT, and one save the ordinary way
// takes three (its delivery, its swap, its deadline). It is the path of a
// batch with a finished game that also holds what batchStatement does not
// take (a new channel, another kind of write); the caller writes the
// results and ratings next in the same transaction. A batch of moves alone,
// finished games or not, takes the pipeline (pipeline.go).
//
// Inserts (version 0), a channel's second save in the batch, and a save
// whose interaction ID an earlier save of the batch carries go the ordinary
// way, op by op, after it (the last then finds the ID recorded: a
// duplicate). Each grouped op gets grouped=true and its answer; a finished
// game's result is still to write.
func (s *SQL) saveMany(ctx context.Context, tx *sql.Tx, batch []*writeOp) error {
	var (
		ops     []*writeOp
		seen    = map[string]bool{}
		claimed = map[string]bool{}
	)
	for _, op := range batch {
		if op.kind != opSave || op.save.Version == 0 || seen[op.save.Channel] {
			continue
		}
		seen[op.save.Channel] = true
		if id := op.save.Delivery; id != "" {
			if claimed[id] {
				continue
			}
			claimed[id] = true
		}
		ops = append(ops, op)
	}
	if len(ops) == 0 {
		return nil
	}
	if err := runStatement(ctx, tx, ops); err != nil {
		return fmt.Errorf("save tables: %w", err)
	}
	for _, op := range ops {
		op.grouped = true
	}
	return nil
}

// prune forgets interaction IDs handled more than keepDeliveries before now.
//
// It finds them by ID, so that handled_interactions needs no index of its
// own on handled_at (one index fewer to write with every move: a durable
// save took 24.2 µs with it and 21.9 µs without, BenchmarkDurableSaves on
// SQLite with 64 channels).
// Discord's IDs are snowflakes, which begin with their time, and every one
// of this era has 19 digits, so as text they sort by time and the primary
// key finds the old ones. handled_at keeps the prune exact: an ID that sorts
// low without being old (none comes from Discord) stays its day.
func (s *SQL) prune(ctx context.Context, tx *sql.Tx, now time.Time) error {
	cutoff := now.Add(-keepDeliveries)
	_, err := tx.ExecContext(ctx, s.d.q(`DELETE FROM handled_interactions WHERE id < ? AND handled_at < ?`), snowflakeAt(cutoff), s.d.stamp(cutoff))
	return err
}

// discordEpoch is where snowflakes' time begins: the first millisecond of
// 2015, UTC, in Unix milliseconds.
const discordEpoch = 1420070400000

// snowflakeAt is the lowest snowflake of the millisecond t, in decimal.
func snowflakeAt(t time.Time) string {
	return strconv.FormatInt(max(t.UnixMilli()-discordEpoch, 0)<<22, 10)
}
