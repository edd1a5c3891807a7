package table

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/testkit"

	"github.com/tttbot/tttbot/game"
)

// openInThread starts alice against bob in thread, a thread started from
// channel "parent", with a 30-second clock.
func openInThread(tb testing.TB, ts *Tables, thread string) {
	tb.Helper()
	openGame(tb, ts, thread, func(t *Table) error {
		t.PlaceInThread("parent")
		return t.SetClock(30 * time.Second)
	}, "alice", "bob")
}

// act runs one action on channel's table and fails the test on an error.
func act(tb testing.TB, ts *Tables, channel string, f func(cur *Table) (*Table, error)) {
	tb.Helper()
	if err := ts.Do(context.Background(), channel, func(_ context.Context, cur *Table) (*Table, error) { return f(cur) }); err != nil {
		tb.Fatal(err)
	}
}

// resign ends the game in channel: alice resigns.
func resign(tb testing.TB, ts *Tables, channel string) {
	tb.Helper()
	act(tb, ts, channel, func(cur *Table) (*Table, error) {
		if _, err := cur.Resign("alice"); err != nil {
			return nil, err
		}
		cur.FinishIfOver()
		return cur, nil
	})
}

// archiveRecorder is an ArchiveFunc that counts the threads it archived.
type archiveRecorder struct {
	mu      sync.Mutex
	threads []string
}

func (r *archiveRecorder) archive(_ context.Context, thread string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.threads = append(r.threads, thread)
	return nil
}

func (r *archiveRecorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.threads)
}

