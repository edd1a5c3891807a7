package table

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/testkit"
)

// gatedStore is clockStore whose saves, once armed, each tell entered and
// then wait for release (or for their context to end): a pass the test
// holds in flight.
type gatedStore struct {
	*clockStore
	armed   atomic.Bool
	entered chan string
	release chan struct{}
}

func newGatedStore() *gatedStore {
	return &gatedStore{clockStore: newClockStore(), entered: make(chan string, 1), release: make(chan struct{})}
}

func (g *gatedStore) SaveTable(ctx context.Context, s Save) (int64, bool, error) {
	if g.armed.Load() {
		g.entered <- s.Channel
		select {
		case <-g.release:
		case <-ctx.Done():
			return 0, false, ctx.Err()
		}
	}
	return g.clockStore.SaveTable(ctx, s)
}

// stopTest is a game whose clock has run out, a scheduler running on it
// (its timer never fires: only the first pass runs), and that pass held in
// its save.
func stopTest(t *testing.T) (st *gatedStore, ts *Tables, sched *Scheduler, ran chan error) {
	t.Helper()
	st, c := newGatedStore(), testkit.NewClock(start)
	ts = NewTables(Options{Store: st, Now: c.Now, IdleTimeout: 48 * time.Hour})
	openClocked(t, ts, "c", "alice", "bob")
	c.Advance(time.Minute)
	st.armed.Store(true)
	sched, err := NewScheduler(ts, SchedulerOptions{Store: st, After: func(time.Duration) <-chan time.Time { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	ran = make(chan error, 1)
	go func() { ran <- sched.Run(context.Background()) }()
	if ch := <-st.entered; ch != "c" {
		t.Fatalf("the pass saves %s, want c", ch)
	}
	return st, ts, sched, ran
}

// TestSchedulerStopFinishesItsPass: Stop called while a pass is saving an
// expiry waits for that save, which lands, and Run then returns nil.
func TestSchedulerStopFinishesItsPass(t *testing.T) {
	st, ts, sched, ran := stopTest(t)
	stopped := make(chan error, 1)
	go func() { stopped <- sched.Stop(context.Background()) }()
	<-sched.stopping // Stop has been called; the save is still held
	select {
	case err := <-ran:
		t.Fatalf("Run returned (%v) with its pass's save in flight", err)
	case err := <-stopped:
		t.Fatalf("Stop returned (%v) with the pass's save in flight", err)
	default:
	}
	close(st.release)
	if err := <-stopped; err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if err := <-ran; err != nil {
		t.Fatalf("Run after Stop: %v, want nil", err)
	}
	st.armed.Store(false)
	if tbl := mustLoad(t, ts, "c"); tbl.Phase != Over || tbl.EndReason != OnTime {
		t.Fatalf("the expiry in flight did not land: phase %s, reason %s", tbl.Phase, tbl.EndReason)
	}
	if st.resultCount() != 1 {
		t.Fatalf("%d results, want the expired game's", st.resultCount())
	}
}

// TestSchedulerStopBounded: a pass still in flight when Stop's context
// ends is cancelled; Stop says so, and the deadline stays due in the store
// for the next process.
func TestSchedulerStopBounded(t *testing.T) {
	st, ts, sched, ran := stopTest(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the bound has passed already
	if err := sched.Stop(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Stop past its bound: %v, want context.Canceled", err)
	}
	if err := <-ran; err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v", err)
	}
	st.armed.Store(false)
	if tbl := mustLoad(t, ts, "c"); tbl.Phase != Playing {
		t.Fatalf("phase %s: the cancelled save landed", tbl.Phase)
	}
	if due, _ := st.DueChannels(context.Background(), start.Add(time.Hour), 10); len(due) != 1 || due[0] != "c" {
		t.Fatalf("due after a cancelled pass: %v, want [c]", due)
	}
}

// TestSchedulerStoppedBeforeRun: a scheduler stopped before it ran starts
// no pass at all.
func TestSchedulerStoppedBeforeRun(t *testing.T) {
	st, c := newClockStore(), testkit.NewClock(start)
	ts := clockedTables(t, st, c)
	openClocked(t, ts, "c", "alice", "bob")
	c.Advance(time.Minute)
	sched, _ := NewScheduler(ts, SchedulerOptions{Store: st})
	if err := sched.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := sched.Run(context.Background()); err != nil {
		t.Fatalf("Run after Stop: %v", err)
	}
	if st.resultCount() != 0 {
		t.Fatal("a stopped scheduler applied an expiry")
	}
}
