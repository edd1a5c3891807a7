// Package storetest is the one conformance suite every store runs (Run,
// and for the durable stores RunDurable and RunReplicas), and gives tests a
// private PostgreSQL schema on the server named by TEST_DATABASE_URL, or
// skips them with a note on how to enable them.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/testkit"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/table"
)

// Store is what every store offers: the session store, the read model,
// clock deadlines, the dedupe record, and readiness.
type Store interface {
	table.Store
	table.Records
	table.DeadlineStore
	table.GameCounter
	Handled(ctx context.Context, interactionID string) (bool, error)
	Remember(ctx context.Context, interactionID string, now time.Time)
	Ready(ctx context.Context) error
}

// Durable is a store that group-commits its writes.
type Durable interface {
	Store
	WriteStats() store.WriteStats
	Close() error
}

// OpenDurable opens a fresh durable store, closed when the test ends, that
// calls beforeCommit (when not nil) in its writer before each COMMIT with
// the batch's size.
type OpenDurable func(tb testing.TB, beforeCommit func(items int)) Durable

// OpenPair opens two stores on one fresh database, as two replicas (or two
// processes) of the bot would, closed when the test ends.
type OpenPair func(tb testing.TB) (Store, Store)

// at is the application's time the tests save at: the store keeps no clock.
var at = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// Run runs the behaviour every store shares against stores open makes,
// each test on a fresh one.
func Run(t *testing.T, open func(tb testing.TB) Store) {
	for _, tc := range []struct {
		name string
		run  func(*testing.T, Store)
	}{
		{"Basics", basics},
		{"LoadTableHandled", loadTableHandled},
		{"Deadlines", deadlines},
		{"DeliveryInSave", deliveryInSave},
		{"HandledForADay", handledForADay},
		{"Ratings", ratings},
		{"RatingExactlyOnce", ratingExactlyOnce},
		{"RatingsConcurrentGames", ratingsConcurrentGames},
		{"HistoryAndReplayRecords", historyAndReplayRecords},
		{"GamesOpen", gamesOpen},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, open(t)) })
	}
}

// RunDurable runs Run, and then what group commit promises: saves that
// queue meanwhile share one COMMIT, each answered after it by its own
// outcome, a failing one failing alone, however the database writes a
// batch.
func RunDurable(t *testing.T, open OpenDurable) {
	Run(t, func(tb testing.TB) Store { return open(tb, nil) })
	for _, tc := range []struct {
		name string
		run  func(*testing.T, OpenDurable)
	}{
		{"GroupCommit", groupCommit},
		{"Closed", closed},
		{"BatchedUpdates", batchedUpdates},
		{"BatchOfMoves", batchOfMoves},
		{"DeliveryInOneBatch", deliveryInOneBatch},
		{"BatchedResults", batchedResults},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, open) })
	}
}

// RunReplicas runs what two processes on one database must agree on.
func RunReplicas(t *testing.T, open OpenPair) {
	t.Run("RaceOneExpiry", func(t *testing.T) { replicasRaceOneExpiry(t, open) })
	t.Run("DeliveryAcrossReplicas", func(t *testing.T) { deliveryAcrossReplicas(t, open) })
	t.Run("TablesOnReplicas", func(t *testing.T) { tablesOnReplicas(t, open) })
}

// saver writes results one after another into a channel, as Tables does.
type saver struct {
	s       table.Store
	version map[string]int64
	now     time.Time
}

// ClassicWin is a classic game seat 0 wins along the top row.
const ClassicWin = "0.0.0 1.1.0 0.0.1 1.1.1 0.0.2"

var classic = game.Rules{Rows: 3, Cols: 3, Win: 3, Players: 2}

// testClock is the application clock the tests move, shared by the
// "processes" of one test.
type testClock = testkit.Clock

// replica is one bot process's clock machinery on a store.
type replica struct {
	tables *table.Tables
	sched  *table.Scheduler
}

// answer is what SaveTable returned.
type answer struct {
	version int64
	ok      bool
	err     error
}

// Finished is a result as table.Table makes one, for a game given by its
// moves ("seat.row.col", "seat!").
func Finished(tb testing.TB, scope, channel string, r game.Rules, players []string, record string) *table.Result {
	tb.Helper()
	var h game.History
	if err := h.UnmarshalText([]byte(record)); err != nil {
		tb.Fatal(err)
	}
	// Emoji tokens among them: a store keeps a seat's token as its text,
	// whatever its kind (a Unicode emoji, a ZWJ sequence, a custom emoji).
	tokens := []string{"X", "🦊", "<:blob:1234>", "👨\u200D👩\u200D👧"}[:len(players)]
	runes := []rune("XOAB")[:len(players)] // the engine's stand-ins (token.Runes)
	g, err := game.Replay(r, game.Fast, runes, h)
	if err != nil || !g.Over() {
		tb.Fatalf("%s: over %v, %v", record, g != nil && g.Over(), err)
	}
	res := &table.Result{Scope: scope, Channel: channel, Players: players, Tokens: tokens, Winner: g.Winner(), Rules: r, Moves: g.Filled(), Record: h}
	// The places and finishes as Table.newResult writes them.
	res.Places, res.Finishes = make([]int, len(players)), make([]table.Finish, len(players))
	for i := range players {
		switch {
		case g.Resigned(i):
			res.Places[i], res.Finishes[i] = 2, table.FinishResigned
		case g.Winner() == i:
			res.Finishes[i] = table.FinishWon
		case g.Winner() == game.NoPlayer:
			res.Finishes[i] = table.FinishDraw
		default:
			res.Places[i], res.Finishes[i] = 1, table.FinishLost
		}
	}
	return res
}

