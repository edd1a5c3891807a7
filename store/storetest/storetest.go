// Package storetest is the one conformance suite every store runs (Run,
// and for the durable stores RunDurable and RunReplicas), and gives tests a
// private PostgreSQL schema on the server named by TEST_DATABASE_URL, or
// skips them with a note on how to enable them.
package storetest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the driver the stores use

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

const ClassicWin = "0.0.0 1.1.0 0.0.1 1.1.1 0.0.2" // seat 0 wins along the top row

var classic = game.Rules{Rows: 3, Cols: 3, Win: 3, Players: 2}

// testClock is the application clock the tests move, shared by the
// "processes" of one test.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

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
	tokens := []string{"X", "O", "A", "B"}[:len(players)]
	runes := make([]rune, len(tokens))
	for i, t := range tokens {
		runes[i] = []rune(t)[0]
	}
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
		if err := t.Join("alice", 'X'); err != nil {
			return nil, err
		}
		return t, t.Join("bob", 'O')
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

func basics(t *testing.T, s Store) {
	ctx := context.Background()
	t.Run("Missing", func(t *testing.T) {
		if _, _, found, err := s.LoadTable(ctx, "nowhere"); found || err != nil {
			t.Fatalf("found %v, err %v", found, err)
		}
	})
	t.Run("CompareAndSwap", func(t *testing.T) {
		v, ok, err := s.SaveTable(ctx, table.Save{Channel: "c1", Guild: "g1", Data: []byte(`{"a":1}`), Now: at})
		if err != nil || !ok || v != 1 {
			t.Fatalf("first save: %d %v %v", v, ok, err)
		}
		if _, ok, err := s.SaveTable(ctx, table.Save{Channel: "c1", Guild: "g1", Data: []byte(`{"a":2}`), Now: at}); ok || err != nil {
			t.Fatalf("second insert: saved %v err %v", ok, err)
		}
		if v, ok, _ = s.SaveTable(ctx, table.Save{Channel: "c1", Guild: "g1", Data: []byte(`{"a":3}`), Version: 1, Now: at}); !ok || v != 2 {
			t.Fatalf("update: %d %v", v, ok)
		}
		if _, ok, _ := s.SaveTable(ctx, table.Save{Channel: "c1", Guild: "g1", Data: []byte(`{"a":4}`), Version: 1, Now: at}); ok {
			t.Fatal("a stale version was saved")
		}
		data, version, found, err := s.LoadTable(ctx, "c1")
		if err != nil || !found || version != 2 || string(data) != `{"a":3}` {
			t.Fatalf("load: %s v%d %v %v", data, version, found, err)
		}
	})
	t.Run("ConcurrentWriters", func(t *testing.T) {
		var wins atomic.Int32
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, ok, err := s.SaveTable(ctx, table.Save{Channel: "c1", Guild: "g1", Data: []byte(fmt.Sprintf(`{"w":%d}`, i)), Version: 2, Now: at})
				if err != nil {
					t.Error(err)
				}
				if ok {
					wins.Add(1)
				}
			}()
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Fatalf("%d writers won, want 1", wins.Load())
		}
	})
	t.Run("Standings", func(t *testing.T) {
		rules := game.Rules{Rows: 3, Cols: 3, Win: 3, Players: 2}
		results := []table.Result{
			{Scope: "g1", Players: []string{"ann", "ben"}, Winner: 0, Rules: rules, Moves: 5},
			{Scope: "g1", Players: []string{"ben", "ann"}, Winner: 1, Rules: rules, Moves: 7},
			{Scope: "g1", Players: []string{"cat", "ben"}, Winner: game.NoPlayer, Rules: rules, Moves: 9},
			{Scope: "g1", Players: []string{"dan", "cat", "ann"}, Winner: 0, Rules: rules, Moves: 6},
			{Scope: "g2", Players: []string{"ann", "zed"}, Winner: 1, Rules: rules, Moves: 5},
		}
		version := int64(0)
		for i, r := range results {
			v, ok, err := s.SaveTable(ctx, table.Save{Channel: "c-standings", Guild: r.Scope, Data: []byte(fmt.Sprint(i)), Version: version, Now: at, Result: &r})
			if err != nil || !ok {
				t.Fatalf("result %d: %v %v", i, ok, err)
			}
			version = v
		}
		ann, err := s.Tally(ctx, "g1", "ann")
		if err != nil || ann != (table.Tally{Player: "ann", Wins: 2, Losses: 1}) {
			t.Fatalf("ann: %+v %v", ann, err)
		}
		if none, err := s.Tally(ctx, "g1", "nobody"); err != nil || none.Games() != 0 || none.Player != "nobody" {
			t.Fatalf("nobody: %+v %v", none, err)
		}
		for p, want := range map[string]table.Tally{"dan": {Player: "dan", Wins: 1}, "cat": {Player: "cat", Losses: 1, Draws: 1}} {
			if got, err := s.Tally(ctx, "g1", p); err != nil || got != want {
				t.Fatalf("%s: %+v %v, want %+v", p, got, err, want)
			}
		}
		if zed, err := s.Tally(ctx, "g2", "zed"); err != nil || zed != (table.Tally{Player: "zed", Wins: 1}) {
			t.Fatalf("zed in g2: %+v %v", zed, err)
		}
	})
	t.Run("ConflictRecordsNoResult", func(t *testing.T) {
		r := table.Result{Scope: "g3", Players: []string{"x", "y"}, Winner: 0, Rules: game.Classic()}
		if _, ok, _ := s.SaveTable(ctx, table.Save{Channel: "c1", Guild: "g3", Data: []byte("{}"), Version: 99, Now: at, Result: &r}); ok {
			t.Fatal("stale save succeeded")
		}
		if x, _ := s.Tally(ctx, "g3", "x"); x.Games() != 0 {
			t.Fatalf("a refused save recorded a result: %+v", x)
		}
	})
}

