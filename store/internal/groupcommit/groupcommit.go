// Package groupcommit is the durable stores' writer: one goroutine owns the
// write connection; every durable write (a table save, a handled
// interaction, a readiness probe) is an Op put on its queue; the writer
// takes whatever queued while the last COMMIT was flushing, hands it to the
// database's Committer as one Batch, and only after that COMMIT answers each
// op. No timer: a lone write goes at once, and under load batches grow by
// themselves. It knows no SQL dialect: what a batch writes, and how, is the
// Committer's.
package groupcommit

import (
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/table"
)

// maxBatch bounds one transaction: enough to cover every channel that can
// be waiting at once, small enough that one COMMIT never holds the write
// lock for long.
const maxBatch = 256

// batchWithin bounds one batch's statements: callers wait past their own
// contexts (their save may commit), so the writer needs its own bound.
const batchWithin = 30 * time.Second

// Kind is what an Op writes.
type Kind int

// The kinds of durable write.
const (
	Save     Kind = iota // a table save (Op.Save)
	Delivery             // an interaction ID recorded as handled (Op.ID at Op.At)
	Probe                // readiness: prove the store still writes
)

// Op is one durable write waiting for its COMMIT.
type Op struct {
	Kind Kind
	Save table.Save // Save
	ID   string     // Delivery
	At   time.Time  // Delivery: the application's time it was handled
	// Out is the op's answer, which the Committer sets.
	Out  Result
	done chan Result // buffered 1: the answer, sent after COMMIT
}

// Result is an op's answer.
type Result struct {
	Version int64 // Save: the new version
	OK      bool  // Save: the swap won; Delivery: its first record; Probe: written
	// Dup (Save): the save's delivery was recorded already, so the save
	// changed nothing. An answer, not a failure.
	Dup bool
	Err error
}

// Delivered is the interaction ID op records as handled, and when; "" when
// none.
func (op *Op) Delivered() (string, time.Time) {
	switch op.Kind {
	case Delivery:
		return op.ID, op.At
	case Save:
		return op.Save.Delivery, op.Save.Now
	}
	return "", time.Time{}
}

// key is the row op writes.
func (op *Op) key() string {
	if op.Kind == Save {
		return op.Save.Channel
	}
	return op.ID
}

// Batch is what one transaction writes.
type Batch struct {
	// Ops are in one order whichever replica writes (by kind, then by
	// channel or interaction ID; a channel's saves in arrival order), so
	// two batches on one database lock rows in one order and cannot
	// deadlock.
	Ops []*Op
	// PruneBefore, when not zero, asks the batch to delete the interaction
	// IDs handled before it (see SnowflakeAt).
	PruneBefore time.Time
}

// ErrOpFailed is what a Committer returns, wrapped, when an op failed in a
// batch run without savepoints: nothing committed, and the writer runs the
// batch again with each op alone.
var ErrOpFailed = errors.New("store: an op failed")

// A Committer writes batches for one database.
type Committer interface {
	// Commit runs b in one transaction on conn and sets each op's Out. With
	// alone=false the ops share the transaction with no savepoints, and the
	// first op that fails stops it with an error wrapping ErrOpFailed. With
	// alone=true each op runs in a savepoint of its own, so its failure is
	// only its Out.Err. sent reports whether the COMMIT was sent (a batch
	// that failed before it committed nothing and may run again).
	Commit(ctx context.Context, conn *sql.Conn, b Batch, alone bool) (sent bool, err error)
}

// Writer is the writer goroutine, its queue and what it has learnt.
type Writer struct {
	db *sql.DB // the write pool: only the writer takes connections from it
	c  Committer

	mu      sync.RWMutex // guards closed against sends on queue
	closed  bool
	queue   chan *Op
	stopped chan struct{} // closed when the writer has answered everything

	pruned                time.Time // the application's time of the last prune (the writer's own)
	health                health
	commits, writes, busy atomic.Int64
}

// Start starts the writer over db's connections, writing with c.
func Start(db *sql.DB, c Committer) *Writer {
	w := &Writer{db: db, c: c, queue: make(chan *Op, maxBatch), stopped: make(chan struct{})}
	go w.write()
	return w
}

