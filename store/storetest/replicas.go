package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/testkit"

	"github.com/tttbot/tttbot/table"
)

// replicasRaceOneExpiry: two processes on one database apply one run-out clock at
// once: exactly one result.
func replicasRaceOneExpiry(t *testing.T, open OpenPair) {
	for round := range 5 {
		st1, st2 := open(t)
		c := testkit.NewClock(at)
		r1, r2 := newReplica(t, st1, c), newReplica(t, st2, c)
		ch := "race"
		OpenClockedGame(t, r1.tables, ch)
		c.Advance(time.Minute)
		var wg sync.WaitGroup
		applied := make([]int, 2)
		for i, r := range []replica{r1, r2} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n, err := r.sched.RunDue(context.Background())
				if err != nil {
					t.Error(err)
				}
				applied[i] = n
			}()
		}
		wg.Wait()
		if applied[0]+applied[1] != 1 {
			t.Fatalf("round %d: applied %v, want exactly one", round, applied)
		}
		CheckLostOnTimeOnce(t, st1)
	}
}

// deliveryAcrossReplicas: two replicas on one PostgreSQL handed one
// interaction ID at once (on different channels, so no swap stops them):
// exactly one applies it.
func deliveryAcrossReplicas(t *testing.T, open OpenPair) {
	ctx := context.Background()
	r0, r1 := open(t)
	replicas := []Store{r0, r1}
	var saved atomic.Int32
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			_, ok, err := replicas[i%2].SaveTable(ctx, table.Save{Channel: fmt.Sprint("rep", i), Data: []byte("x"), Now: at, Delivery: "shared"})
			switch {
			case ok && err == nil:
				saved.Add(1)
			case !errors.Is(err, table.ErrDuplicate):
				t.Errorf("rep%d: saved=%v err=%v", i, ok, err)
			}
		})
	}
	wg.Wait()
	if saved.Load() != 1 {
		t.Fatalf("%d saves of one delivery on two replicas, want 1", saved.Load())
	}
}

// tablesOnReplicas: two replicas' Tables on one PostgreSQL play one
// game, each move delivered to both at once, and then a move on each in
// turn, so every action meets a table the other replica moved since it
// cached it. Every move is applied exactly once, the other delivery is a
// duplicate (or lost its swap, and its user is asked to try again), and
// the game is stored as played.
func tablesOnReplicas(t *testing.T, open OpenPair) {
	r0, r1 := open(t)
	stores := []Store{r0, r1}
	c := testkit.NewClock(at)
	reps := []*table.Tables{newReplica(t, stores[0], c).tables, newReplica(t, stores[1], c).tables}
	OpenClockedGame(t, reps[0], "rep")
	move := func(ts *table.Tables, id, user, typed string) error {
		_, err := ts.Deliver(context.Background(), "rep", id, func(_ context.Context, cur *table.Table) (*table.Table, error) {
			tb, err := table.Current(cur)
			if err != nil {
				return nil, err
			}
			if _, _, err := tb.Move(user, typed); err != nil {
				return nil, err
			}
			tb.FinishIfOver()
			return tb, nil
		})
		return err
	}
	users := []string{"alice", "bob"}
	for i, m := range []string{"0,0", "1,1", "0,1", "0,2"} {
		var applied atomic.Int32
		var wg sync.WaitGroup
		for _, ts := range reps {
			wg.Go(func() {
				switch err := move(ts, fmt.Sprint("both", i), users[i%2], m); {
				case err == nil:
					applied.Add(1)
				case !errors.Is(err, table.ErrDuplicate) && !errors.Is(err, table.ErrConflict):
					t.Errorf("move %s: %v", m, err)
				}
			})
		}
		wg.Wait()
		if applied.Load() != 1 {
			t.Fatalf("move %s applied %d times, want once", m, applied.Load())
		}
	}
	// One replica each in turn: each finds the table moved by the other.
	for i, m := range []string{"2,0", "1,0", "2,2"} {
		if err := move(reps[i%2], fmt.Sprint("turn", i), users[i%2], m); err != nil {
			t.Fatalf("move %s on replica %d: %v", m, i%2, err)
		}
	}
	if err := move(reps[0], "turn1", "bob", "1,0"); !errors.Is(err, table.ErrDuplicate) {
		t.Fatalf("replica 1's delivery replayed on replica 0: %v, want a duplicate", err)
	}
	got, err := reps[1].Load(context.Background(), "rep")
	if err != nil || got == nil || len(got.Game().Moves()) != 7 {
		t.Fatalf("stored: %v (%v), want the 7 moves played", got, err)
	}
}
