package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot/game"
	"github.com/tttbot/tttbot/table"
)

// backendsOf are the stores as table.Store, for the suites below.
func openAll(t *testing.T, run func(t *testing.T, s table.Store)) {
	t.Helper()
	for name, open := range map[string]func(testing.TB) table.Store{
		"memory":   func(testing.TB) table.Store { return NewMemory() },
		"sqlite":   func(tb testing.TB) table.Store { return newSQLite(tb) },
		"postgres": func(tb testing.TB) table.Store { return newPostgres(tb) },
	} {
		t.Run(name, func(t *testing.T) { run(t, open(t)) })
	}
}

// finished is a result as table.Table makes one, for a game given by its
// moves ("seat.row.col", "seat!").
func finished(tb testing.TB, scope, channel string, r game.Rules, players []string, record string) *table.Result {
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

// saver writes results one after another into a channel, as Tables does.
type saver struct {
	s       table.Store
	version map[string]int64
	now     time.Time
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

const classicWin = "0.0.0 1.1.0 0.0.1 1.1.1 0.0.2" // seat 0 wins along the top row

var classic = game.Rules{Rows: 3, Cols: 3, Win: 3, Players: 2}

func TestRatings(t *testing.T) {
	openAll(t, func(t *testing.T, s table.Store) {
		ctx := context.Background()
		sv := &saver{s: s, version: map[string]int64{}, now: at}
		for range 3 {
			sv.save(t, finished(t, "g1", "c1", classic, []string{"ann", "ben"}, classicWin))
		}
		// Against the computer: recorded, not rated.
		sv.save(t, finished(t, "g1", "c1", classic, []string{"ann", "ai:hard"}, classicWin))
		// Three players on 4×4, three in a row: cat leaves, then dan wins.
		four := game.Rules{Rows: 4, Cols: 4, Win: 3, Players: 3}
		sv.save(t, finished(t, "g2", "c2", four, []string{"dan", "eve", "cat"}, "0.0.0 1.1.0 2! 0.0.1 1.1.1 0.0.2"))
		// A 3-player draw between ann, ben and cat with nobody leaving.
		draw3 := game.Rules{Rows: 3, Cols: 3, Win: 3, Players: 3}
		sv.save(t, finished(t, "g2", "c2", draw3, []string{"ann", "ben", "cat"}, "0.0.0 1.0.1 2.0.2 0.1.0 1.1.1 2.1.2 0.2.1 1.2.0 2.2.2"))

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
	})
}

// TestRatingExactlyOnce: of racing saves of one game's end, only the one that
// wins the compare-and-swap rates it; a save that loses changes no rating.
func TestRatingExactlyOnce(t *testing.T) {
	openAll(t, func(t *testing.T, s table.Store) {
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
				r := finished(t, "g", "c", classic, []string{"ann", "ben"}, classicWin)
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
		r := finished(t, "g", "c", classic, []string{"ann", "ben"}, classicWin)
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
	})
}

// TestRatingsConcurrentGames: games in different channels sharing a player,
// saved at once, each move that player's rating: no update is lost.
func TestRatingsConcurrentGames(t *testing.T) {
	openAll(t, func(t *testing.T, s table.Store) {
		ctx := context.Background()
		const n = 8
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ch := fmt.Sprintf("c%d", i)
				r := finished(t, "g", ch, classic, []string{"ann", fmt.Sprintf("p%d", i)}, classicWin)
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
	})
}

func TestHistoryAndReplayRecords(t *testing.T) {
	openAll(t, func(t *testing.T, s table.Store) {
		ctx := context.Background()
		sv := &saver{s: s, version: map[string]int64{}, now: at}
		var want []*table.Result
		for i := range 5 {
			players := []string{"ann", "ben"}
			if i%2 == 1 {
				players = []string{"ben", "ann"}
			}
			r := finished(t, "g1", "c1", classic, players, classicWin)
			sv.save(t, r)
			want = append(want, r)
		}
		sv.save(t, finished(t, "g2", "c9", classic, []string{"ann", "zed"}, "0.1.1 1!"))

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
	})
}

// TestBatchedResults: games that finish in one batch are rated together,
// in channel order, as if one after another: a player in two of them ends
// where the memory store (one game at a time) puts them, and a save that
// lost its swap records no result.
func TestBatchedResults(t *testing.T) {
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
	want := NewMemory()
	ctx := context.Background()
	for _, g := range games {
		if g.version != 1 {
			continue
		}
		r := finished(t, "g", g.channel, classic, g.players, classicWin)
		if _, ok, err := want.SaveTable(ctx, table.Save{Channel: g.channel, Guild: "g", Data: []byte("{}"), Now: at, Result: r}); !ok || err != nil {
			t.Fatal(ok, err)
		}
	}
	for _, o := range sqlOpeners {
		t.Run(o.name, func(t *testing.T) {
			s, release, held := holdingCommit(t, o.open, "u", len(games), "g")
			var wg sync.WaitGroup
			for _, g := range games {
				wg.Go(func() {
					r := finished(t, "g", g.channel, classic, g.players, classicWin)
					_, ok, err := s.SaveTable(ctx, table.Save{Channel: g.channel, Guild: "g", Data: []byte("{}"), Version: g.version, Now: at, Result: r})
					if err != nil || ok != (g.version == 1) {
						t.Errorf("%s: saved %v, %v", g.channel, ok, err)
					}
				})
			}
			waitQueued(t, s, len(games))
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
		})
	}
}

// TestPipelinedResultFailsAlone (PostgreSQL): when a finished game's
// result is refused in the batch's second round trip (a token PostgreSQL
// cannot store as text), nothing of that pipeline commits; the batch runs
// again with a savepoint an op, and only that game's save fails: the other
// game is recorded and rated, the moves beside it saved.
func TestPipelinedResultFailsAlone(t *testing.T) {
	ctx := context.Background()
	s, release, held := holdingCommit(t, sqlOpeners[1].open, "p", 3, "g")
	good := finished(t, "g", "p0", classic, []string{"ann", "ben"}, classicWin)
	bad := finished(t, "g", "p1", classic, []string{"cat", "dan"}, classicWin)
	bad.Tokens = []string{"X\x00", "O"}
	saves := []table.Save{
		{Channel: "p0", Result: good},
		{Channel: "p1", Result: bad},
		{Channel: "p2"},
	}
	errs := make([]error, len(saves))
	var wg sync.WaitGroup
	for i, sv := range saves {
		wg.Go(func() {
			sv.Guild, sv.Data, sv.Version, sv.Now = "g", []byte("1"), 1, at
			var ok bool
			_, ok, errs[i] = s.SaveTable(ctx, sv)
			if errs[i] == nil && !ok {
				errs[i] = errors.New("lost its swap")
			}
		})
	}
	waitQueued(t, s, len(saves))
	close(release)
	wg.Wait()
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	if errs[0] != nil || errs[2] != nil {
		t.Errorf("the saves beside the refused result: %v, %v", errs[0], errs[2])
	}
	if errs[1] == nil {
		t.Error("the save whose result was refused succeeded")
	}
	for ch, want := range map[string]int64{"p0": 2, "p1": 1, "p2": 2} {
		if _, v, _, err := s.LoadTable(ctx, ch); v != want || err != nil {
			t.Errorf("%s: v%d %v, want v%d", ch, v, err, want)
		}
	}
	checkRated(t, s, "g", map[string]int{"ann": 1, "cat": 0})
}

// checkRated checks that each player's ratings in scope, of every kind,
// count the games given.
func checkRated(t *testing.T, s *SQL, scope string, games map[string]int) {
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
