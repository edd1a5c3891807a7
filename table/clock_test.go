package table

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/testkit"
)

// clockStore is memStore keeping deadlines too, as the real stores do.
type clockStore struct {
	*memStore
	dmu sync.Mutex
	due map[string]time.Time
}

func newClockStore() *clockStore {
	return &clockStore{memStore: newMemStore(), due: map[string]time.Time{}}
}

func (c *clockStore) SaveTable(ctx context.Context, s Save) (int64, bool, error) {
	// One lock around both, as one transaction.
	c.dmu.Lock()
	defer c.dmu.Unlock()
	v, ok, err := c.memStore.SaveTable(ctx, s)
	if ok {
		if s.Deadline.IsZero() {
			delete(c.due, s.Channel)
		} else {
			c.due[s.Channel] = s.Deadline
		}
	}
	return v, ok, err
}

func (c *clockStore) NextDeadline(context.Context) (time.Time, bool, error) {
	c.dmu.Lock()
	defer c.dmu.Unlock()
	var next time.Time
	for _, d := range c.due {
		if next.IsZero() || d.Before(next) {
			next = d
		}
	}
	return next, !next.IsZero(), nil
}

func (c *clockStore) DueChannels(_ context.Context, now time.Time, limit int) ([]string, error) {
	c.dmu.Lock()
	defer c.dmu.Unlock()
	var out []string
	for ch, d := range c.due {
		if !d.After(now) {
			out = append(out, ch)
		}
	}
	slices.Sort(out)
	return out[:min(limit, len(out))], nil
}

func (c *clockStore) resultCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.results)
}

// clock is an application clock tests move; safe for concurrent readers.
type clock = testkit.Clock

func clockedTables(tb testing.TB, st *clockStore, c *clock) *Tables {
	tb.Helper()
	return NewTables(Options{Store: st, Now: c.Now, IdleTimeout: 48 * time.Hour})
}

// openClocked starts a 3×3 game on a 30-second clock among players
// (tokens X, O, …) in channel.
func openClocked(tb testing.TB, ts *Tables, channel string, players ...string) {
	tb.Helper()
	openGame(tb, ts, channel, func(t *Table) error { return t.SetClock(30 * time.Second) }, players...)
}