// Do hands op to the writer and waits for its answer. Once op is queued,
// the caller waits for the answer even past ctx: the write may commit, and
// the bot must not say nothing changed when something did. (Ready's probe,
// no user's action, gives up at ctx.)
func (w *Writer) Do(ctx context.Context, op *Op) Result {
	if err := w.enqueue(ctx, op); err != nil {
		return Result{Err: err}
	}
	if op.Kind == Probe {
		select {
		case r := <-op.done:
			return r
		case <-ctx.Done():
			return Result{Err: ctx.Err()}
		}
	}
	return <-op.done
}

// Enqueue hands op to the next batch without waiting for its COMMIT: for
// writes nothing the user sees depends on. It waits for room in the queue,
// up to ctx, and drops op once the writer is closed.
func (w *Writer) Enqueue(ctx context.Context, op *Op) {
	w.enqueue(ctx, op)
}

func (w *Writer) enqueue(ctx context.Context, op *Op) error {
	op.done = make(chan Result, 1)
	w.mu.RLock()
	defer w.mu.RUnlock()
	if w.closed {
		return store.ErrClosed
	}
	select {
	case w.queue <- op:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close answers every write already queued and stops the writer; writes
// after it fail with store.ErrClosed. It closes no database.
func (w *Writer) Close() {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	w.closed = true
	close(w.queue)
	w.mu.Unlock()
	<-w.stopped
}

// WriteStats reports the writer's totals; safe to call from any goroutine.
func (w *Writer) WriteStats() store.WriteStats {
	return store.WriteStats{
		Commits: w.commits.Load(),
		Writes:  w.writes.Load(),
		Busy:    time.Duration(w.busy.Load()),
		Queued:  len(w.queue),
	}
}

// write is the writer goroutine: it drains the queue in batches until
// Close closes it.
func (w *Writer) write() {
	defer close(w.stopped)
	ops := make([]*Op, 0, maxBatch)
	for first := range w.queue {
		ops = append(ops[:0], first)
	drain:
		for len(ops) < maxBatch {
			select {
			case op, ok := <-w.queue:
				if !ok {
					break drain
				}
				ops = append(ops, op)
			default:
				break drain
			}
		}
		w.run(ops)
		clear(ops) // let the answered ops go
	}
}

// run commits ops and answers every one of them.
//
// The first run has no savepoints (on PostgreSQL each is two more round
// trips an op, and ops rarely fail: a lost compare-and-swap is an answer,
// not a failure). When an op does fail, that run committed nothing and the
// batch runs again with each op alone, so the failure stays that op's own.
// A batch that failed before its COMMIT was sent is also run again, on a
// fresh connection (a PostgreSQL backend terminated under a pooled
// connection costs no request); a failed COMMIT is not, since it may have
// landed.
func (w *Writer) run(ops []*Op) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), batchWithin)
	defer cancel()
	slices.SortStableFunc(ops, func(a, b *Op) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), strings.Compare(a.key(), b.key()))
	})
	b := Batch{Ops: ops, PruneBefore: w.pruneBefore(ops)}
	sent, err := w.commit(ctx, b, false)
	if errors.Is(err, ErrOpFailed) {
		sent, err = w.commit(ctx, b, true)
	}
	if err != nil && !sent {
		_, err = w.commit(ctx, b, true)
	}
	w.health.record(err, ops)
	w.busy.Add(int64(time.Since(start)))
	if err == nil {
		w.commits.Add(1)
		w.writes.Add(int64(len(ops)))
		if !b.PruneBefore.IsZero() {
			w.pruned = b.PruneBefore.Add(store.HandledFor)
		}
	}
	for _, op := range ops {
		if err != nil {
			op.Out = Result{Err: err}
		}
		op.done <- op.Out
	}
	if len(w.queue) > 0 {
		// The ops just answered are runnable on this goroutine's
		// processor, and the writer would go straight on to the next
		// batch's statements there: they would wait for its sync, its
		// next blocking call, or the other processor to steal them (a
		// runtime trace at 16 channels: 0.4 ms a request). Yielding lets
		// them write their replies first, and the writes that queue
		// meanwhile join the next batch, whose COMMIT they share.
		runtime.Gosched()
	}
}

// pruneBefore is the cutoff of a prune due with ops (zero when none is):
// one every store.PruneEvery of the application's time, as the newest
// delivery in the batch tells it.
func (w *Writer) pruneBefore(ops []*Op) time.Time {
	var newest time.Time
	for _, op := range ops {
		if id, at := op.Delivered(); id != "" && at.After(newest) {
			newest = at
		}
	}
	if newest.IsZero() || newest.Sub(w.pruned) <= store.PruneEvery {
		return time.Time{}
	}
	return newest.Add(-store.HandledFor)
}

