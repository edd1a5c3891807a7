package table

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

// countingStore counts the store's reads.
type countingStore struct {
	*memStore
	loads atomic.Int64
}

func (c *countingStore) LoadTable(ctx context.Context, ch string) ([]byte, int64, bool, error) {
	c.loads.Add(1)
	return c.memStore.LoadTable(ctx, ch)
}

func (c *countingStore) LoadTableHandled(ctx context.Context, ch, id string) ([]byte, int64, bool, bool, error) {
	c.loads.Add(1)
	return c.memStore.LoadTableHandled(ctx, ch, id)
}

func soleWriter(tb testing.TB) (*Tables, *countingStore) {
	tb.Helper()
	st := &countingStore{memStore: newMemStore()}
	return NewTables(Options{Store: st, Now: func() time.Time { return start }, IdleTimeout: time.Hour, SoleWriter: true}), st
}

// TestSoleWriterReadsOnce: a sole writer reads a channel's table once; its
// moves after that are played on the table it saved, and end up stored.
func TestSoleWriterReadsOnce(t *testing.T) {
	ts, st := soleWriter(t)
	open(t, ts, "c")
	for i, m := range []string{"1,1", "2,1", "1,2", "2,2"} {
		if err := move(ts, "c", []string{"alice", "bob"}[i%2], m); err != nil {
			t.Fatalf("move %s: %v", m, err)
		}
	}
	if n := st.loads.Load(); n != 1 {
		t.Errorf("%d reads of the store for one game, want 1 (the first action's)", n)
	}
	// What is stored is what was played.
	fresh := NewTables(Options{Store: st.memStore, Now: func() time.Time { return start }, IdleTimeout: time.Hour})
	tb, err := fresh.Load(context.Background(), "c")
	if err != nil || tb == nil || len(tb.Game().Moves()) != 4 {
		t.Fatalf("stored table %+v (%v), want 4 moves", tb, err)
	}
}

// TestSoleWriterNextGameWithoutARead: a sole writer keeps a finished
// table too, so the next game in the channel opens with no read; replays
// of the last move are still refused, and what is stored is the next game.
func TestSoleWriterNextGameWithoutARead(t *testing.T) {
	ts, st := soleWriter(t)
	open(t, ts, "c")
	play := func(id, user, typed string) error {
		_, err := ts.Deliver(context.Background(), "c", id, func(_ context.Context, cur *Table) (*Table, error) {
			if _, _, err := cur.Move(user, typed); err != nil {
				return nil, err
			}
			cur.FinishIfOver()
			return cur, nil
		})
		return err
	}
	for i, m := range []string{"0,0", "1,0", "0,1", "1,1", "0,2"} { // alice wins
		if err := play(fmt.Sprint(i+1), []string{"alice", "bob"}[i%2], m); err != nil {
			t.Fatalf("move %s: %v", m, err)
		}
	}
	if err := play("5", "alice", "0,2"); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("the winning move replayed: %v, want ErrDuplicate", err)
	}
	_, err := ts.Deliver(context.Background(), "c", "6", func(_ context.Context, cur *Table) (*Table, error) {
		if cur == nil || cur.Phase != Over {
			return nil, fmt.Errorf("the next game opened on %+v, want the finished one", cur)
		}
		return Rematch(cur, "bob", start)
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := st.loads.Load(); n != 1 {
		t.Errorf("%d reads of the store for a game and the next, want 1 (the first action's)", n)
	}
	fresh := NewTables(Options{Store: st.memStore, Now: func() time.Time { return start }, IdleTimeout: time.Hour})
	tb, err := fresh.Load(context.Background(), "c")
	if err != nil || tb == nil || tb.Number != 2 || tb.Phase != Playing || tb.Seats[0].User != "bob" {
		t.Fatalf("stored after the rematch: %+v (%v), want game 2 with bob first", tb, err)
	}
}

// TestSoleWriterStaleCacheLosesNothing: were another process to write the
// store anyway, the cached table's save loses its compare-and-swap, nothing
// is overwritten, and the next action reads what the other process stored.
func TestSoleWriterStaleCacheLosesNothing(t *testing.T) {
	ts, st := soleWriter(t)
	open(t, ts, "c")
	intruder := NewTables(Options{Store: st.memStore, Now: func() time.Time { return start }, IdleTimeout: time.Hour})
	if err := move(intruder, "c", "alice", "1,1"); err != nil {
		t.Fatal(err)
	}
	if err := move(ts, "c", "alice", "2,2"); !errors.Is(err, ErrConflict) {
		t.Fatalf("move on a stale cached table: %v, want ErrConflict", err)
	}
	if err := move(ts, "c", "bob", "2,2"); err != nil {
		t.Fatalf("bob's move after the conflict: %v", err)
	}
	tb, err := intruder.Load(context.Background(), "c")
	if err != nil || tb == nil || len(tb.Game().Moves()) != 2 {
		t.Fatalf("stored after the conflict: %+v (%v), want alice's A1 and bob's B2", tb, err)
	}
}

// TestSoleWriterDuplicateFromCache: a delivery this process handled is
// refused as a duplicate even when its table comes from the cache (no
// read that could have told), whether it saved or was refused.
func TestSoleWriterDuplicateFromCache(t *testing.T) {
	ts, _ := soleWriter(t)
	open(t, ts, "c")
	if err := delivered(ts, "1", "alice", "1,1"); err != nil {
		t.Fatal(err)
	}
	if err := delivered(ts, "1", "alice", "1,1"); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("saved delivery replayed: %v, want ErrDuplicate", err)
	}
	if err := delivered(ts, "2", "alice", "1,2"); err == nil || errors.Is(err, ErrDuplicate) {
		t.Fatalf("out-of-turn move: %v, want a refusal", err)
	}
	if err := delivered(ts, "2", "alice", "1,2"); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("refused delivery replayed: %v, want ErrDuplicate", err)
	}
	if err := delivered(ts, "3", "bob", "2,2"); err != nil {
		t.Fatalf("a new delivery: %v", err)
	}
}

func TestRecentIDsForgetsTheOldest(t *testing.T) {
	var r recentIDs
	for i := range recentCap + 10 {
		r.add(fmt.Sprint(i))
	}
	r.add("5000") // again: no second slot
	if r.has("9") || !r.has("10") || !r.has(fmt.Sprint(recentCap+9)) || r.len() != recentCap {
		t.Fatalf("after %d adds: has 9 %v, has 10 %v, %d in the set", recentCap+10, r.has("9"), r.has("10"), r.len())
	}
}