// loadTableHandled: the table and an interaction's record in one read,
// for a channel with a table and one without, an ID handled and one not.
func loadTableHandled(t *testing.T, st Store) {
	ctx := context.Background()
	hl := st
	if _, _, err := st.SaveTable(ctx, table.Save{Channel: "c", Data: []byte("table"), Now: at, Delivery: "seen"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		channel, id    string
		found, handled bool
	}{{"c", "seen", true, true}, {"c", "new", true, false}, {"none", "seen", false, true}, {"none", "new", false, false}} {
		data, v, found, handled, err := hl.LoadTableHandled(ctx, tc.channel, tc.id)
		if err != nil || found != tc.found || handled != tc.handled || found && (string(data) != "table" || v != 1) {
			t.Errorf("%s, %s: %q v%d found %v handled %v %v; want found %v handled %v", tc.channel, tc.id, data, v, found, handled, err, tc.found, tc.handled)
		}
	}
}

// deadlines: a save keeps its table's deadline in the same write, a
// refused save changes none, a zero deadline removes it, and the scheduler's
// two questions (the earliest; the due ones) are answered in order.
func deadlines(t *testing.T, s Store) {
	ctx := context.Background()
	if _, ok, err := s.NextDeadline(ctx); ok || err != nil {
		t.Fatalf("an empty store has a deadline: %v %v", ok, err)
	}
	versions := map[string]int64{}
	save := func(ch string, version int64, due time.Time) bool {
		t.Helper()
		v, ok, err := s.SaveTable(ctx, table.Save{Channel: ch, Guild: "g", Data: []byte("{}"), Version: version, Now: at, Deadline: due})
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			versions[ch] = v
		}
		return ok
	}
	save("a", 0, at.Add(90*time.Second))
	save("b", 0, at.Add(30*time.Second+250*time.Millisecond))
	save("c", 0, time.Time{}) // no clock
	save("d", 0, at.Add(time.Hour))

	next, ok, err := s.NextDeadline(ctx)
	if err != nil || !ok || !next.Equal(at.Add(30*time.Second+250*time.Millisecond)) {
		t.Fatalf("next deadline %v %v %v, want b's", next, ok, err)
	}
	due, err := s.DueChannels(ctx, at.Add(90*time.Second), 10)
	if err != nil || !slices.Equal(due, []string{"b", "a"}) {
		t.Fatalf("due %v %v, want [b a]", due, err)
	}
	if due, _ := s.DueChannels(ctx, at.Add(2*time.Hour), 1); !slices.Equal(due, []string{"b"}) {
		t.Fatalf("limit 1: %v", due)
	}
	if save("b", versions["b"]+5, time.Time{}) {
		t.Fatal("a stale save was accepted")
	}
	if next, _, _ := s.NextDeadline(ctx); !next.Equal(at.Add(30*time.Second + 250*time.Millisecond)) {
		t.Fatalf("a refused save moved the deadline to %v", next)
	}
	save("b", versions["b"], time.Time{}) // b's game ended
	save("a", versions["a"], at.Add(3*time.Hour))
	if next, _, _ := s.NextDeadline(ctx); !next.Equal(at.Add(time.Hour)) {
		t.Fatalf("next deadline %v, want d's", next)
	}
	if due, _ := s.DueChannels(ctx, at.Add(time.Hour), 10); !slices.Equal(due, []string{"d"}) {
		t.Fatalf("due %v, want [d]", due)
	}
}

// deliveryInSave: a save carrying an interaction ID records it in its
// own transaction; the same ID again fails the save as a duplicate having
// changed nothing, and a save that lost its compare-and-swap leaves the ID
// unrecorded (the interaction was not applied).
func deliveryInSave(t *testing.T, s Store) {
	ctx := context.Background()
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
}

