package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/table"
)

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
		if wins := raceSaves(t, s, 8, func(i int) table.Save {
			return table.Save{Channel: "c1", Guild: "g1", Data: []byte(fmt.Sprintf(`{"w":%d}`, i)), Version: 2, Now: at}
		}); wins != 1 {
			t.Fatalf("%d writers won, want 1", wins)
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
	if wins := raceSaves(t, s, 6, func(int) table.Save {
		r := Finished(t, "g", "c", classic, []string{"ann", "ben"}, ClassicWin)
		return table.Save{Channel: "c", Guild: "g", Data: []byte("{}"), Version: 1, Now: at, Result: r}
	}); wins != 1 {
		t.Fatalf("%d saves won", wins)
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

// raceSaves makes n saves of s at once, the i-th save(i), and returns how
// many won their compare-and-swap; an error fails the test.
func raceSaves(t *testing.T, s Store, n int, save func(i int) table.Save) int {
	var wins atomic.Int32
	var wg sync.WaitGroup
	for i := range n {
		sv := save(i) // here: it may fail the test
		wg.Go(func() {
			_, ok, err := s.SaveTable(context.Background(), sv)
			if err != nil {
				t.Error(err)
			}
			if ok {
				wins.Add(1)
			}
		})
	}
	wg.Wait()
	return int(wins.Load())
}
