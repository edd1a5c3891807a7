package ai

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/tttbot/tttbot/ai/internal/bitboard"
	"github.com/tttbot/tttbot/game"
)

// brute is an independent exact solver for tiny gravity boards: a plain
// grid, every move tried, memoised. It shares no code with the bitboard
// solver, so agreement between the two means something.
type brute struct {
	rows, cols, k int
	grid          []byte // row 0 at the bottom; 0 empty, 1 and 2 the players
	memo          map[uint64]int8
}

func newBrute(r game.Rules) *brute {
	return &brute{rows: r.Rows, cols: r.Cols, k: r.Win, grid: make([]byte, r.Cells()), memo: map[uint64]int8{}}
}

// value is the Pons score of the grid with n stones, for the player to
// move, by its definition: the best over the moves of a win now, a draw
// on the last cell, or minus the opponent's value. key holds each
// player's stones as a bit set (first player low, second high).
func (b *brute) value(key uint64, n int) int {
	if v, ok := b.memo[key]; ok {
		return int(v)
	}
	me := byte(1 + n%2)
	best := -1 << 30
	cells := b.rows * b.cols
	for c := 0; c < b.cols; c++ {
		r := 0
		for r < b.rows && b.grid[r*b.cols+c] != 0 {
			r++
		}
		if r == b.rows {
			continue
		}
		i := r*b.cols + c
		b.grid[i] = me
		var v int
		switch {
		case b.wins(r, c):
			v = (cells + 1 - n) / 2
		case n+1 == cells:
			v = 0
		default:
			v = -b.value(key|uint64(1)<<(i+32*int(me-1)), n+1)
		}
		b.grid[i] = 0
		best = max(best, v)
	}
	b.memo[key] = int8(best)
	return best
}

func (b *brute) wins(r, c int) bool {
	me := b.grid[r*b.cols+c]
	for _, d := range [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
		n := 1
		for _, s := range []int{-1, 1} {
			rr, cc := r+s*d[0], c+s*d[1]
			for rr >= 0 && rr < b.rows && cc >= 0 && cc < b.cols && b.grid[rr*b.cols+cc] == me {
				n++
				rr, cc = rr+s*d[0], cc+s*d[1]
			}
		}
		if n >= b.k {
			return true
		}
	}
	return false
}

// of loads a gravity game into the grid and returns its key.
func (b *brute) of(g *game.Game) uint64 {
	var key uint64
	for row := 0; row < b.rows; row++ {
		for col := 0; col < b.cols; col++ {
			i := (b.rows-1-row)*b.cols + col
			b.grid[i] = 0
			if p := g.At(game.Coord{Row: row, Col: col}); p != game.NoPlayer {
				b.grid[i] = byte(p + 1)
				key |= uint64(1) << (i + 32*p)
			}
		}
	}
	return key
}

// randomGame plays n random moves that do not end the game (fewer if
// every continuation ends it).
func randomGame(tb testing.TB, r game.Rules, n int, rng *rand.Rand) *game.Game {
	tb.Helper()
	g := newGame(tb, r)
	for i := 0; i < n; i++ {
		var ok []game.Coord
		for _, c := range playable(g) {
			probe := g.Clone()
			probe.Play(probe.Turn(), c)
			if !probe.Over() {
				ok = append(ok, c)
			}
		}
		if len(ok) == 0 {
			break
		}
		play(tb, g, ok[rng.IntN(len(ok))])
	}
	return g
}

// playable lists the cells the mover can take: with gravity the lowest
// free cell of each column, left to right; else every free cell, row by
// row.
func playable(g *game.Game) []game.Coord {
	r := g.Rules()
	var out []game.Coord
	if r.Gravity {
		for col := 0; col < r.Cols; col++ {
			if c, err := g.Target(game.Coord{Col: col}); err == nil {
				out = append(out, c)
			}
		}
		return out
	}
	for row := 0; row < r.Rows; row++ {
		for col := 0; col < r.Cols; col++ {
			if c := (game.Coord{Row: row, Col: col}); g.At(c) == game.NoPlayer {
				out = append(out, c)
			}
		}
	}
	return out
}