func ratings(t *testing.T, s Store) {
	ctx := context.Background()
	sv := &saver{s: s, version: map[string]int64{}, now: at}
	for range 3 {
		sv.save(t, Finished(t, "g1", "c1", classic, []string{"ann", "ben"}, ClassicWin))
	}
	// Against the computer: recorded, not rated.
	sv.save(t, Finished(t, "g1", "c1", classic, []string{"ann", "ai:hard"}, ClassicWin))
	// Three players on 4×4, three in a row: cat leaves, then dan wins.
	four := game.Rules{Rows: 4, Cols: 4, Win: 3, Players: 3}
	sv.save(t, Finished(t, "g2", "c2", four, []string{"dan", "eve", "cat"}, "0.0.0 1.1.0 2! 0.0.1 1.1.1 0.0.2"))
	// A 3-player draw between ann, ben and cat with nobody leaving.
	draw3 := game.Rules{Rows: 3, Cols: 3, Win: 3, Players: 3}
	sv.save(t, Finished(t, "g2", "c2", draw3, []string{"ann", "ben", "cat"}, "0.0.0 1.0.1 2.0.2 0.1.0 1.1.1 2.1.2 0.2.1 1.2.0 2.2.2"))

	ann, err := s.Ratings(ctx, "g1", "ann")
	if err != nil || len(ann) != 1 || ann[0].Kind != table.KindClassic || ann[0].Games != 3 {
		t.Fatalf("ann in g1: %+v %v", ann, err)
	}
	ben, _ := s.Ratings(ctx, "g1", "ben")
	if len(ben) != 1 || ben[0].Display() >= ann[0].Display() || ann[0].Display() <= 1000 || ben[0].Display() >= 1000 {
		t.Fatalf("after three wins ann %+v (%d), ben %+v (%d)", ann, ann[0].Display(), ben, ben[0].Display())
	}
	if ai, _ := s.Ratings(ctx, "g1", "ai:hard"); len(ai) != 0 {
		t.Fatalf("the computer is rated: %+v", ai)
	}
	board, err := s.RatingBoard(ctx, "g1", table.KindClassic, 10)
	if err != nil || len(board) != 2 || board[0].Player != "ann" || board[1].Player != "ben" {
		t.Fatalf("board %+v %v", board, err)
	}
	// Everywhere holds the g1 games and the g2 ones; ann has classic (3)
	// and other (1).
	all, _ := s.Ratings(ctx, table.Everywhere, "ann")
	if len(all) != 2 || all[0].Kind != table.KindClassic || all[0].Games != 3 || all[1].Kind != table.KindOther || all[1].Games != 1 {
		t.Fatalf("ann everywhere: %+v", all)
	}
	other, _ := s.RatingBoard(ctx, "g2", table.KindOther, 10)
	order := make([]string, len(other))
	for i, o := range other {
		order[i] = o.Player
	}
	// dan won one game, eve came second in it, cat left it; ann, ben and
	// cat drew another.
	if len(other) != 5 || order[0] != "dan" || order[1] != "eve" {
		t.Fatalf("g2 other board: %v", order)
	}
	// The draw moved ann and ben alike (new players, same places).
	var annO, benO table.Standing
	for _, o := range other {
		switch o.Player {
		case "ann":
			annO = o
		case "ben":
			benO = o
		}
	}
	if annO.Rating != benO.Rating {
		t.Fatalf("a draw between new players rated them apart: %v %v", annO.Rating, benO.Rating)
	}
	if g1, _ := s.Ratings(ctx, "g1", "dan"); len(g1) != 0 {
		t.Fatalf("g2's game counted in g1: %+v", g1)
	}
}

// ratingExactlyOnce: of racing saves of one game's end, only the one that
// wins the compare-and-swap rates it; a save that loses changes no rating.
func ratingExactlyOnce(t *testing.T, s Store) {
	ctx := context.Background()
	if _, ok, err := s.SaveTable(ctx, table.Save{Channel: "c", Guild: "g", Data: []byte("{}"), Now: at}); !ok || err != nil {
		t.Fatal(ok, err)
	}
	var wins atomic.Int32
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := Finished(t, "g", "c", classic, []string{"ann", "ben"}, ClassicWin)
			_, ok, err := s.SaveTable(ctx, table.Save{Channel: "c", Guild: "g", Data: []byte("{}"), Version: 1, Now: at, Result: r})
			if err != nil {
				t.Error(err)
			}
			if ok {
				wins.Add(1)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Fatalf("%d saves won", wins.Load())
	}
	// A save that lost the swap long after: still nothing.
	r := Finished(t, "g", "c", classic, []string{"ann", "ben"}, ClassicWin)
	if _, ok, _ := s.SaveTable(ctx, table.Save{Channel: "c", Guild: "g", Data: []byte("{}"), Version: 1, Now: at, Result: r}); ok {
		t.Fatal("a stale save succeeded")
	}
	for _, scope := range []string{"g", table.Everywhere} {
		for _, p := range []string{"ann", "ben"} {
			st, err := s.Ratings(ctx, scope, p)
			if err != nil || len(st) != 1 || st[0].Games != 1 {
				t.Fatalf("%s in %s: %+v %v", p, scope, st, err)
			}
		}
	}
	if h, _ := s.History(ctx, table.HistoryQuery{Player: "ann", Scope: table.Everywhere, Limit: 10}); len(h) != 1 {
		t.Fatalf("%d games recorded", len(h))
	}
}

// ratingsConcurrentGames: games in different channels sharing a player,
// saved at once, each move that player's rating: no update is lost.
func ratingsConcurrentGames(t *testing.T, s Store) {
	ctx := context.Background()
	const n = 8
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ch := fmt.Sprintf("c%d", i)
			r := Finished(t, "g", ch, classic, []string{"ann", fmt.Sprintf("p%d", i)}, ClassicWin)
			if _, ok, err := s.SaveTable(ctx, table.Save{Channel: ch, Guild: "g", Data: []byte("{}"), Now: at, Result: r}); !ok || err != nil {
				t.Error(ok, err)
			}
		}()
	}
	wg.Wait()
	st, err := s.Ratings(ctx, "g", "ann")
	if err != nil || len(st) != 1 || st[0].Games != n {
		t.Fatalf("ann: %+v %v", st, err)
	}
}

