package store

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/store/storetest"
	"github.com/tttbot/tttbot/table"
)

// testClock is the application clock the tests move, shared by the
// "processes" of one test.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// replica is one bot process's clock machinery on a store.
type replica struct {
	tables *table.Tables
	sched  *table.Scheduler
}

func newReplica(tb testing.TB, st table.Store, c *testClock) replica {
	tb.Helper()
	ts := table.NewTables(table.Options{Store: st, Now: c.Now})
	s, err := table.NewScheduler(ts, table.SchedulerOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return replica{ts, s}
}

// openClockedGame starts alice (X) against bob (O) on a 30-second clock.
func openClockedGame(tb testing.TB, ts *table.Tables, channel string) {
	tb.Helper()
	err := ts.Do(context.Background(), channel, func(_ context.Context, cur *table.Table) (*table.Table, error) {
		t, err := table.New(cur, "g", channel, "alice", game.Classic(), game.Fast, ts.Now())
		if err != nil {
			return nil, err
		}
		if err := t.SetClock(30 * time.Second); err != nil {
			return nil, err
		}
		if err := t.Join("alice", 'X'); err != nil {
			return nil, err
		}
		return t, t.Join("bob", 'O')
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// checkLostOnTimeOnce: alice lost once, bob won once, nothing else.
func checkLostOnTimeOnce(tb testing.TB, st table.Store) {
	tb.Helper()
	ctx := context.Background()
	a, _ := st.Tally(ctx, "g", "alice")
	b, _ := st.Tally(ctx, "g", "bob")
	if a != (table.Tally{Player: "alice", Losses: 1}) || b != (table.Tally{Player: "bob", Wins: 1}) {
		tb.Fatalf("alice %+v, bob %+v; want exactly one result, bob winning on time", a, b)
	}
}

// TestReplicasRaceOneExpiry: two processes on one database (two SQLite
// handles on one file; two PostgreSQL pools) apply one run-out clock at
// once: exactly one result.
func TestReplicasRaceOneExpiry(t *testing.T) {
	opens := map[string]func(testing.TB) (table.Store, table.Store){
		"sqlite": func(tb testing.TB) (table.Store, table.Store) {
			path := filepath.Join(tb.TempDir(), "shared.db")
			return mustOpenSQLite(tb, path), mustOpenSQLite(tb, path)
		},
		"postgres": func(tb testing.TB) (table.Store, table.Store) {
			url := storetest.PostgresURL(tb)
			return mustOpenPostgres(tb, url), mustOpenPostgres(tb, url)
		},
	}
	for name, open := range opens {
		t.Run(name, func(t *testing.T) {
			for round := range 5 {
				st1, st2 := open(t)
				c := &testClock{now: at}
				r1, r2 := newReplica(t, st1, c), newReplica(t, st2, c)
				ch := "race"
				openClockedGame(t, r1.tables, ch)
				c.advance(time.Minute)
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
				checkLostOnTimeOnce(t, st1)
			}
		})
	}
}

// TestClockRunsOutWhileDown: a game's clock runs out while no process runs;
// the next one to start applies it in its first pass.
func TestClockRunsOutWhileDown(t *testing.T) {
	path := filepath.Join(t.TempDir(), "down.db")
	c := &testClock{now: at}
	st := mustOpenSQLite(t, path)
	openClockedGame(t, newReplica(t, st, c).tables, "c")
	st.Close() // the process stops

	c.advance(2 * time.Hour)
	st = mustOpenSQLite(t, path)
	r := newReplica(t, st, c)
	if n, err := r.sched.RunDue(context.Background()); n != 1 || err != nil {
		t.Fatalf("first pass applied %d (%v), want 1", n, err)
	}
	checkLostOnTimeOnce(t, st)
	tbl, _ := r.tables.Load(context.Background(), "c")
	if tbl.Phase != table.Over || tbl.EndReason != table.OnTime {
		t.Fatalf("phase %s, reason %s", tbl.Phase, tbl.EndReason)
	}
}

func mustOpenSQLite(tb testing.TB, path string) *SQL {
	tb.Helper()
	s, err := OpenSQLite(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

func mustOpenPostgres(tb testing.TB, url string) *SQL {
	tb.Helper()
	s, err := OpenPostgres(context.Background(), url)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}
