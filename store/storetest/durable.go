package storetest

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/store"
	"github.com/tttbot/tttbot/table"
)

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