func historyAndReplayRecords(t *testing.T, s Store) {
	ctx := context.Background()
	sv := &saver{s: s, version: map[string]int64{}, now: at}
	var want []*table.Result
	for i := range 5 {
		players := []string{"ann", "ben"}
		if i%2 == 1 {
			players = []string{"ben", "ann"}
		}
		r := Finished(t, "g1", "c1", classic, players, ClassicWin)
		sv.save(t, r)
		want = append(want, r)
	}
	sv.save(t, Finished(t, "g2", "c9", classic, []string{"ann", "zed"}, "0.1.1 1!"))

	page, err := s.History(ctx, table.HistoryQuery{Player: "ann", Scope: "g1", Limit: 3})
	if err != nil || len(page) != 3 {
		t.Fatalf("page 1: %d %v", len(page), err)
	}
	next, _ := s.History(ctx, table.HistoryQuery{Player: "ann", Scope: "g1", Offset: 3, Limit: 3})
	all := append(page, next...)
	if len(all) != 5 {
		t.Fatalf("pages hold %d games", len(all))
	}
	for i, f := range all {
		w := want[4-i] // newest first
		if i > 0 && !(f.ID < all[i-1].ID && f.At.Before(all[i-1].At)) {
			t.Fatalf("game %d (%d at %v) not older than %d", i, f.ID, f.At, all[i-1].ID)
		}
		got := f.Result
		if !slices.Equal(got.Players, w.Players) || !slices.Equal(got.Tokens, w.Tokens) || got.Winner != w.Winner ||
			got.Rules != w.Rules || fmt.Sprint(got.Record) != fmt.Sprint(w.Record) || !slices.Equal(got.Finishes, w.Finishes) ||
			!slices.Equal(got.Places, w.Places) || got.Channel != "c1" || got.Scope != "g1" {
			t.Fatalf("game %d: %+v, want %+v", i, got, *w)
		}
		g, err := f.Game()
		if err != nil || !g.Over() || g.MoveCount() != 5 {
			t.Fatalf("replay game %d: %v", f.ID, err)
		}
	}
	everywhere, _ := s.History(ctx, table.HistoryQuery{Player: "ann", Scope: table.Everywhere, Limit: 10})
	if len(everywhere) != 6 || everywhere[0].Result.Scope != "g2" || everywhere[0].Result.Finishes[1] != table.FinishResigned {
		t.Fatalf("everywhere: %d games, newest %+v", len(everywhere), everywhere[0].Result)
	}
	last, found, err := s.LastFinished(ctx, "c1")
	if err != nil || !found || last.ID != all[0].ID {
		t.Fatalf("last in c1: %d %v %v, want %d", last.ID, found, err, all[0].ID)
	}
	if _, found, _ := s.LastFinished(ctx, "nowhere"); found {
		t.Fatal("a channel without games has a last one")
	}
	byID, found, err := s.FinishedGame(ctx, all[2].ID)
	if err != nil || !found || byID.ID != all[2].ID || !byID.At.Equal(all[2].At) {
		t.Fatalf("by id: %+v %v %v", byID, found, err)
	}
	if _, found, _ := s.FinishedGame(ctx, 9999); found {
		t.Fatal("an unknown id was found")
	}
}

// handledForADay: a save's delivery is refused as a duplicate for a day,
// then forgotten; concurrent saves of one delivery apply it once.
func handledForADay(t *testing.T, s Store) {
	ctx := context.Background()
	// Interaction IDs are snowflakes of the time they were made, which is
	// how old ones are found.
	first, second, third := snowflakeAt(at), snowflakeAt(at.Add(time.Minute)), snowflakeAt(at.Add(25*time.Hour))
	steps := []struct {
		id   string
		at   time.Time
		want bool
	}{
		{first, at, true},
		{first, at, false},                     // a retry
		{second, at.Add(time.Minute), true},    // another interaction
		{first, at.Add(23 * time.Hour), false}, // still remembered within the day
		// An ID that sorts with the old ones but was handled within the
		// day (no Discord ID does): kept by its time.
		{"100", at.Add(24*time.Hour + time.Minute), true},
		{third, at.Add(25 * time.Hour), true},  // prunes first and second
		{first, at.Add(25 * time.Hour), true},  // forgotten after a day
		{"100", at.Add(25 * time.Hour), false}, // not yet a day old
		{second, at.Add(25 * time.Hour), true}, // forgotten too
		{third, at.Add(25 * time.Hour), false}, // the new one stays
	}
	for i, st := range steps {
		_, saved, err := s.SaveTable(ctx, table.Save{Channel: fmt.Sprint("day", i), Data: []byte("x"), Now: st.at, Delivery: st.id})
		if saved != st.want || st.want && err != nil || !st.want && !errors.Is(err, table.ErrDuplicate) {
			t.Fatalf("step %d, %s: saved=%v err=%v, want saved=%v", i, st.id, saved, err, st.want)
		}
	}
	var saves atomic.Int32
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			_, saved, err := s.SaveTable(ctx, table.Save{Channel: fmt.Sprint("race", i), Data: []byte("x"), Now: at.Add(26 * time.Hour), Delivery: "race"})
			if err != nil && !errors.Is(err, table.ErrDuplicate) {
				t.Error(err)
			}
			if saved {
				saves.Add(1)
			}
		})
	}
	wg.Wait()
	if saves.Load() != 1 {
		t.Fatalf("%d concurrent saves of one delivery applied, want 1", saves.Load())
	}
}

// snowflakeAt is the lowest Discord snowflake of the millisecond t.
func snowflakeAt(t time.Time) string {
	return strconv.FormatInt(max(t.UnixMilli()-1420070400000, 0)<<22, 10)
}

