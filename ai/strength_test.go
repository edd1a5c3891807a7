package ai

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/tttbot/tttbot/ai/internal/bitboard"
	"github.com/tttbot/tttbot/game"
)

// The measurements of issue 14 and the self-play ladder take minutes with
// the real clock, so they run only with -long:
//
//	go test ./ai/ -run Long -long -v
var (
	long         = flag.Bool("long", false, "run the long strength measurements")
	positions    = flag.Int("positions", 200, "random positions for TestLongValueKept")
	openings     = flag.Int("openings", 10, "random openings for TestLongAgainstPerfect (each played from both sides)")
	openingPlies = flag.Int("opening", 8, "stones of TestLongAgainstPerfect's openings")
	budget       = flag.Duration("budget", DefaultBudget, "Hard's budget a move in the long measurements")
	hardNodes    = flag.Int64("nodes", 0, "if positive, Hard's node budget a move instead of the clock (reproducible; no shared table, no helper)")
	minPly       = flag.Int("minply", 8, "fewest stones of TestLongValueKept's positions")
	maxPly       = flag.Int("maxply", 40, "most stones of TestLongValueKept's positions")
)

var connectFour = game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 2}

// oracle is the perfect player: the exact solver with no limit and a
// table of its own.
type oracle struct {
	geo *bitboard.Geometry
	tt  *bitboard.Table
}

func newOracle() *oracle {
	return &oracle{geo: bitboard.NewGeometry(connectFour), tt: bitboard.NewTable(22)}
}

// value is the mover's outcome in g: −1, 0 or +1. Within the opening
// book's plies it is the book's (the solver would take minutes there; the
// book is the same solver's, checked by TestBookCoversAndAgrees and
// TestBookResolve).
func (o *oracle) value(g *game.Game) int {
	p := o.geo.FromGame(g)
	if v, ok := bookValue(o.geo, connectFour, p); ok {
		return v
	}
	if v, ok := o.geo.Trivial(p); ok {
		return bitboard.Sign(v)
	}
	s := &bitboard.Solver{G: o.geo, TT: o.tt, Ctx: context.Background()}
	v, _ := s.Solve(p, true)
	return v
}

// after is the mover's outcome after playing c: minus the opponent's.
func (o *oracle) after(g *game.Game, c game.Coord) int {
	next := g.Clone()
	next.Play(next.Turn(), c)
	switch next.State() {
	case game.Won:
		return 1
	case game.Drawn:
		return 0
	}
	return -o.value(next)
}

// move is a move that keeps the outcome.
func (o *oracle) move(g *game.Game) game.Coord {
	p := o.geo.FromGame(g)
	s := &bitboard.Solver{G: o.geo, TT: o.tt, Ctx: context.Background()}
	if m := o.geo.WinningMove(p); m != 0 {
		return game.Coord{Col: o.geo.Column(m)}
	}
	if m, _, _, ok := bitboard.BookMove(openingBook(), o.geo, connectFour, p); ok {
		return game.Coord{Col: o.geo.Column(m)}
	}
	v, _ := s.Solve(p, true)
	m, _ := s.Best(p, v, true)
	return game.Coord{Col: o.geo.Column(m)}
}

// bookPlies is the embedded book's depth, 0 without one.
func bookPlies() int {
	if b := openingBook(); b != nil {
		return b.Plies
	}
	return 0
}

// hardOptions are Hard's options in the long measurements: the clock
// (-budget), or a node budget (-nodes) with time to spare.
func hardOptions() Options {
	if *hardNodes > 0 {
		return Options{Level: Hard, Budget: time.Hour, MaxNodes: *hardNodes}
	}
	return Options{Level: Hard, Budget: *budget}
}

// randomPosition is a Connect Four position of n random stones that does
// not end the game (fewer if every continuation would end it).
func randomPosition(tb testing.TB, n int, rng *rand.Rand) *game.Game {
	tb.Helper()
	return randomGame(tb, connectFour, n, rng)
}