// TestSolverMatchesBruteForce solves random positions of small gravity
// boards exactly, strongly and weakly, and compares with brute force.
func TestSolverMatchesBruteForce(t *testing.T) {
	boards := []game.Rules{
		{Rows: 4, Cols: 4, Win: 3, Gravity: true, Players: 2},
		{Rows: 4, Cols: 4, Win: 4, Gravity: true, Players: 2},
		{Rows: 5, Cols: 4, Win: 4, Gravity: true, Players: 2}, // 1.3M positions
	}
	if *long {
		boards = append(boards,
			game.Rules{Rows: 4, Cols: 5, Win: 4, Gravity: true, Players: 2}, // 3.1M positions
			game.Rules{Rows: 4, Cols: 5, Win: 3, Gravity: true, Players: 2},
			game.Rules{Rows: 3, Cols: 6, Win: 3, Gravity: true, Players: 2},
		)
	}
	for _, r := range boards {
		b := newBrute(r)
		geo := bitboard.NewGeometry(r)
		rng := rand.New(rand.NewPCG(uint64(r.Rows*100+r.Cols), uint64(r.Win)))
		for i := 0; i < 60; i++ {
			stones := i % r.Cells()
			if r.Cells() > 16 && !*long {
				// From 8 stones on, the brute force's tree is small
				// enough for CI under -race; -long starts from empty.
				stones = 8 + i%(r.Cells()-8)
			}
			g := randomGame(t, r, stones, rng)
			if g.Over() {
				continue
			}
			want := b.value(b.of(g), g.Filled())
			p := geo.FromGame(g)
			s := &bitboard.Solver{G: geo, TT: bitboard.NewTable(12), Ctx: context.Background()}
			got, ok := s.Solve(p, false)
			if !ok || got != want {
				t.Fatalf("%dx%d k=%d %v: solver %d (ok %v), brute force %d", r.Cols, r.Rows, r.Win, g.Moves(), got, ok, want)
			}
			weak, _ := s.Solve(p, true)
			if bitboard.Sign(weak) != bitboard.Sign(want) {
				t.Fatalf("%dx%d k=%d %v: weak %d, brute force %d", r.Cols, r.Rows, r.Win, g.Moves(), weak, want)
			}
		}
	}
}

// benchSolve solves the same 20 random Connect Four positions at a ply
// each iteration with a cleared table, weakly or exactly, and reports
// nodes per second and time per position.
func benchSolve(b *testing.B, plies int, weak bool) {
	geo := bitboard.NewGeometry(connectFour)
	rng := rand.New(rand.NewPCG(uint64(plies), 1))
	var ps []bitboard.Pos
	for len(ps) < 20 {
		g := randomGame(b, connectFour, plies, rng)
		if g.Filled() == plies && !geo.CanWinNext(geo.FromGame(g)) {
			ps = append(ps, geo.FromGame(g))
		}
	}
	tt := bitboard.NewTable(bitboard.SharedBits)
	var nodes int64
	b.ResetTimer()
	for b.Loop() {
		for _, p := range ps {
			tt.Clear()
			s := &bitboard.Solver{G: geo, TT: tt, Ctx: context.Background()}
			if _, ok := s.Solve(p, weak); !ok {
				b.Fatal("unfinished")
			}
			nodes += s.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N*len(ps))*1e3, "ms/position")
	b.ReportMetric(float64(nodes)/float64(b.N*len(ps)), "nodes/position")
}

func BenchmarkSolvePly8(b *testing.B)      { benchSolve(b, 8, false) }
func BenchmarkSolvePly8Weak(b *testing.B)  { benchSolve(b, 8, true) }
func BenchmarkSolvePly10(b *testing.B)     { benchSolve(b, 10, false) }
func BenchmarkSolvePly12(b *testing.B)     { benchSolve(b, 12, false) }
func BenchmarkSolvePly12Weak(b *testing.B) { benchSolve(b, 12, true) }
func BenchmarkSolvePly16(b *testing.B)     { benchSolve(b, 16, false) }

// TestBestInLostPosition: when the position is lost, every move that does
// not lose at once keeps its (weak) value, so Best answers without a
// search; asking for a child of score at most +1 would have asked for
// the slowest loss, which can take seconds.
func TestBestInLostPosition(t *testing.T) {
	geo := bitboard.NewGeometry(connectFour)
	tt := bitboard.NewTable(16)
	rng := rand.New(rand.NewPCG(3, 9))
	for found := 0; found < 5; {
		p := geo.FromGame(randomGame(t, connectFour, 20, rng))
		next := geo.NonLosing(p)
		if geo.WinningMove(p) != 0 || bits.OnesCount64(next) < 2 {
			continue
		}
		s := &bitboard.Solver{G: geo, TT: tt, Ctx: context.Background()}
		if v, _ := s.Solve(p, true); v >= 0 {
			continue
		}
		found++
		s.Nodes = 0
		m, ok := s.Best(p, -1, true)
		if !ok || m&next == 0 || s.Nodes != 0 {
			t.Fatalf("lost position: Best gave %#x (ok %v) after %d nodes; want a non-losing move without a search", m, ok, s.Nodes)
		}
	}
}