func (sv *saver) save(tb testing.TB, r *table.Result) {
	tb.Helper()
	sv.now = sv.now.Add(time.Minute)
	v, ok, err := sv.s.SaveTable(context.Background(), table.Save{Channel: r.Channel, Guild: r.Scope, Data: []byte("{}"), Version: sv.version[r.Channel], Now: sv.now, Result: r})
	if err != nil || !ok {
		tb.Fatalf("save: %v %v", ok, err)
	}
	sv.version[r.Channel] = v
}

func newReplica(tb testing.TB, st Store, c *testClock) replica {
	tb.Helper()
	ts := table.NewTables(table.Options{Store: st, Now: c.Now})
	s, err := table.NewScheduler(ts, table.SchedulerOptions{Store: st})
	if err != nil {
		tb.Fatal(err)
	}
	return replica{ts, s}
}

// OpenClockedGame starts alice (X) against bob (O) on a 30-second clock.
func OpenClockedGame(tb testing.TB, ts *table.Tables, channel string) {
	tb.Helper()
	err := ts.Do(context.Background(), channel, func(_ context.Context, cur *table.Table) (*table.Table, error) {
		t, err := table.New(cur, "g", channel, "alice", game.Classic(), game.Fast, ts.Now())
		if err != nil {
			return nil, err
		}
		if err := t.SetClock(30 * time.Second); err != nil {
			return nil, err
		}
		if err := t.Join("alice", "X"); err != nil {
			return nil, err
		}
		return t, t.Join("bob", "O")
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// CheckLostOnTimeOnce: alice lost once, bob won once, nothing else.
func CheckLostOnTimeOnce(tb testing.TB, st Store) {
	tb.Helper()
	ctx := context.Background()
	a, _ := st.Tally(ctx, "g", "alice")
	b, _ := st.Tally(ctx, "g", "bob")
	if a != (table.Tally{Player: "alice", Losses: 1}) || b != (table.Tally{Player: "bob", Wins: 1}) {
		tb.Fatalf("alice %+v, bob %+v; want exactly one result, bob winning on time", a, b)
	}
}

// WaitQueued waits until n writes are queued behind the batch being
// committed.
func WaitQueued(tb testing.TB, s Durable, n int) {
	tb.Helper()
	for s.WriteStats().Queued < n {
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
}

// HoldingCommit opens a store, saves channels prefix0…prefix(n−1) at
// version 1 in guild (a COMMIT each), then starts a save whose COMMIT is
// held until release is closed, so the saves a test queues meanwhile share
// the next batch. held answers the held save.
func HoldingCommit(t *testing.T, open OpenDurable, prefix string, n int, guild string) (s Durable, release chan struct{}, held chan error) {
	t.Helper()
	var hooked atomic.Int32
	release = make(chan struct{})
	s = open(t, func(int) {
		if hooked.Add(1) == int32(n+1) {
			<-release
		}
	})
	ctx := context.Background()
	for i := range n {
		if _, ok, err := s.SaveTable(ctx, table.Save{Channel: fmt.Sprint(prefix, i), Guild: guild, Data: []byte("0"), Now: at}); !ok || err != nil {
			t.Fatal(ok, err)
		}
	}
	held = make(chan error, 1)
	go func() {
		_, ok, err := s.SaveTable(ctx, table.Save{Channel: "other", Data: []byte("0"), Now: at})
		if !ok && err == nil {
			err = errors.New("lost")
		}
		held <- err
	}()
	for hooked.Load() < int32(n+1) {
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
	return s, release, held
}

// CheckRated checks that each player's ratings in scope, of every kind,
// count the games given.
func CheckRated(t *testing.T, s Store, scope string, games map[string]int) {
	t.Helper()
	for player, want := range games {
		rs, err := s.Ratings(context.Background(), scope, player)
		if err != nil {
			t.Fatal(err)
		}
		played := 0
		for _, r := range rs {
			played += r.Games
		}
		if played != want {
			t.Errorf("%s rated for %d games, want %d: %+v", player, played, want, rs)
		}
	}
}