// groupCommit holds the first COMMIT until every other save has queued
// behind it: they must then share one COMMIT, each answered after it, each
// with its own compare-and-swap outcome, one failing save failing alone.
func groupCommit(t *testing.T, open OpenDurable) {
	var (
		batches  []int // batch sizes, in COMMIT order (written by the writer only)
		answered atomic.Int32
		release  = make(chan struct{})
		early    atomic.Value
		hooked   atomic.Int32
	)
	hook := func(items int) {
		prior := 0
		for _, b := range batches {
			prior += b
		}
		if got := int(answered.Load()); got > prior {
			early.Store(fmt.Sprintf("%d callers answered before COMMIT %d; only %d saves were committed", got, len(batches)+1, prior))
		}
		batches = append(batches, items)
		hooked.Add(1)
		if len(batches) == 1 {
			<-release
		}
	}
	s := open(t, hook)

	// The first save's caller gives up while its COMMIT is held: it
	// must still learn that its save committed.
	firstCtx, cancelFirst := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() {
		_, ok, err := s.SaveTable(firstCtx, table.Save{Channel: "held", Data: []byte("0"), Now: at})
		answered.Add(1)
		if err == nil && !ok {
			err = errors.New("lost its swap")
		}
		if s.WriteStats().Commits < 1 {
			err = errors.New("answered before its COMMIT")
		}
		first <- err
	}()
	for hooked.Load() == 0 {
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}

	type want int
	const (
		saved want = iota
		lost
		failed
	)
	saves := []struct {
		save table.Save
		want want
	}{
		{table.Save{Channel: "held", Data: []byte("x")}, lost},              // version 0 again, but "held" exists
		{table.Save{Channel: "bad", Data: nil}, failed},                     // NOT NULL: fails alone
		{table.Save{Channel: "stale", Data: []byte("x"), Version: 7}, lost}, // no such version
	}
	for i := range 12 {
		saves = append(saves, struct {
			save table.Save
			want want
		}{table.Save{Channel: fmt.Sprintf("c%d", i), Data: []byte("x")}, saved})
	}
	var dupWins atomic.Int32
	results := make([]error, len(saves))
	var wg sync.WaitGroup
	for i, sv := range saves {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sv.save.Now = at
			v, ok, err := s.SaveTable(context.Background(), sv.save)
			answered.Add(1)
			switch {
			case s.WriteStats().Commits < 2:
				results[i] = fmt.Errorf("%s: answered before the COMMIT that covers it", sv.save.Channel)
			case sv.want == saved && (err != nil || !ok || v != 1):
				results[i] = fmt.Errorf("%s: want saved at version 1, got %d %v %v", sv.save.Channel, v, ok, err)
			case sv.want == lost && (err != nil || ok):
				results[i] = fmt.Errorf("%s: want a lost swap, got %v %v", sv.save.Channel, ok, err)
			case sv.want == failed && err == nil:
				results[i] = fmt.Errorf("%s: want an error, got saved=%v", sv.save.Channel, ok)
			}
		}()
	}
	// Two saves of one new channel in the same batch: exactly one wins.
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, ok, err := s.SaveTable(context.Background(), table.Save{Channel: "dup", Data: []byte("d"), Now: at})
			answered.Add(1)
			if err != nil {
				t.Error(err)
			}
			if ok {
				dupWins.Add(1)
			}
		}()
	}
	WaitQueued(t, s, len(saves)+2)
	cancelFirst()
	close(release)
	wg.Wait()
	if err := <-first; err != nil {
		t.Errorf("held save, its caller gone: %v", err)
	}
	for _, err := range results {
		if err != nil {
			t.Error(err)
		}
	}
	if msg := early.Load(); msg != nil {
		t.Error(msg)
	}
	if dupWins.Load() != 1 {
		t.Errorf("%d saves of one new channel won, want 1", dupWins.Load())
	}
	total := len(saves) + 3
	if len(batches) != 2 || batches[1] != total-1 {
		t.Errorf("%d saves committed in batches %v, want [1 %d]", total, batches, total-1)
	}
	if _, _, found, _ := s.LoadTable(context.Background(), "bad"); found {
		t.Error("the failed save left a row")
	}
	if data, v, _, _ := s.LoadTable(context.Background(), "c3"); string(data) != "x" || v != 1 {
		t.Errorf("c3 after the batch: %q v%d", data, v)
	}
}

// closed: Close answers what is queued, and later writes fail.
func closed(t *testing.T, open OpenDurable) {
	s := open(t, nil)
	if _, ok, err := s.SaveTable(context.Background(), table.Save{Channel: "c", Data: []byte("x"), Now: at}); !ok || err != nil {
		t.Fatal(ok, err)
	}
	s.Close()
	if _, _, err := s.SaveTable(context.Background(), table.Save{Channel: "c", Data: []byte("y"), Version: 1, Now: at}); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("save after Close: %v", err)
	}
}

// batchedUpdates: a batch of updates (one statement on PostgreSQL)
// answers each save by its own swap: winners, a stale version, a channel's
// second save in the batch, a winner that also records a result.
func batchedUpdates(t *testing.T, open OpenDurable) {
	ctx := context.Background()
	s, release, held := HoldingCommit(t, open, "u", 6, "g")
	r := table.Result{Scope: "g", Players: []string{"ann", "ben"}, Winner: 0, Rules: game.Classic(), Moves: 5}
	saves := []struct {
		save  table.Save
		saved bool
	}{
		{table.Save{Channel: "u0", Version: 1}, true},
		{table.Save{Channel: "u1", Version: 1}, true},
		{table.Save{Channel: "u2", Version: 1, Result: &r}, true},
		{table.Save{Channel: "u3", Version: 9}, false},
		{table.Save{Channel: "u4", Version: 1}, true},
		{table.Save{Channel: "u4", Version: 1}, false}, // the same channel again: one of the two wins
	}
	var wins [6]atomic.Bool
	var wg sync.WaitGroup
	for i, sv := range saves {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sv.save.Guild, sv.save.Data, sv.save.Now = "g", []byte(fmt.Sprint("new", i)), at
			v, ok, err := s.SaveTable(ctx, sv.save)
			if err != nil || (ok && v != sv.save.Version+1) {
				t.Errorf("%s: v%d %v %v", sv.save.Channel, v, ok, err)
			}
			wins[i].Store(ok)
		}()
	}
	WaitQueued(t, s, len(saves))
	close(release)
	wg.Wait()
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	for i, sv := range saves[:4] {
		if wins[i].Load() != sv.saved {
			t.Errorf("%s at v%d: saved %v, want %v", sv.save.Channel, sv.save.Version, wins[i].Load(), sv.saved)
		}
	}
	if wins[4].Load() == wins[5].Load() {
		t.Errorf("two saves of u4 at one version: saved %v and %v, want exactly one", wins[4].Load(), wins[5].Load())
	}
	for ch, want := range map[string]int64{"u0": 2, "u2": 2, "u3": 1, "u4": 2} {
		if _, v, _, err := s.LoadTable(ctx, ch); v != want || err != nil {
			t.Errorf("%s: v%d %v, want v%d", ch, v, err, want)
		}
	}
	if ann, err := s.Tally(ctx, "g", "ann"); ann.Wins != 1 || err != nil {
		t.Errorf("the grouped winner's result: %+v %v", ann, err)
	}
}

