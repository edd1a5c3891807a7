package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot/table"
)

// deliveryStore is what bot/httpapi and table need of a store to dedupe
// interactions inside the save's transaction.
type deliveryStore interface {
	LoadTable(ctx context.Context, channel string) ([]byte, int64, bool, error)
	SaveTable(ctx context.Context, s table.Save) (int64, bool, error)
	Handled(ctx context.Context, interactionID string) (bool, error)
	Remember(ctx context.Context, interactionID string, now time.Time)
}

// TestDeliveryInSave: a save carrying an interaction ID records it in its
// own transaction; the same ID again fails the save as a duplicate having
// changed nothing, and a save that lost its compare-and-swap leaves the ID
// unrecorded (the interaction was not applied).
func TestDeliveryInSave(t *testing.T) {
	ctx := context.Background()
	for _, be := range []struct {
		name string
		open func(testing.TB) deliveryStore
	}{
		{"memory", func(testing.TB) deliveryStore { return NewMemory() }},
		{"sqlite", func(tb testing.TB) deliveryStore { return newSQLite(tb) }},
		{"postgres", func(tb testing.TB) deliveryStore { return newPostgres(tb) }},
	} {
		t.Run(be.name, func(t *testing.T) {
			s := be.open(t)
			save := func(ch string, version int64, data, id string) (int64, bool, error) {
				return s.SaveTable(ctx, table.Save{Channel: ch, Guild: "g", Data: []byte(data), Version: version, Now: at, Delivery: id})
			}
			if v, ok, err := save("c", 0, "a", "d1"); v != 1 || !ok || err != nil {
				t.Fatalf("first save: v%d %v %v", v, ok, err)
			}
			if h, err := s.Handled(ctx, "d1"); !h || err != nil {
				t.Fatalf("d1 after its save: handled=%v %v", h, err)
			}
			if _, ok, err := save("c", 1, "b", "d1"); ok || !errors.Is(err, table.ErrDuplicate) {
				t.Fatalf("the same delivery again: saved=%v err=%v, want ErrDuplicate", ok, err)
			}
			if data, v, _, err := s.LoadTable(ctx, "c"); string(data) != "a" || v != 1 || err != nil {
				t.Fatalf("after the duplicate: %q v%d %v, want the first save's", data, v, err)
			}
			if _, ok, err := save("c", 7, "x", "d2"); ok || err != nil {
				t.Fatalf("a stale version: saved=%v err=%v", ok, err)
			}
			if h, err := s.Handled(ctx, "d2"); h || err != nil {
				t.Fatalf("the delivery of a lost swap: handled=%v %v, want not handled", h, err)
			}
			if v, ok, err := save("c", 1, "b", "d2"); v != 2 || !ok || err != nil {
				t.Fatalf("d2 applied after all: v%d %v %v", v, ok, err)
			}
			if h, _ := s.Handled(ctx, "d3"); h {
				t.Fatal("d3 handled before anything recorded it")
			}
			s.Remember(ctx, "d3", at)
			deadline := time.Now().Add(10 * time.Second) // Remember does not wait for its COMMIT
			for h, _ := s.Handled(ctx, "d3"); !h; h, _ = s.Handled(ctx, "d3") {
				if time.Now().After(deadline) {
					t.Fatal("Remember never recorded d3")
				}
				time.Sleep(time.Millisecond)
			}
			if _, ok, err := save("c", 2, "c", "d3"); ok || !errors.Is(err, table.ErrDuplicate) {
				t.Fatalf("a remembered delivery saved: saved=%v err=%v, want ErrDuplicate", ok, err)
			}
		})
	}
}

// TestDeliveryInOneBatch: deliveries of one interaction ID queued into one
// batch (on other channels, so every swap would win) apply exactly once,
// the others answered as duplicates, however the batch is written
// (PostgreSQL groups the updates into one statement).
func TestDeliveryInOneBatch(t *testing.T) {
	for _, o := range sqlOpeners {
		t.Run(o.name, func(t *testing.T) {
			const channels = 6
			ctx := context.Background()
			s, release, held := holdingCommit(t, o.open, "b", channels, "")
			var saved, dups atomic.Int32
			var wg sync.WaitGroup
			for i := range channels {
				id := "same" // four saves deliver "same"; two deliver their own
				if i >= 4 {
					id = fmt.Sprint("own", i)
				}
				wg.Go(func() {
					_, ok, err := s.SaveTable(ctx, table.Save{Channel: fmt.Sprint("b", i), Data: []byte("1"), Version: 1, Now: at, Delivery: id})
					switch {
					case ok && err == nil:
						saved.Add(1)
					case errors.Is(err, table.ErrDuplicate):
						dups.Add(1)
					default:
						t.Errorf("b%d: saved=%v err=%v", i, ok, err)
					}
				})
			}
			waitQueued(t, s, channels)
			close(release)
			wg.Wait()
			if err := <-held; err != nil {
				t.Fatal(err)
			}
			if saved.Load() != 3 || dups.Load() != 3 {
				t.Fatalf("saved %d, duplicates %d; want 3 and 3 (one of the four 'same', both own)", saved.Load(), dups.Load())
			}
			moved := 0
			for i := range channels {
				if _, v, _, _ := s.LoadTable(ctx, fmt.Sprint("b", i)); v == 2 {
					moved++
				}
			}
			if moved != 3 {
				t.Fatalf("%d tables moved, want 3", moved)
			}
			if s.commits.Load() != channels+2 {
				t.Errorf("%d COMMITs, want %d: the six saves share one", s.commits.Load(), channels+2)
			}
		})
	}
}

// TestDeliveryAcrossRestarts: an interaction ID recorded by a save is still
// recorded after the process is gone (SQLite file reopened), so a retry
// after a restart is a duplicate.
func TestDeliveryAcrossRestarts(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "d.db")
	for i, want := range []error{nil, table.ErrDuplicate} {
		s, err := OpenSQLite(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = s.SaveTable(ctx, table.Save{Channel: fmt.Sprint("r", i), Data: []byte("x"), Now: at, Delivery: "7"})
		s.Close()
		if !errors.Is(err, want) {
			t.Fatalf("open %d: %v, want %v", i, err, want)
		}
	}
}

// TestDeliveryAcrossReplicas: two replicas on one PostgreSQL handed one
// interaction ID at once (on different channels, so no swap stops them):
// exactly one applies it.
func TestDeliveryAcrossReplicas(t *testing.T) {
	ctx := context.Background()
	replicas := postgresReplicas(t, 2)
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

// TestTablesOnReplicas: two replicas' Tables on one PostgreSQL play one
// game, each move delivered to both at once, and then a move on each in
// turn, so every action meets a table the other replica moved since it
// cached it. Every move is applied exactly once, the other delivery is a
// duplicate (or lost its swap, and its user is asked to try again), and
// the game is stored as played.
func TestTablesOnReplicas(t *testing.T) {
	stores := postgresReplicas(t, 2)
	c := &testClock{now: at}
	reps := []*table.Tables{newReplica(t, stores[0], c).tables, newReplica(t, stores[1], c).tables}
	openClockedGame(t, reps[0], "rep")
	move := func(ts *table.Tables, id, user, typed string) error {
		ctx := table.WithDelivery(context.Background(), &table.Delivery{ID: id})
		return ts.Do(ctx, "rep", func(_ context.Context, cur *table.Table) (*table.Table, error) {
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