// TestLongValueKept: on random Connect Four positions (-minply to -maxply
// stones, 8 to 40 unless told, as many of each count), Hard with the bot's budget plays a move that keeps
// the position's outcome (win, draw or loss) on at least 99% of them.
func TestLongValueKept(t *testing.T) {
	if !*long {
		t.Skip("needs -long")
	}
	o := newOracle()
	rng := rand.New(rand.NewPCG(14, 1))
	kept, canLose, keptWhereCanLose, complete := 0, 0, 0, 0
	var took time.Duration
	for i := 0; i < *positions; i++ {
		g := randomPosition(t, *minPly+i%(*maxPly-*minPly+1), rng)
		if g.Over() {
			continue
		}
		start := time.Now()
		c, st, err := Move(context.Background(), g, hardOptions())
		took += time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		if st.Complete {
			complete++
		}
		want := o.value(g)
		got := o.after(g, c)
		worst := 1
		for col := 0; col < connectFour.Cols; col++ {
			if !g.ColumnFull(col) && (g.Filled() >= 8 || g.Filled() < bookPlies()) { // between the book and ply 8 the oracle takes too long
				worst = min(worst, o.after(g, game.Coord{Col: col}))
			}
		}
		if worst < want {
			canLose++
		}
		if got == want {
			kept++
			if worst < want {
				keptWhereCanLose++
			}
		} else {
			t.Logf("ply %d %v: Hard played column %d worth %d, the position is worth %d (stats %+v)", g.Filled(), g.Moves(), c.Col, got, want, st)
		}
	}
	n := *positions
	t.Logf("kept the value on %d of %d positions (%.1f%%); %d of %d where a move could lose it; %d proved; mean %v a move",
		kept, n, 100*float64(kept)/float64(n), keptWhereCanLose, canLose, complete, took/time.Duration(n))
	if kept*100 < 99*n {
		t.Errorf("kept the value on %d of %d positions, want ≥ 99%%", kept, n)
	}
}

// TestLongAgainstPerfect plays Hard (the bot's budget) against the perfect
// player from random openings (8 plies unless -opening says), from both sides, and compares each
// result with the opening's value: won starts must be won, drawn ones not
// lost.
func TestLongAgainstPerfect(t *testing.T) {
	if !*long {
		t.Skip("needs -long")
	}
	o := newOracle()
	rng := rand.New(rand.NewPCG(14, 2))
	type tally struct{ starts, held int }
	var res [2][3]tally // [Hard's seat][start value+1]
	for i := 0; i < *openings; i++ {
		opening := randomPosition(t, *openingPlies, rng)
		if opening.Over() {
			continue
		}
		v0 := o.value(opening) // for the player to move
		for hard := 0; hard < 2; hard++ {
			g := opening.Clone()
			want := v0 // Hard's value at the start
			if hard != g.Turn() {
				want = -v0
			}
			for !g.Over() {
				var c game.Coord
				if g.Turn() == hard {
					var err error
					if c, _, err = Move(context.Background(), g, hardOptions()); err != nil {
						t.Fatal(err)
					}
				} else {
					c = o.move(g)
				}
				if _, err := g.Play(g.Turn(), c); err != nil {
					t.Fatalf("illegal move %v: %v", c, err)
				}
			}
			got := 0
			if g.State() == game.Won {
				got = -1
				if g.Winner() == hard {
					got = 1
				}
			}
			r := &res[hard][want+1]
			r.starts++
			if got >= want {
				r.held++
			} else {
				t.Logf("Hard as player %d from %v (worth %d) ended %d: %v", hard+1, opening.Moves(), want, got, g.Moves())
			}
		}
	}
	names := []string{"lost", "drawn", "won"}
	for hard := 0; hard < 2; hard++ {
		for v := 0; v < 3; v++ {
			r := res[hard][v]
			t.Logf("Hard as player %d: %d of %d %s starts held", hard+1, r.held, r.starts, names[v])
			if v > 0 && r.held < r.starts {
				t.Errorf("Hard as player %d lost value in %d of %d %s starts", hard+1, r.starts-r.held, r.starts, names[v])
			}
		}
	}
}