// commit runs one attempt at b on a connection of the write pool. After any
// failure, the batch's or an op's, the connection is discarded, so the next
// batch opens a fresh one: a SQLite file made writable again, or a
// PostgreSQL backend restarted, is picked up without restarting the bot.
func (w *Writer) commit(ctx context.Context, b Batch, alone bool) (sent bool, err error) {
	for _, op := range b.Ops {
		op.Out = Result{}
	}
	conn, err := w.db.Conn(ctx)
	if err != nil {
		return false, fmt.Errorf("store: write connection: %w", err)
	}
	defer conn.Close()
	sent, err = w.c.Commit(ctx, conn, b, alone)
	if err != nil || slices.ContainsFunc(b.Ops, func(op *Op) bool { return op.Out.Err != nil }) {
		conn.Raw(func(any) error { return driver.ErrBadConn }) // close it, not pool it
	}
	return sent, err
}

// Each runs f for every op inside tx, as Committer.Commit's alone says:
// without savepoints the first failure stops it with an error wrapping
// ErrOpFailed; alone, each op runs in a savepoint of its own, and a failure
// rolls back that op's writes only and becomes its Out.Err. f must only run
// statements on tx, and returns the op's failure.
func Each(ctx context.Context, tx *sql.Tx, ops []*Op, alone bool, f func(op *Op) error) error {
	for _, op := range ops {
		if !alone {
			if err := f(op); err != nil {
				return fmt.Errorf("%w: %w", ErrOpFailed, err)
			}
			continue
		}
		if err := InSavepoint(ctx, tx, func() error {
			err := f(op)
			if err != nil {
				op.Out = Result{Err: err}
			}
			return err
		}); err != nil {
			return err
		}
	}
	return nil
}

// InSavepoint runs f inside a savepoint: when f fails, only its own writes
// roll back and the transaction goes on. The error returned is the
// savepoint's own (the transaction is broken); f's error is f's to report.
func InSavepoint(ctx context.Context, tx *sql.Tx, f func() error) error {
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

// discordEpoch is where snowflakes' time begins: the first millisecond of
// 2015, UTC, in Unix milliseconds.
const discordEpoch = 1420070400000

// SnowflakeAt is the lowest snowflake of the millisecond t, in decimal.
// Discord's interaction IDs are snowflakes, which begin with their time,
// and every one of this era has 19 digits, so as text they sort by time:
// a prune finds the old ones on the primary key, and needs no index of its
// own on the time they were handled (one index fewer to write each move).
func SnowflakeAt(t time.Time) string {
	return strconv.FormatInt(max(t.UnixMilli()-discordEpoch, 0)<<22, 10)
}

// Saves is the write side both SQL stores offer through their Writer:
// table saves, delivery records, readiness and write stats. A store embeds
// it, so what a write answers is written once for every database.
type Saves struct{ w *Writer }

// NewSaves returns the write side over w.
func NewSaves(w *Writer) Saves { return Saves{w: w} }

// SaveTable answers as table.Store asks: a compare-and-swap on the
// version, with whatever else the save makes durable in the same
// transaction. It answers only after the COMMIT that covers it, sharing
// that COMMIT (and its fsync) with the other saves queued meanwhile.
func (s Saves) SaveTable(ctx context.Context, save table.Save) (int64, bool, error) {
	r := s.w.Do(ctx, &Op{Kind: Save, Save: save})
	if r.Dup {
		return 0, false, fmt.Errorf("save table: delivery %s: %w", save.Delivery, table.ErrDuplicate)
	}
	return r.Version, r.OK, r.Err
}

// Remember records an interaction ID as handled, for an interaction that
// saved nothing. It does not wait for the COMMIT (nothing the user sees
// depends on it): the record joins the next batch.
func (s Saves) Remember(ctx context.Context, interactionID string, now time.Time) {
	s.w.Enqueue(ctx, &Op{Kind: Delivery, ID: interactionID, At: now})
}

// Ready reports whether the store accepts writes: nil, or why not. It
// answers from the last batch when that is recent, else commits a one-row
// write probe through the writer. After a failure the writer reopens its
// connection, so Ready turns nil again by itself once the cause (a
// read-only file, a restarted server) is gone.
func (s Saves) Ready(ctx context.Context) error { return s.w.Ready(ctx) }

// WriteStats reports the writer's totals; safe to call from any goroutine.
func (s Saves) WriteStats() store.WriteStats { return s.w.WriteStats() }