func mustLoad(tb testing.TB, ts *Tables, channel string) *Table {
	tb.Helper()
	t, err := ts.Load(context.Background(), channel)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

func TestClockRunsOut(t *testing.T) {
	ctx := context.Background()
	t.Run("TwoPlayersTheOtherWins", func(t *testing.T) {
		st, c := newClockStore(), testkit.NewClock(start)
		ts := clockedTables(t, st, c)
		sched, err := NewScheduler(ts, SchedulerOptions{Store: st})
		if err != nil {
			t.Fatal(err)
		}
		openClocked(t, ts, "c", "alice", "bob")
		if tbl := mustLoad(t, ts, "c"); !tbl.Deadline.Equal(start.Add(30 * time.Second)) {
			t.Fatalf("deadline %v, want 30 s after the start", tbl.Deadline)
		}
		c.Advance(29 * time.Second)
		if n, err := sched.RunDue(ctx); n != 0 || err != nil {
			t.Fatalf("applied %d before the deadline (%v)", n, err)
		}
		c.Advance(time.Second)
		if n, err := sched.RunDue(ctx); n != 1 || err != nil {
			t.Fatalf("applied %d at the deadline (%v), want 1", n, err)
		}
		if n, _ := sched.RunDue(ctx); n != 0 {
			t.Fatalf("applied again: %d", n)
		}
		tbl := mustLoad(t, ts, "c")
		if tbl.Phase != Over || tbl.EndReason != OnTime || tbl.Game().Winner() != 1 || !tbl.Deadline.IsZero() {
			t.Fatalf("phase %s, reason %s, winner %d, deadline %v", tbl.Phase, tbl.EndReason, tbl.Game().Winner(), tbl.Deadline)
		}
		if len(st.results) != 1 || st.results[0].Outcome(0) != Loss || st.results[0].Outcome(1) != Win || st.results[0].Reason != OnTime {
			t.Fatalf("results %+v", st.results)
		}
		if _, ok, _ := st.NextDeadline(ctx); ok {
			t.Fatal("a finished game keeps a deadline")
		}
	})
	t.Run("ThreePlayersTheRestPlayOn", func(t *testing.T) {
		st, c := newClockStore(), testkit.NewClock(start)
		ts := clockedTables(t, st, c)
		sched, _ := NewScheduler(ts, SchedulerOptions{Store: st})
		openClocked(t, ts, "c", "alice", "bob", "carol")
		c.Advance(time.Minute)
		if n, _ := sched.RunDue(ctx); n != 1 {
			t.Fatalf("applied %d, want 1", n)
		}
		tbl := mustLoad(t, ts, "c")
		if tbl.Phase != Playing || tbl.Game().Turn() != 1 || !tbl.Game().Resigned(0) || !tbl.Deadline.Equal(c.Now().Add(30*time.Second)) {
			t.Fatalf("phase %s, turn %d, deadline %v", tbl.Phase, tbl.Game().Turn(), tbl.Deadline)
		}
		var tu *TimeUpError
		if err := move(ts, "c", "alice", "1,1"); !errors.As(err, &tu) || !tu.Out || tu.Seat.User != "alice" {
			t.Fatalf("alice moving after running out: %v", err)
		}
		if err := move(ts, "c", "bob", "1,1"); err != nil {
			t.Fatalf("bob plays on: %v", err)
		}
		if len(st.results) != 0 {
			t.Fatalf("a result before the game ended: %+v", st.results)
		}
		// bob's move gave carol a fresh clock; when it runs out only bob is left.
		c.Advance(30 * time.Second)
		if n, _ := sched.RunDue(ctx); n != 1 {
			t.Fatalf("applied %d, want 1", n)
		}
		if len(st.results) != 1 || st.results[0].Winner != 1 || st.results[0].Reason != OnTime {
			t.Fatalf("results %+v", st.results)
		}
	})
	t.Run("AMoveResetsTheClock", func(t *testing.T) {
		st, c := newClockStore(), testkit.NewClock(start)
		ts := clockedTables(t, st, c)
		openClocked(t, ts, "c", "alice", "bob")
		c.Advance(20 * time.Second)
		if err := move(ts, "c", "alice", "0,0"); err != nil {
			t.Fatal(err)
		}
		if tbl := mustLoad(t, ts, "c"); !tbl.Deadline.Equal(c.Now().Add(30 * time.Second)) {
			t.Fatalf("deadline %v after alice's move at %v", tbl.Deadline, c.Now())
		}
		// Looking at the board is no move: the clock keeps running.
		c.Advance(10 * time.Second)
		ts.Do(ctx, "c", func(_ context.Context, cur *Table) (*Table, error) { return cur, nil })
		if tbl := mustLoad(t, ts, "c"); !tbl.Deadline.Equal(c.Now().Add(20 * time.Second)) {
			t.Fatalf("a save without a move moved the deadline to %v", tbl.Deadline)
		}
	})
}

// TestMoveAfterTheDeadline: the move is refused with the reason, and the
// expiry is applied by that action, once.
func TestMoveAfterTheDeadline(t *testing.T) {
	st, c := newClockStore(), testkit.NewClock(start)
	ts := clockedTables(t, st, c)
	openClocked(t, ts, "c", "alice", "bob")
	c.Advance(31 * time.Second)
	for range 2 {
		var tu *TimeUpError
		err := move(ts, "c", "alice", "1,1")
		if !errors.As(err, &tu) || !errors.Is(err, ErrTimeUp) || tu.Seat.User != "alice" || tu.Out || !tu.At.Equal(start.Add(30*time.Second)) {
			t.Fatalf("got %v", err)
		}
	}
	if err := move(ts, "c", "bob", "1,1"); !errors.Is(err, ErrTimeUp) {
		t.Fatalf("bob after alice ran out: %v", err)
	}
	if st.resultCount() != 1 {
		t.Fatalf("%d results, want 1", st.resultCount())
	}
}

// TestReplicasRaceOneExpiry: two Tables (two processes) on one store apply
// a run-out clock at once: exactly one result.
func TestReplicasRaceOneExpiry(t *testing.T) {
	ctx := context.Background()
	for round := range 50 {
		st, c := newClockStore(), testkit.NewClock(start)
		a, b := clockedTables(t, st, c), clockedTables(t, st, c)
		sa, _ := NewScheduler(a, SchedulerOptions{Store: st})
		sb, _ := NewScheduler(b, SchedulerOptions{Store: st})
		openClocked(t, a, "c", "alice", "bob")
		c.Advance(time.Hour)
		var wg sync.WaitGroup
		applied := make([]int, 2)
		for i, s := range []*Scheduler{sa, sb} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n, err := s.RunDue(ctx)
				if err != nil {
					t.Error(err)
				}
				applied[i] = n
			}()
		}
		wg.Wait()
		if applied[0]+applied[1] != 1 || st.resultCount() != 1 {
			t.Fatalf("round %d: applied %v, %d results; want exactly one", round, applied, st.resultCount())
		}
	}
}

