package ai

import (
	"context"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot/ai/internal/bitboard"
	"github.com/tttbot/tttbot/game"
)

// TestExactConcurrent: several games ask Hard at once, all through the
// one shared solver table; every move keeps its position's outcome
// (checked with a private oracle afterwards), and -race sees the table's
// lockless slots.
func TestExactConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 14))
	var games []*game.Game
	for len(games) < 16 {
		g := randomPosition(t, 22+rng.IntN(12), rng)
		if !g.Over() {
			games = append(games, g)
		}
	}
	moves := make([]game.Coord, len(games))
	stats := make([]Stats, len(games))
	var wg sync.WaitGroup
	for i, g := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, st, err := Move(context.Background(), g, Options{Level: Hard, Budget: time.Minute})
			if err != nil {
				t.Error(err)
			}
			moves[i], stats[i] = c, st
		}()
	}
	wg.Wait()
	o := newOracle()
	for i, g := range games {
		want := o.value(g)
		if got := o.after(g, moves[i]); got != want {
			t.Errorf("%v: Hard played %v worth %d, the position is worth %d", g.Moves(), moves[i], got, want)
		}
		if !stats[i].Complete {
			t.Errorf("%v: not proved: %+v", g.Moves(), stats[i])
		}
		outcome := map[int]Outcome{1: Won, 0: Drawn, -1: Lost}[want]
		if stats[i].Outcome() != outcome {
			t.Errorf("%v: Outcome %v, want %v", g.Moves(), stats[i].Outcome(), outcome)
		}
	}
}

// TestExactReproducible: with a node budget, the same position gives the
// same move and stats however warm the shared table is.
func TestExactReproducible(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 14))
	g := randomPosition(t, 14, rng)
	opt := Options{Level: Hard, Budget: time.Minute, MaxNodes: 20000}
	c1, st1, _ := Move(context.Background(), g, opt)
	Move(context.Background(), g, Options{Level: Hard, Budget: 200 * time.Millisecond}) // warms the shared table
	c2, st2, _ := Move(context.Background(), g, opt)
	if c1 != c2 || st1 != st2 {
		t.Fatalf("first %v %+v, then %v %+v", c1, st1, c2, st2)
	}
}

// TestExactStats: a won position reports Won with its distance, and a
// move that wins at once reports Distance 1.
func TestExactStats(t *testing.T) {
	g := newGame(t, connectFour)
	for _, ch := range "361453455474527" { // scores 9 (Pons): the mover's win comes on a board of 25 stones
		play(t, g, game.Coord{Col: int(ch - '1')})
	}
	_, st, _ := Move(context.Background(), g, Options{Level: Hard, Budget: time.Minute})
	if st.Outcome() != Won || st.Distance != 11 || st.Score != Win-11 {
		t.Fatalf("%+v, outcome %v; want won in 11 plies", st, st.Outcome())
	}
	g = newGame(t, connectFour)
	for _, col := range []int{3, 3, 4, 4, 2, 0} { // Pons' 4455, then an open three: columns 1 and 5 win
		play(t, g, game.Coord{Col: col})
	}
	c, st, _ := Move(context.Background(), g, Options{Level: Hard, Budget: time.Minute})
	if (c.Col != 1 && c.Col != 5) || st.Distance != 1 || st.Outcome() != Won {
		t.Fatalf("open three: played %v, %+v", c, st)
	}
}

// TestHelpKeep: with a position's value known, the helper finds a move that
// keeps it, hands it over once, and stops.
func TestHelpKeep(t *testing.T) {
	geo := bitboard.NewGeometry(connectFour)
	rng := rand.New(rand.NewPCG(5, 5))
	oracle := &bitboard.Solver{G: geo, TT: bitboard.NewTable(18), Ctx: context.Background()}
	for tested := 0; tested < 5; {
		p := geo.FromGame(randomGame(t, connectFour, 16, rng))
		if geo.WinningMove(p) != 0 || geo.NonLosing(p) == 0 {
			continue
		}
		v, _ := oracle.Solve(p, true)
		if v < 0 {
			continue
		}
		tested++
		var wg sync.WaitGroup
		var nodes atomic.Int64
		var got []uint64
		var mu sync.Mutex
		helpKeep(context.Background(), &wg, &nodes, geo, p, bitboard.NewTable(16), time.Time{}, v, func(m uint64) {
			mu.Lock()
			got = append(got, m)
			mu.Unlock()
		})
		wg.Wait()
		if runtime.GOMAXPROCS(0) < 2 {
			continue // no helper on one CPU
		}
		if len(got) != 1 || nodes.Load() == 0 {
			t.Fatalf("helpers reported %d moves after %d nodes, want one", len(got), nodes.Load())
		}
		if keeps, _ := oracle.Keeps(p, got[0], v); !keeps || got[0]&geo.NonLosing(p) == 0 {
			t.Errorf("position worth %d: the helper's column %d does not keep it", v, geo.Column(got[0]))
		}
	}
}

// TestHardBlocksInOpenings: in opening positions where the opponent
// threatens to win at once, Hard blocks, even where the book says the
// position is lost anyway (all its moves then lose; the book used to
// play the centre, and the opponent won at once).
func TestHardBlocksInOpenings(t *testing.T) {
	geo := bitboard.NewGeometry(connectFour)
	rng := rand.New(rand.NewPCG(1, 2))
	lost, tested := 0, 0
	for tested < 30 {
		g := randomGame(t, connectFour, 3+rng.IntN(5), rng)
		p := geo.FromGame(g)
		next := geo.NonLosing(p)
		if geo.WinningMove(p) != 0 || next == 0 || next == geo.Possible(p) {
			continue
		}
		tested++
		if v, ok := bookValue(geo, connectFour, p); ok && v < 0 {
			lost++
		}
		opt := Options{Level: Hard, Budget: time.Minute, MaxNodes: 20000}
		if tested%5 == 0 {
			opt = Options{Level: Hard, Budget: 20 * time.Millisecond} // the clock's path: shared table, helper
		}
		c, _, err := Move(context.Background(), g, opt)
		if err != nil {
			t.Fatal(err)
		}
		if next&geo.MoveIn(p, c.Col) == 0 {
			t.Errorf("%v: Hard played column %d and lets the opponent win at once", g.Moves(), c.Col+1)
		}
	}
	if lost == 0 {
		t.Error("no lost position among those tested: the test misses the case it is for")
	}
}