// batchOfMoves: a batch of moves and deliveries, which PostgreSQL
// writes as one statement, answers each op by its own outcome in one
// COMMIT: a won move with a clock, a won move that stops its clock, a stale
// version (whose interaction stays unrecorded, so a later delivery of it
// is not taken for a duplicate), a duplicate, and first and repeated
// deliveries. With finished games in it the batch is a transaction (their
// results and ratings take more statements; on PostgreSQL two pipelined
// round trips), the moves in it must
// be answered the same, the game whose swap won must be recorded and rated
// once, and the one whose swap lost not at all.
func batchOfMoves(t *testing.T, open OpenDurable) {
	for _, finished := range []bool{false, true} {
		t.Run(fmt.Sprint("finished=", finished), func(t *testing.T) { testBatchOfMoves(t, open, finished) })
	}
}

func testBatchOfMoves(t *testing.T, open OpenDurable, finished bool) {
	ctx := context.Background()
	var holding atomic.Bool
	release, blocked := make(chan struct{}), make(chan struct{}, 1)
	s := open(t, func(int) {
		if holding.CompareAndSwap(true, false) {
			blocked <- struct{}{}
			<-release
		}
	})
	due := at.Add(time.Minute)
	for i := range 6 {
		if _, ok, err := s.SaveTable(ctx, table.Save{Channel: fmt.Sprint("m", i), Guild: "g", Data: []byte("0"), Now: at}); !ok || err != nil {
			t.Fatal(ok, err)
		}
	}
	// m1 runs a clock that its move below stops; m3's interaction
	// was handled before.
	if _, ok, err := s.SaveTable(ctx, table.Save{Channel: "m1", Guild: "g", Data: []byte("1"), Version: 1, Now: at, Deadline: due}); !ok || err != nil {
		t.Fatal(ok, err)
	}
	for _, id := range []string{"handled-before", "handled-too"} {
		if _, ok, err := s.SaveTable(ctx, table.Save{Channel: "by-" + id, Data: []byte("0"), Now: at, Delivery: id}); !ok || err != nil {
			t.Fatal(ok, err)
		}
	}
	// Hold a COMMIT while the batch queues behind it.
	holding.Store(true)
	held := make(chan error, 1)
	go func() {
		_, _, err := s.SaveTable(ctx, table.Save{Channel: "other", Data: []byte("0"), Now: at})
		held <- err
	}()
	<-blocked
	commits := s.WriteStats().Commits
	saves := []table.Save{
		{Channel: "m0", Version: 1, Delivery: "i0", Deadline: due.Add(time.Second)},
		{Channel: "m1", Version: 2, Delivery: "i1"},
		{Channel: "m2", Version: 7, Delivery: "i2"},
		{Channel: "m3", Version: 1, Delivery: "handled-before"},
	}
	want := []answer{{2, true, nil}, {3, true, nil}, {0, false, nil}, {0, false, table.ErrDuplicate}}
	if finished {
		r := table.Result{Scope: "g", Players: []string{"ann", "ben"}, Winner: 0, Places: []int{0, 1}, Rules: game.Classic(), Moves: 5}
		stale := table.Result{Scope: "g", Players: []string{"ann", "cat"}, Winner: 1, Places: []int{1, 0}, Rules: game.Classic(), Moves: 5}
		saves = append(saves, table.Save{Channel: "m4", Version: 1, Delivery: "i4", Result: &r},
			table.Save{Channel: "m5", Version: 4, Delivery: "i5", Result: &stale})
		want = append(want, answer{2, true, nil}, answer{0, false, nil})
	}
	answers := make([]answer, len(saves))
	var wg sync.WaitGroup
	for i, sv := range saves {
		wg.Go(func() {
			sv.Guild, sv.Data, sv.Now = "g", []byte(fmt.Sprint("moved", i)), at
			v, ok, err := s.SaveTable(ctx, sv)
			answers[i] = answer{v, ok, err}
		})
	}
	for _, id := range []string{"fresh", "handled-too"} {
		s.Remember(ctx, id, at)
	}
	WaitQueued(t, s, len(saves)+2)
	close(release)
	wg.Wait()
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	for i, a := range answers {
		if a.version != want[i].version || a.ok != want[i].ok || !errors.Is(a.err, want[i].err) || (a.err == nil) != (want[i].err == nil) {
			t.Errorf("%s: v%d %v %v, want v%d %v %v", saves[i].Channel, a.version, a.ok, a.err, want[i].version, want[i].ok, want[i].err)
		}
	}
	if n := s.WriteStats().Commits - commits; n != 2 {
		t.Errorf("%d COMMITs for the held save and the batch, want 2", n)
	}
	if ann, err := s.Tally(ctx, "g", "ann"); err != nil || ann.Wins != map[bool]int{true: 1}[finished] || ann.Losses != 0 {
		t.Errorf("the finished game's winner: %+v %v", ann, err)
	}
	if cat, err := s.Tally(ctx, "g", "cat"); err != nil || cat.Wins != 0 {
		t.Errorf("the game whose swap lost was recorded: %+v %v", cat, err)
	}
	if finished {
		CheckRated(t, s, "g", map[string]int{"ann": 1, "ben": 1, "cat": 0})
	}
	for id, want := range map[string]bool{"i0": true, "i1": true, "i2": false, "fresh": true, "i4": finished, "i5": false} {
		if got, err := s.Handled(ctx, id); got != want || err != nil {
			t.Errorf("interaction %s handled: %v %v, want %v", id, got, err, want)
		}
	}
	if next, ok, err := s.NextDeadline(ctx); !ok || err != nil || !next.Equal(due.Add(time.Second)) {
		t.Errorf("next deadline %v %v %v, want m0's %v (m1's clock stopped)", next, ok, err, due.Add(time.Second))
	}
	for ch, want := range map[string]int64{"m0": 2, "m1": 3, "m2": 1, "m3": 1} {
		if _, v, _, err := s.LoadTable(ctx, ch); v != want || err != nil {
			t.Errorf("%s: v%d %v, want v%d", ch, v, err, want)
		}
	}
}

