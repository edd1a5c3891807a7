package table

import (
	"context"
	"sync"
	"time"
)

// Threads: a game opened in a thread the bot started is played there like in
// any channel (the thread's ID keys its table), and the thread is archived
// ArchiveAfter its game ends, unless a new game (a rematch, /ttt new) starts
// in it first. The archive time is kept with the table and in the store's
// deadline (Save.Deadline is the table's NextDue), so the store-driven
// scheduler applies it once, across restarts and replicas, like a clock
// (due.go).

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
	// Archived: the thread was archived (or its tries were spent).
	Archived bool `json:"archived,omitempty"`
	// ArchiveTries counts archivings Discord failed, each tried again
	// later (archiveRetry), up to maxArchiveTries.
	ArchiveTries int `json:"archive_tries,omitempty"`
}

// Archiving a thread that Discord failed to archive is tried again after
// archiveRetry, doubled each time, at most maxArchiveTries times in all;
// past that, Discord's own auto-archiving of an idle thread takes over.
const (
	archiveRetry    = time.Minute
	maxArchiveTries = 4
)

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
		t.ArchiveAt, t.Archived, t.ArchiveTries = time.Time{}, false, 0
	case t.ArchiveAt.IsZero() && !t.Archived:
		t.ArchiveAt = now.Add(ArchiveAfter)
	}
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
			ts.log.Warn("archiving a thread failed", "thread", thread, "err", err)
			ts.archiveLater(ctx, thread)
			return
		}
		ts.log.Info("thread archived", "thread", thread)
	}, nil
}

// archiveLater schedules another try at archiving thread, which Discord
// failed to archive, unless the tries are spent (Discord archives an idle
// thread by itself after its auto_archive_duration, so nothing is left
// open for good) or a game has started in it since.
func (ts *Tables) archiveLater(ctx context.Context, thread string) {
	err := ts.Do(ctx, thread, func(_ context.Context, cur *Table) (*Table, error) {
		if cur == nil || !cur.Archived || cur.ArchiveTries+1 >= maxArchiveTries {
			return nil, nil
		}
		cur.Archived, cur.ArchiveTries = false, cur.ArchiveTries+1
		cur.ArchiveAt = ts.now().Add(archiveRetry << (cur.ArchiveTries - 1))
		return cur, nil
	})
	if err != nil {
		ts.log.Warn("scheduling another try at archiving a thread failed", "thread", thread, "err", err)
	}
}
