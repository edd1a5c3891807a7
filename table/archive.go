package table

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Threads: a game opened in a thread the bot started is played there like in
// any channel (the thread's ID keys its table), and the thread is archived
// ArchiveAfter its game ends, unless a new game (a rematch, /ttt new) starts
// in it first. The archive time is kept with the table and in the store's
// deadline (Save.Deadline is the table's NextDue), so the store-driven
// scheduler applies it once, across restarts and replicas, like a clock.

// ArchiveAfter is how long a thread stays open after its game ends: time to
// read the result and ask for a rematch.
const ArchiveAfter = time.Hour

// threadState is the part of a Table about the thread it is played in.
type threadState struct {
	// Parent is the channel the bot started this table's thread from; ""
	// when the table's channel is not such a thread.
	Parent string `json:"thread_parent,omitempty"`
	// ArchiveAt is when the thread is to be archived: set when a game
	// ends, zero while one is open and once the thread is archived.
	ArchiveAt time.Time `json:"archive_at,omitzero"`
	Archived  bool      `json:"archived,omitempty"`
}

// PlaceInThread records that t's channel is a thread the bot started from
// parent for it: the thread is archived ArchiveAfter its games end.
func (t *Table) PlaceInThread(parent string) { t.Parent = parent }

// InThread reports whether t is played in a thread the bot started, and
// from which channel.
func (t *Table) InThread() (parent string, ok bool) { return t.Parent, t.Parent != "" }

// carryThread gives a new game in prev's channel prev's thread, with no
// archive pending: a game open in it keeps it open.
func (t *Table) carryThread(prev *Table) {
	t.threadState = threadState{Parent: prev.Parent}
}

// armArchive sets when a thread whose game is over is archived, and clears
// it while a game is open. Tables calls it on every save.
func (t *Table) armArchive(now time.Time) {
	switch {
	case t.Parent == "" || t.Phase.Open():
		t.ArchiveAt, t.Archived = time.Time{}, false
	case t.ArchiveAt.IsZero() && !t.Archived:
		t.ArchiveAt = now.Add(ArchiveAfter)
	}
}

// NextDue is the earliest time something falls due on t (its move clock's
// deadline, its thread's archiving), zero when nothing will: what the store
// keeps as the table's deadline (Save.Deadline) for the scheduler.
func (t *Table) NextDue() time.Time {
	next := t.Deadline
	if !t.ArchiveAt.IsZero() && (next.IsZero() || t.ArchiveAt.Before(next)) {
		next = t.ArchiveAt
	}
	return next
}

// DueKind is what has fallen due on a table: what the scheduler applies.
type DueKind uint8

// What falls due.
const (
	NothingDue DueKind = iota
	// ClockDue: the player to move has run out of time.
	ClockDue
	// ArchiveDue: the thread's game ended ArchiveAfter ago.
	ArchiveDue
)

// String names the kind for logs.
func (k DueKind) String() string {
	return [...]string{"nothing", "clock", "archive"}[k]
}

// DueNow returns what has fallen due on t at now, the most urgent first.
func (t *Table) DueNow(now time.Time) DueKind {
	switch {
	case t.Due(now):
		return ClockDue
	case !t.ArchiveAt.IsZero() && !now.Before(t.ArchiveAt):
		return ArchiveDue
	}
	return NothingDue
}

// ArchiveFunc archives a thread on Discord once its archiving is saved.
type ArchiveFunc func(ctx context.Context, thread string) error

// threadHooks connect Tables to the bot's archiving.
type threadHooks struct {
	mu      sync.Mutex
	archive ArchiveFunc
}

// OnArchive sets what archives a thread (the bot's Discord call). Call it
// before the tables are used; without it a thread's archive time passes
// with nothing done.
func (ts *Tables) OnArchive(f ArchiveFunc) {
	ts.threads.mu.Lock()
	ts.threads.archive = f
	ts.threads.mu.Unlock()
}

// applyArchive marks t's thread archived and saves; the winner of the save
// (one process, whatever races it) returns the Discord call to make.
func (ts *Tables) applyArchive(ctx context.Context, t *Table) (func(context.Context), error) {
	t.ArchiveAt, t.Archived = time.Time{}, true
	if err := ts.save(ctx, t, nil); err != nil {
		return nil, err
	}
	ts.threads.mu.Lock()
	f := ts.threads.archive
	ts.threads.mu.Unlock()
	if f == nil {
		return nil, nil
	}
	thread := t.Channel
	return func(ctx context.Context) {
		if err := f(ctx, thread); err != nil {
			// Discord archives an idle thread by itself after its
			// auto_archive_duration: nothing is left open for good.
			ts.log.Warn("archiving a thread failed", "thread", thread, "err", err)
			return
		}
		ts.log.Info("thread archived", "thread", thread)
	}, nil
}

// ApplyDue applies whatever has fallen due in channel (a clock run out, a
// thread to archive), if it still has: another process may have applied it,
// or an action may have beaten it (a move, a rematch). It is one table save
// like any action's, so when several processes race it exactly one applies
// it; the others find it applied, or lose the compare-and-swap and report
// applied=false. What is to be done after the save (the board message's
// edit, the thread's archiving) runs before it returns, outside the lock.
func (ts *Tables) ApplyDue(ctx context.Context, channel string) (applied bool, err error) {
	var after func(context.Context)
	err = func() error {
		defer ts.lock(channel)()
		cur, err := ts.load(ctx, channel)
		if err != nil || cur == nil {
			return err
		}
		switch cur.DueNow(ts.now()) {
		case ClockDue:
			after, err = ts.applyTimeUp(ctx, cur)
		case ArchiveDue:
			after, err = ts.applyArchive(ctx, cur)
		default:
			ts.remember(cur)
			return nil
		}
		if err != nil {
			ts.forget(channel)
			return err
		}
		applied = true
		return nil
	}()
	if errors.Is(err, ErrConflict) {
		return false, nil // another process wrote first: it applied this, or an action beat it
	}
	if err != nil {
		return false, err
	}
	if after != nil {
		after(ctx)
	}
	return applied, nil
}