// deliveryInOneBatch: deliveries of one interaction ID queued into one
// batch (on other channels, so every swap would win) apply exactly once,
// the others answered as duplicates, however the batch is written
// (PostgreSQL groups the updates into one statement).
func deliveryInOneBatch(t *testing.T, open OpenDurable) {
	const channels = 6
	ctx := context.Background()
	s, release, held := HoldingCommit(t, open, "b", channels, "")
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
	WaitQueued(t, s, channels)
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
	if s.WriteStats().Commits != channels+2 {
		t.Errorf("%d COMMITs, want %d: the six saves share one", s.WriteStats().Commits, channels+2)
	}
}

// batchedResults: games that finish in one batch are rated together,
// in channel order, as if one after another: a player in two of them ends
// where the memory store (one game at a time) puts them, and a save that
// lost its swap records no result.
func batchedResults(t *testing.T, open OpenDurable) {
	games := []struct {
		channel string
		players []string
		version int64
	}{
		{"u0", []string{"ann", "ben"}, 1},
		{"u1", []string{"cat", "ann"}, 1},
		{"u2", []string{"ben", "dan"}, 1},
		{"u3", []string{"ann", "dan"}, 9}, // stale: loses its swap
	}
	want := store.NewMemory()
	ctx := context.Background()
	for _, g := range games {
		if g.version != 1 {
			continue
		}
		r := Finished(t, "g", g.channel, classic, g.players, ClassicWin)
		if _, ok, err := want.SaveTable(ctx, table.Save{Channel: g.channel, Guild: "g", Data: []byte("{}"), Now: at, Result: r}); !ok || err != nil {
			t.Fatal(ok, err)
		}
	}
	s, release, held := HoldingCommit(t, open, "u", len(games), "g")
	var wg sync.WaitGroup
	for _, g := range games {
		wg.Go(func() {
			r := Finished(t, "g", g.channel, classic, g.players, ClassicWin)
			_, ok, err := s.SaveTable(ctx, table.Save{Channel: g.channel, Guild: "g", Data: []byte("{}"), Version: g.version, Now: at, Result: r})
			if err != nil || ok != (g.version == 1) {
				t.Errorf("%s: saved %v, %v", g.channel, ok, err)
			}
		})
	}
	WaitQueued(t, s, len(games))
	close(release)
	wg.Wait()
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	for _, scope := range []string{"g", table.Everywhere} {
		for _, p := range []string{"ann", "ben", "cat", "dan"} {
			got, err := s.Ratings(ctx, scope, p)
			exp, _ := want.Ratings(ctx, scope, p)
			if err != nil || fmt.Sprint(got) != fmt.Sprint(exp) {
				t.Errorf("%s in %s: %+v (%v), want %+v", p, scope, got, err, exp)
			}
		}
	}
	if dan, err := s.Tally(ctx, "g", "dan"); dan.Wins+dan.Losses+dan.Draws != 1 || err != nil {
		t.Errorf("dan played one recorded game, tally %+v %v", dan, err)
	}
}