// TestLongLadder plays every pair of levels on several rule sets, each
// level in every seat after the same short random opening, and logs the
// results: the levels must come out in order (the stronger side of each
// pair wins at least as many games a seat). Moves are node-budgeted
// (-ladder-nodes) so the ladder is the same on any machine; -ladder-games
// plays each rule set's games that many times over, for a smaller noise.
func TestLongLadder(t *testing.T) {
	if !*long {
		t.Skip("needs -long")
	}
	for _, tc := range []struct {
		name  string
		r     game.Rules
		games int
	}{
		{"3x3", game.Classic(), 20},
		{"connect4_7x6", connectFour, 20},
		{"gravity_8x8_k4", game.Rules{Rows: 8, Cols: 8, Win: 4, Gravity: true, Players: 2}, 20},
		{"5x5_k4", game.Rules{Rows: 5, Cols: 5, Win: 4, Players: 2}, 20},
		{"9x9_k5", game.Rules{Rows: 9, Cols: 9, Win: 5, Players: 2}, 20},
		{"15x15_k5", game.Rules{Rows: 15, Cols: 15, Win: 5, Players: 2}, 20},
		{"19x19_k5", game.Rules{Rows: 19, Cols: 19, Win: 5, Players: 2}, 10},
		{"4x4_k3", game.Rules{Rows: 4, Cols: 4, Win: 3, Players: 2}, 20},
		{"7x7_k4_3players", game.Rules{Rows: 7, Cols: 7, Win: 4, Players: 3}, 18},
		{"10x10_k4_3players", game.Rules{Rows: 10, Cols: 10, Win: 4, Players: 3}, 18},
		{"gravity_7x6_k4_3players", game.Rules{Rows: 6, Cols: 7, Win: 4, Gravity: true, Players: 3}, 18},
		{"10x10_k4_4players", game.Rules{Rows: 10, Cols: 10, Win: 4, Players: 4}, 20},
		{"gravity_9x8_k4_4players", game.Rules{Rows: 8, Cols: 9, Win: 4, Gravity: true, Players: 4}, 20},
		{"12x12_k4_6players", game.Rules{Rows: 12, Cols: 12, Win: 4, Players: 6}, 18},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, pair := range [][2]Level{{Hard, Medium}, {Hard, Easy}, {Medium, Easy}} {
				// score: a win counts 2, a draw 1, for the pair's first level
				var strong, weak, draws int
				games := tc.games * *ladderGames
				for i := 0; i < games; i++ {
					seats := make([]Level, tc.r.Players)
					for s := range seats {
						seats[s] = pair[1]
					}
					strongSeat := i % tc.r.Players
					seats[strongSeat] = pair[0]
					// Medium and Hard are deterministic: a short random
					// opening, the same for every seating, makes the games
					// differ.
					g := newGame(t, tc.r)
					opening := rand.New(rand.NewPCG(uint64(i/tc.r.Players), 9))
					// Two random stones decide a 3×3 game (an edge reply
					// to a centre loses): small boards get one.
					stones := tc.r.Players
					if tc.r.Cells() <= 16 {
						stones = 1
					}
					for len(g.Moves()) < stones {
						mid := game.Coord{Row: tc.r.Rows/2 - 1 + opening.IntN(3), Col: tc.r.Cols/2 - 1 + opening.IntN(3)}
						g.Play(g.Turn(), mid) // an occupied cell is refused: draw again
					}
					for !g.Over() {
						c, _, err := Move(context.Background(), g, Options{Level: seats[g.Turn()], Budget: time.Minute, MaxNodes: *ladderNodes, Seed: uint64(i)})
						if err != nil {
							t.Fatal(err)
						}
						if _, err := g.Play(g.Turn(), c); err != nil {
							t.Fatal(err)
						}
					}
					switch {
					case g.State() == game.Drawn:
						draws++
					case g.Winner() == strongSeat:
						strong++
					default:
						weak++
					}
				}
				t.Logf("%-6v vs %-6v: %2d won, %2d drawn, %2d lost", pair[0], pair[1], strong, draws, weak)
				// With more than two players the weaker level holds the
				// other seats: compare wins a seat.
				if strong*(tc.r.Players-1) < weak {
					t.Errorf("%v won fewer games a seat than %v", pair[0], pair[1])
				}
			}
		})
	}
}

var (
	ladderNodes = flag.Int64("ladder-nodes", 20000, "node budget a move in TestLongLadder")
	ladderGames = flag.Int("ladder-games", 1, "TestLongLadder plays this many times each rule set's games")
)

