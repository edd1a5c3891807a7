package table

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// replicaStore is a memStore several Tables share, as replicas share one
// PostgreSQL: it records deliveries, refuses a save of one recorded before
// with ErrDuplicate, tells in its read whether one was handled, and counts
// its reads.
type replicaStore struct {
	*memStore
	mu      sync.Mutex
	handled map[string]bool
	reads   atomic.Int64
}

func newReplicaStore() *replicaStore {
	return &replicaStore{memStore: newMemStore(), handled: map[string]bool{}}
}

func (r *replicaStore) LoadTable(ctx context.Context, ch string) ([]byte, int64, bool, error) {
	r.reads.Add(1)
	return r.memStore.LoadTable(ctx, ch)
}

func (r *replicaStore) LoadTableHandled(ctx context.Context, ch, id string) ([]byte, int64, bool, bool, error) {
	data, v, found, err := r.LoadTable(ctx, ch)
	r.mu.Lock()
	defer r.mu.Unlock()
	return data, v, found, r.handled[id], err
}

func (r *replicaStore) SaveTable(ctx context.Context, s Save) (int64, bool, error) {
	r.mu.Lock() // held across the swap: a delivery and its save are one transaction
	defer r.mu.Unlock()
	if s.Delivery != "" && r.handled[s.Delivery] {
		return 0, false, fmt.Errorf("save: %w", ErrDuplicate)
	}
	v, ok, err := r.memStore.SaveTable(ctx, s)
	if ok && s.Delivery != "" {
		r.handled[s.Delivery] = true
	}
	return v, ok, err
}

// replica is one more process on st.
func replica(st Store) *Tables {
	return NewTables(Options{Store: st, Now: func() time.Time { return start }, IdleTimeout: time.Hour})
}

// delivered runs user's move as interaction id.
func delivered(ts *Tables, id, user, typed string) error {
	_, err := ts.Deliver(context.Background(), "c", id, func(_ context.Context, cur *Table) (*Table, error) {
		t, err := Current(cur)
		if err != nil {
			return nil, err
		}
		if _, _, err := t.Move(user, typed); err != nil {
			return nil, err
		}
		return t, nil
	})
	return err
}

// moves is how many moves the table in channel c holds as stored.
func moves(tb testing.TB, st Store) int {
	tb.Helper()
	t, err := replica(st).Load(context.Background(), "c")
	if err != nil || t == nil {
		tb.Fatalf("stored table %v (%v)", t, err)
	}
	return len(t.Game().Moves())
}

// TestReplicaMovesWithoutReads: on a shared store a move on the table this
// process last saved needs no read (its compare-and-swap confirms the table
// was current); a refusal or a look is confirmed by one read.
func TestReplicaMovesWithoutReads(t *testing.T) {
	st := newReplicaStore()
	ts := replica(st)
	open(t, ts, "c")
	before := st.reads.Load()
	for i, m := range []string{"0,0", "1,0", "0,1", "1,1"} {
		if err := delivered(ts, fmt.Sprint("m", i), []string{"alice", "bob"}[i%2], m); err != nil {
			t.Fatalf("move %s: %v", m, err)
		}
	}
	if n := st.reads.Load() - before; n != 0 {
		t.Errorf("%d reads for four moves on the cached table, want 0", n)
	}
	if err := delivered(ts, "bad", "bob", "2,2"); err == nil {
		t.Fatal("bob moved out of turn")
	}
	if n := st.reads.Load() - before; n != 1 {
		t.Errorf("%d reads after a refused move, want 1 (to confirm the refusal)", n)
	}
	if got := moves(t, st); got != 4 {
		t.Errorf("%d moves stored, want 4", got)
	}
}

// TestReplicaStaleCache: when another replica moved since this one cached
// the table, what this one does on the stale table never stands: a move
// valid only there loses its swap and is refused on the stored table, a
// move refused only there is played, a look sees the stored table, and a
// delivery the other replica handled is a duplicate.
func TestReplicaStaleCache(t *testing.T) {
	st := newReplicaStore()
	a, b := replica(st), replica(st)
	open(t, a, "c")
	if err := delivered(b, "1", "alice", "0,0"); err != nil {
		t.Fatal(err)
	}
	// a still holds the table before alice's move: bob is out of turn there.
	reads := st.reads.Load()
	if err := delivered(a, "2", "bob", "1,1"); err != nil {
		t.Fatalf("bob's move on the stale replica: %v, want it played on the stored table", err)
	}
	if n := st.reads.Load() - reads; n != 1 {
		t.Errorf("%d reads for a refusal on a stale table and the move on the stored one, want 1", n)
	}
	if err := delivered(b, "3", "alice", "0,1"); err != nil { // b is stale now
		t.Fatalf("alice's move on b: %v", err)
	}
	// On a's cache 0,1 is free, but b stored alice there.
	if err := delivered(a, "4", "bob", "0,1"); err == nil || errors.Is(err, ErrConflict) {
		t.Fatalf("bob's move on a cell taken meanwhile: %v, want the refusal the stored table gives", err)
	}
	if err := delivered(b, "5", "bob", "2,2"); err != nil {
		t.Fatal(err)
	}
	var seen int
	if err := a.Do(context.Background(), "c", func(_ context.Context, cur *Table) (*Table, error) {
		seen = len(cur.Game().Moves())
		return nil, nil
	}); err != nil || seen != 4 {
		t.Fatalf("a's look saw %d moves (%v), want the 4 stored", seen, err)
	}
	if err := delivered(a, "5", "bob", "2,2"); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("b's delivery replayed on a: %v, want ErrDuplicate", err)
	}
	if got := moves(t, st); got != 4 {
		t.Errorf("%d moves stored, want 4", got)
	}
}

// TestReplicasRaceOneGame: two replicas take alternating turns' moves at
// once, each move delivered to both; every move is stored exactly once and
// the game ends as played.
func TestReplicasRaceOneGame(t *testing.T) {
	st := newReplicaStore()
	reps := []*Tables{replica(st), replica(st)}
	open(t, reps[0], "c")
	line := []string{"0,0", "1,0", "0,1", "1,1", "0,2"} // alice wins on the top row
	for i, m := range line {
		user := []string{"alice", "bob"}[i%2]
		var ok atomic.Int32
		var wg sync.WaitGroup
		for _, ts := range reps {
			wg.Go(func() {
				switch err := delivered(ts, fmt.Sprint("d", i), user, m); {
				case err == nil:
					ok.Add(1)
				case !errors.Is(err, ErrDuplicate) && !errors.Is(err, ErrConflict):
					t.Errorf("move %s on a replica: %v", m, err)
				}
			})
		}
		wg.Wait()
		if ok.Load() != 1 {
			t.Fatalf("move %s applied %d times, want once", m, ok.Load())
		}
	}
	if got := moves(t, st); got != len(line) {
		t.Errorf("%d moves stored, want %d", got, len(line))
	}
}