// replicasRaceOneExpiry: two processes on one database apply one run-out clock at
// once: exactly one result.
func replicasRaceOneExpiry(t *testing.T, open OpenPair) {
	for round := range 5 {
		st1, st2 := open(t)
		c := &testClock{now: at}
		r1, r2 := newReplica(t, st1, c), newReplica(t, st2, c)
		ch := "race"
		OpenClockedGame(t, r1.tables, ch)
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
	c := &testClock{now: at}
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

// firstID is an interaction ID (a snowflake) of 2026.
const firstID = 1574031694233600000

// BenchDurableSaves measures what a move costs a store: concurrent
// channels, each saving its table one version after another (every save a
// compare-and-swap that wins, answering an interaction whose ID it
// records), each answered only once it is durable. saves/s is the figure to
// compare.
func BenchDurableSaves(b *testing.B, open func(testing.TB) Durable) {
	data := make([]byte, 600) // about a Connect Four table mid-game
	for i := range data {
		data[i] = byte('a' + i%26)
	}
	for _, channels := range []int{1, 16, 64} {
		b.Run(fmt.Sprintf("channels=%d", channels), func(b *testing.B) {
			s := open(b)
			ctx := context.Background()
			versions := make([]int64, channels)
			// Warm up: one save a channel creates its row and opens
			// every pooled connection the run will use.
			var warm sync.WaitGroup
			for c := range channels {
				warm.Add(1)
				go func() {
					defer warm.Done()
					_, _, _, _ = s.LoadTable(ctx, fmt.Sprintf("bench-%d", c))
					v, _, err := s.SaveTable(ctx, table.Save{Channel: fmt.Sprintf("bench-%d", c), Guild: "g", Data: data, Now: at})
					if err != nil {
						b.Error(err)
					}
					versions[c] = v
				}()
			}
			warm.Wait()
			var ids atomic.Uint64
			commits := s.WriteStats().Commits
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			per := (b.N + channels - 1) / channels
			for c := range channels {
				wg.Add(1)
				go func() {
					defer wg.Done()
					ch := fmt.Sprintf("bench-%d", c)
					for range per {
						// Every save answers an interaction, whose ID it records.
						id := strconv.FormatUint(firstID+ids.Add(1), 10)
						v, ok, err := s.SaveTable(ctx, table.Save{Channel: ch, Guild: "g", Data: data, Version: versions[c], Now: at, Delivery: id})
						if err != nil || !ok {
							b.Errorf("save %s v%d: %v %v", ch, versions[c], ok, err)
							return
						}
						versions[c] = v
					}
				}()
			}
			wg.Wait()
			b.ReportMetric(float64(per*channels)/time.Since(start).Seconds(), "saves/s")
			b.ReportMetric(float64(per*channels)/float64(s.WriteStats().Commits-commits), "saves/commit")
		})
	}
}

// CheckFirstReleased checks a database that the first released schema's
// store wrote (each store package's testdata), now opened as s: two
// channels' tables (200000000000000001, whose game X won along the top row
// at 12:00:05; 200000000000000002, an open game on a 30-second clock, due
// at 12:00:36, 2026-11-22 UTC), the finished game's result and ratings,
// and the interactions handled. It then plays on, to show the old rows take
// new writes.
func CheckFirstReleased(t *testing.T, s Store) {
	t.Helper()
	ctx := context.Background()
	const done, clocked = "200000000000000001", "200000000000000002"
	const x, o = "100000000000000001", "100000000000000002"
	now := time.Date(2026, 11, 22, 12, 0, 10, 0, time.UTC)
	ts := table.NewTables(table.Options{Store: s, Now: func() time.Time { return now }})
	over, err := ts.Load(ctx, done)
	if err != nil || over == nil || over.Phase != table.Over || len(over.Game().Moves()) != 5 {
		t.Fatalf("the finished game's table: %v (%v)", over, err)
	}
	open, err := ts.Load(ctx, clocked)
	if err != nil || open == nil || !open.Phase.Open() || len(open.Game().Moves()) != 1 {
		t.Fatalf("the clocked game's table: %v (%v)", open, err)
	}
	due := time.Date(2026, 11, 22, 12, 0, 36, 0, time.UTC)
	if next, ok, err := s.NextDeadline(ctx); !ok || err != nil || !next.Equal(due) {
		t.Errorf("next deadline %v %v %v, want %v", next, ok, err, due)
	}
	last, found, err := s.LastFinished(ctx, done)
	if err != nil || !found || last.Result.Winner != 0 || !slices.Equal(last.Result.Players, []string{x, o}) ||
		!last.At.Equal(time.Date(2026, 11, 22, 12, 0, 5, 0, time.UTC)) || fmt.Sprint(last.Result.Record) != fmt.Sprint(mustHistory(t, ClassicWin)) {
		t.Errorf("the finished game: %+v %v %v", last, found, err)
	}
	for _, scope := range []string{"g", table.Everywhere} {
		if rs, err := s.Ratings(ctx, scope, x); err != nil || len(rs) != 1 || rs[0].Games != 1 || rs[0].Kind != table.KindClassic {
			t.Errorf("the winner's ratings in %s: %+v %v", scope, rs, err)
		}
	}
	if h, err := s.History(ctx, table.HistoryQuery{Player: o, Scope: table.Everywhere, Limit: 10}); err != nil || len(h) != 1 || h[0].ID != last.ID {
		t.Errorf("the loser's history: %+v %v", h, err)
	}
	for _, id := range []string{"1574031694233600000", "1574031694233601000"} {
		if handled, err := s.Handled(ctx, id); !handled || err != nil {
			t.Errorf("interaction %s handled: %v %v", id, handled, err)
		}
	}
	err = ts.Do(ctx, clocked, func(_ context.Context, cur *table.Table) (*table.Table, error) {
		tb, err := table.Current(cur)
		if err != nil {
			return nil, err
		}
		_, _, err = tb.Move(o, "0,0")
		return tb, err
	})
	if err != nil {
		t.Fatalf("a move in the clocked game: %v", err)
	}
	if next, ok, err := s.NextDeadline(ctx); !ok || err != nil || !next.Equal(now.Add(30*time.Second)) {
		t.Errorf("next deadline after the move %v %v %v, want %v", next, ok, err, now.Add(30*time.Second))
	}
}

// PostgresURL returns a URL for a fresh schema of its own on the test
// server, dropped when the test ends. Without TEST_DATABASE_URL it skips.
func PostgresURL(tb testing.TB) string {
	tb.Helper()
	base := os.Getenv("TEST_DATABASE_URL")
	if base == "" {
		tb.Skip("PostgreSQL tests skipped: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable); .ci/run sets it")
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		tb.Fatal(err)
	}
	schema := fmt.Sprintf("tttbot_test_%d", rand.Uint64())
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		admin.Close()
		tb.Fatalf("TEST_DATABASE_URL=%s: %v", base, err)
	}
	tb.Cleanup(func() {
		admin.Exec("DROP SCHEMA " + schema + " CASCADE")
		admin.Close()
	})
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	return base + sep + "search_path=" + schema
}

// mustHistory reads a game record ("seat.row.col" moves).
func mustHistory(tb testing.TB, record string) game.History {
	tb.Helper()
	var h game.History
	if err := h.UnmarshalText([]byte(record)); err != nil {
		tb.Fatal(err)
	}
	return h
}