// TestThreadArchivedAnHourAfterItsGame: a thread's game ending sets the
// archive time, which is the store's deadline; the scheduler applies it
// once, at the hour and not before, and a fresh process on the same store
// (a restart) does it as well as the one that saw the game end.
func TestThreadArchivedAnHourAfterItsGame(t *testing.T) {
	ctx := context.Background()
	st, c := newClockStore(), testkit.NewClock(start)
	ts := clockedTables(t, st, c)
	openInThread(t, ts, "th")
	if tbl := mustLoad(t, ts, "th"); !tbl.ArchiveAt.IsZero() || !tbl.NextDue().Equal(tbl.Deadline) {
		t.Fatalf("open game: archive at %v, next due %v, deadline %v", tbl.ArchiveAt, tbl.NextDue(), tbl.Deadline)
	}
	c.Advance(10 * time.Second)
	resign(t, ts, "th")
	end := c.Now()
	tbl := mustLoad(t, ts, "th")
	if !tbl.ArchiveAt.Equal(end.Add(ArchiveAfter)) || !tbl.Deadline.IsZero() || !tbl.NextDue().Equal(tbl.ArchiveAt) {
		t.Fatalf("finished: archive at %v, deadline %v, next due %v; want an hour after %v", tbl.ArchiveAt, tbl.Deadline, tbl.NextDue(), end)
	}
	if due, ok, _ := st.NextDeadline(ctx); !ok || !due.Equal(end.Add(ArchiveAfter)) {
		t.Fatalf("the store's deadline %v (%v), want the archive time", due, ok)
	}

	restarted := clockedTables(t, st, c) // another process on the same store
	rec := &archiveRecorder{}
	restarted.OnArchive(rec.archive)
	sched, err := NewScheduler(restarted, SchedulerOptions{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	c.Advance(ArchiveAfter - time.Second)
	if n, err := sched.RunDue(ctx); n != 0 || err != nil || len(rec.got()) != 0 {
		t.Fatalf("before the hour: applied %d (%v), archived %v", n, err, rec.got())
	}
	c.Advance(time.Second)
	if n, err := sched.RunDue(ctx); n != 1 || err != nil {
		t.Fatalf("at the hour: applied %d (%v), want 1", n, err)
	}
	if n, _ := sched.RunDue(ctx); n != 0 {
		t.Fatalf("applied again: %d", n)
	}
	if got := rec.got(); !slices.Equal(got, []string{"th"}) {
		t.Fatalf("archived %v, want th once", got)
	}
	if tbl := mustLoad(t, restarted, "th"); !tbl.Archived || !tbl.NextDue().IsZero() {
		t.Fatalf("after archiving: archived %v, next due %v", tbl.Archived, tbl.NextDue())
	}
	if _, ok, _ := st.NextDeadline(ctx); ok {
		t.Fatal("an archived thread keeps a deadline")
	}
}

// TestRematchInThreadCancelsArchive: a rematch (or a new game) in the thread
// before the hour keeps it open; its end arms the archive again.
func TestRematchInThreadCancelsArchive(t *testing.T) {
	ctx := context.Background()
	for _, next := range []string{"rematch", "new"} {
		t.Run(next, func(t *testing.T) {
			st, c := newClockStore(), testkit.NewClock(start)
			ts := clockedTables(t, st, c)
			rec := &archiveRecorder{}
			ts.OnArchive(rec.archive)
			sched, _ := NewScheduler(ts, SchedulerOptions{Store: st})
			openInThread(t, ts, "th")
			resign(t, ts, "th")
			c.Advance(30 * time.Minute)
			act(t, ts, "th", func(cur *Table) (*Table, error) {
				if next == "rematch" {
					return Rematch(cur, "bob", c.Now())
				}
				t, err := New(cur, "g", "th", "bob", game.Classic(), game.Fast, c.Now())
				if err != nil {
					return nil, err
				}
				return t, t.Join("bob", "")
			})
			tbl := mustLoad(t, ts, "th")
			if parent, ok := tbl.InThread(); !ok || parent != "parent" || !tbl.ArchiveAt.IsZero() {
				t.Fatalf("after %s: thread %q (%v), archive at %v", next, parent, ok, tbl.ArchiveAt)
			}
			c.Advance(40 * time.Minute) // past the first game's hour; the rematch's clock runs out
			if _, err := sched.RunDue(ctx); err != nil || len(rec.got()) != 0 {
				t.Fatalf("archived %v while a game is open in the thread", rec.got())
			}
		})
	}
}

// TestArchiveOnlyForThreads: a game in an ordinary channel never falls due
// for archiving.
func TestArchiveOnlyForThreads(t *testing.T) {
	st, c := newClockStore(), testkit.NewClock(start)
	ts := clockedTables(t, st, c)
	open(t, ts, "c")
	resign(t, ts, "c")
	if tbl := mustLoad(t, ts, "c"); !tbl.NextDue().IsZero() || tbl.DueNow(c.Now().Add(2*time.Hour)) != NothingDue {
		t.Fatalf("a channel's finished game: next due %v", tbl.NextDue())
	}
}

// TestReplicasArchiveThreadOnce: two replicas run their schedulers at once
// when a thread's archive time passes; the thread is archived exactly once.
func TestReplicasArchiveThreadOnce(t *testing.T) {
	ctx := context.Background()
	for round := range 20 {
		st, c := newClockStore(), testkit.NewClock(start)
		rec := &archiveRecorder{}
		var reps []*Tables
		var scheds []*Scheduler
		for range 2 {
			ts := clockedTables(t, st, c)
			ts.OnArchive(rec.archive)
			s, err := NewScheduler(ts, SchedulerOptions{Store: st})
			if err != nil {
				t.Fatal(err)
			}
			reps, scheds = append(reps, ts), append(scheds, s)
		}
		openInThread(t, reps[0], "th")
		resign(t, reps[1], "th")
		c.Advance(ArchiveAfter)
		var applied atomic.Int32
		var wg sync.WaitGroup
		for _, s := range scheds {
			wg.Go(func() {
				n, err := s.RunDue(ctx)
				if err != nil && !errors.Is(err, ErrConflict) {
					t.Errorf("round %d: %v", round, err)
				}
				applied.Add(int32(n))
			})
		}
		wg.Wait()
		if got := rec.got(); len(got) != 1 || applied.Load() != 1 {
			t.Fatalf("round %d: archived %v, applied %d times; want once", round, got, applied.Load())
		}
	}
}

// TestFailedArchiveTriedAgain: when Discord fails to archive the thread,
// it is tried again later, a bounded number of times.
func TestFailedArchiveTriedAgain(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name      string
		failFirst int // calls that fail
		wantCalls int
		archived  bool
	}{
		{"SecondTrySucceeds", 1, 2, true},
		{"AlwaysFails", 100, maxArchiveTries, true}, // given up: nothing due any more
	} {
		t.Run(c.name, func(t *testing.T) {
			st, clk := newClockStore(), testkit.NewClock(start)
			ts := clockedTables(t, st, clk)
			calls := 0
			ts.OnArchive(func(context.Context, string) error {
				calls++
				if calls <= c.failFirst {
					return errors.New("discord: 500")
				}
				return nil
			})
			sched, _ := NewScheduler(ts, SchedulerOptions{Store: st})
			openInThread(t, ts, "th")
			resign(t, ts, "th")
			clk.Advance(ArchiveAfter)
			for range 10 {
				if _, err := sched.RunDue(ctx); err != nil {
					t.Fatal(err)
				}
				clk.Advance(archiveRetry << maxArchiveTries)
			}
			tbl := mustLoad(t, ts, "th")
			if calls != c.wantCalls || tbl.Archived != c.archived || !tbl.NextDue().IsZero() {
				t.Fatalf("%d calls, archived %v, next due %v; want %d calls", calls, tbl.Archived, tbl.NextDue(), c.wantCalls)
			}
		})
	}
}