// TestSchedulerAtStartAndWakingEarly drives Run with a timer the test fires:
// a deadline that passed before the scheduler started is applied at once; a
// save with an earlier deadline than the sleep wakes it; otherwise it sleeps
// until the earliest deadline, or the recheck interval.
func TestSchedulerAtStartAndWakingEarly(t *testing.T) {
	st, c := newClockStore(), testkit.NewClock(start)
	before := clockedTables(t, st, c) // a process that stops before the deadline
	openClocked(t, before, "down", "alice", "bob")
	c.Advance(time.Hour) // no bot ran meanwhile

	ts := clockedTables(t, st, c)
	waits, fire := make(chan time.Duration, 10), make(chan time.Time)
	sched, _ := NewScheduler(ts, SchedulerOptions{Store: st, After: func(d time.Duration) <-chan time.Time { waits <- d; return fire }})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- sched.Run(ctx) }()

	if d := <-waits; d != DefaultRecheck {
		t.Fatalf("first sleep %v, want the recheck interval (nothing left to wait for)", d)
	}
	if st.resultCount() != 1 {
		t.Fatalf("the deadline that passed while down: %d results", st.resultCount())
	}
	openClocked(t, ts, "live", "carol", "dan") // deadline in 30 s: earlier than the sleep
	if d := <-waits; d != 30*time.Second {
		t.Fatalf("woken to sleep %v, want until the new deadline", d)
	}
	c.Advance(30 * time.Second)
	fire <- c.Now()
	if d := <-waits; d != DefaultRecheck {
		t.Fatalf("after the deadline, sleep %v", d)
	}
	if st.resultCount() != 2 {
		t.Fatalf("%d results, want 2", st.resultCount())
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run returned %v", err)
	}
}

// TestTimeUpHook: the hook runs under the lock before the save, sees who
// lost, and its after-save work runs once the expiry is durable.
func TestTimeUpHook(t *testing.T) {
	st, c := newClockStore(), testkit.NewClock(start)
	ts := clockedTables(t, st, c)
	var lost []string
	var afterRan int
	ts.OnTimeUp(func(_ context.Context, tbl *Table, s Seat) (func(context.Context), error) {
		lost = append(lost, s.User)
		return func(context.Context) { afterRan++ }, nil
	})
	openClocked(t, ts, "c", "alice", "bob")
	ts.Do(context.Background(), "c", func(_ context.Context, cur *Table) (*Table, error) {
		cur.ShowBoard(Shown{App: "app", Token: "tok", At: c.Now(), Message: "m1"})
		return cur, nil
	})
	c.Advance(time.Minute)
	if ok, err := ts.ApplyDue(context.Background(), "c"); !ok || err != nil {
		t.Fatalf("expire: %v %v", ok, err)
	}
	if !slices.Equal(lost, []string{"alice"}) || afterRan != 1 {
		t.Fatalf("hook saw %v, after ran %d times", lost, afterRan)
	}
	if tbl := mustLoad(t, ts, "c"); tbl.Shown.Token != "tok" || tbl.Shown.Message != "m1" {
		t.Fatalf("the board message was not kept: %+v", tbl.Shown)
	}
}

func TestClockChoices(t *testing.T) {
	tbl := &Table{}
	for _, d := range Clocks {
		if err := tbl.SetClock(d); err != nil || tbl.MoveClock() != d {
			t.Errorf("SetClock(%v): %v, clock %v", d, err, tbl.MoveClock())
		}
	}
	if err := tbl.SetClock(45 * time.Second); !errors.Is(err, ErrClock) {
		t.Errorf("45 s: %v", err)
	}
	if OnTime.String() != "on_time" {
		t.Errorf("OnTime is %q", OnTime)
	}
}

// failingDeadlines has a deadline that is always due and can never be
// fetched: the scheduler must pause, longer each time, never spin.
type failingDeadlines struct{}

func (failingDeadlines) NextDeadline(context.Context) (time.Time, bool, error) {
	return start, true, nil
}
func (failingDeadlines) DueChannels(context.Context, time.Time, int) ([]string, error) {
	return nil, errors.New("store down")
}

func TestSchedulerBacksOffInsteadOfSpinning(t *testing.T) {
	ts := clockedTables(t, newClockStore(), testkit.NewClock(start.Add(time.Hour)))
	waits, fire := make(chan time.Duration), make(chan time.Time)
	sched, _ := NewScheduler(ts, SchedulerOptions{Store: failingDeadlines{}, Recheck: 5 * time.Second,
		After: func(d time.Duration) <-chan time.Time { waits <- d; return fire }})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go sched.Run(ctx)
	var got []time.Duration
	for range 4 {
		got = append(got, <-waits)
		fire <- time.Time{}
	}
	if want := []time.Duration{2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second}; !slices.Equal(got, want) {
		t.Fatalf("pauses %v, want %v", got, want)
	}
}

// TestSchedulerAppliesAnOutage: more clocks than one query fetches ran out
// while no bot ran; one pass applies every one of them exactly once, the
// scheduler applying several at a time.
func TestSchedulerAppliesAnOutage(t *testing.T) {
	ctx := context.Background()
	st, c := newClockStore(), testkit.NewClock(start)
	ts := clockedTables(t, st, c)
	sched, err := NewScheduler(ts, SchedulerOptions{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	const games = 2*dueBatch + 7
	for i := range games {
		openClocked(t, ts, fmt.Sprintf("c%03d", i), "alice", "bob")
	}
	c.Advance(time.Hour)
	if n, err := sched.RunDue(ctx); n != games || err != nil {
		t.Fatalf("applied %d (%v), want %d", n, err, games)
	}
	if n := st.resultCount(); n != games {
		t.Fatalf("%d results recorded, want %d", n, games)
	}
	if _, ok, _ := st.NextDeadline(ctx); ok {
		t.Fatal("a deadline is left")
	}
}