// TestHardForksWithFourPlayers: with four players, one player would block
// a win (the one before the winner, as Medium does) and none can block two,
// so Hard makes a fork when it can. A paranoid search, which lets the other
// three block together, sees no value in one (docs/ai.md).
func TestHardForksWithFourPlayers(t *testing.T) {
	g := newGame(t, game.Rules{Rows: 10, Cols: 10, Win: 4, Players: 4})
	at := func(r, c int) game.Coord { return game.Coord{Row: r, Col: c} }
	// X: two on row 5; the others in the corners and edges, far off.
	play(t, g, at(5, 3), at(0, 0), at(0, 9), at(9, 0), at(5, 4), at(9, 9), at(0, 5), at(9, 5))
	for seed := range uint64(4) {
		c, after := afterHard(t, g, seed)
		if _, two := newPosition(after).gain(0); !two {
			t.Errorf("seed %d: Hard played %v, which leaves X one winning cell or none", seed, c)
		}
	}
}

// TestHardSolvesGravityEndgames: near the end of a three-player gravity
// game, who must play under whose winning cell depends on how many cells
// are left. Hard solves the rest of the game (every player playing for
// itself) and plays the one move that wins, or the one that holds the
// draw. Medium's two plies play another in both, and so did Hard before it
// solved endgames (positions found by that search over random games).
func TestHardSolvesGravityEndgames(t *testing.T) {
	r := game.Rules{Rows: 5, Cols: 6, Win: 4, Gravity: true, Players: 3}
	for _, tc := range []struct {
		name  string
		moves string
		want  game.Coord
	}{
		{"wins", "4,2 4,0 3,0 4,1 4,3 2,0 4,4 3,3 3,1 2,1 1,1 2,3 1,3 0,3 3,4 2,4 1,4 3,2 1,0 2,2", game.Coord{Row: 1, Col: 2}},
		{"draws", "4,5 4,3 4,2 4,1 3,5 4,0 3,2 3,3 3,0 2,2 2,0 1,2 2,3 1,3 3,1 0,2 1,0 2,1 0,3 1,1", game.Coord{Row: 2, Col: 5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGame(t, r)
			playList(t, g, tc.moves)
			if c, _ := afterHard(t, g, 1); c != tc.want {
				t.Errorf("Hard played %v; only %v %s", c, tc.want, tc.name)
			}
		})
	}
}

// TestHardPreparesForksWithSixPlayers: with five opponents, only the one
// before Hard blocks its wins, so a fork wins; with none to make, Hard
// plays the move after which it has the most (two at least) to choose
// from next turn. Medium's search plays elsewhere in both positions
// (found by that search over games of Medium's).
func TestHardPreparesForksWithSixPlayers(t *testing.T) {
	r := game.Rules{Rows: 12, Cols: 12, Win: 4, Players: 6}
	for _, moves := range []string{
		"7,5 7,6 4,4 6,5 6,7 6,4 6,6 5,7 3,5 5,6 4,7 8,4 5,3 2,6 7,4 3,6 4,8 7,3",
		"6,5 4,6 4,5 7,6 5,7 6,7 7,4 3,6 5,6 4,8 8,3 6,3",
	} {
		g := newGame(t, r)
		playList(t, g, moves)
		for seed := range uint64(3) {
			c, after := afterHard(t, g, seed)
			s := newSearch(context.Background(), after, Options{Level: Hard})
			s.me = g.Turn()
			if n := len(s.forks(s.candidates(s.me, -1))); n < 2 {
				t.Errorf("after %s, seed %d: Hard played %v, which leaves %d forks to make", moves, seed, c, n)
			}
		}
	}
}

// playList plays moves written "row,col row,col …".
func playList(t *testing.T, g *game.Game, moves string) {
	t.Helper()
	for _, m := range strings.Fields(moves) {
		var c game.Coord
		if _, err := fmt.Sscanf(m, "%d,%d", &c.Row, &c.Col); err != nil {
			t.Fatal(err)
		}
		play(t, g, c)
	}
}

// afterHard returns Hard's move on g (20,000 nodes, seed) and a copy of g
// after it.
func afterHard(t *testing.T, g *game.Game, seed uint64) (game.Coord, *game.Game) {
	t.Helper()
	c, _, err := Move(context.Background(), g, Options{Level: Hard, Budget: time.Minute, MaxNodes: 20000, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	after := g.Clone()
	if _, err := after.Play(after.Turn(), c); err != nil {
		t.Fatal(err)
	}
	return c, after
}
