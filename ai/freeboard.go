package ai

import (
	"cmp"
	"context"
	"math/bits"
	"slices"

	"github.com/tttbot/tttbot/game"
)

// The exact solver of small two-player free-placement boards (3×3, 4×4,
// 5×5 with any k), for Solve and Prove. A board of at most 25 cells fits a
// uint32 a player, so a position is two masks and a table key is one
// uint64. It is negamax with alpha-beta over scores that count the stones
// left to the winner, the way the bitboard solver counts them: a winning
// stone that makes the board hold m stones scores cells+1−m for its player
// and the opposite for the other, a draw 0, so a faster win scores higher.
// An immediate win ends the search at once, two threats of the opponent
// lose at once, one threat forces the block, and a table of score bounds
// (private to one call: these boards are small) keeps transpositions from
// being searched twice.

// freeCells is the largest free board the free-board solver takes.
const freeCells = 25

// maxFreeEntries bounds one call's table, to some tens of megabytes:
// past it, positions are searched without being stored, slower but
// bounded. The puzzles' boards never come near it (a 4×4 board with three
// in a row solves from empty with 35 entries); 5×5 from its opening would.
const maxFreeEntries = 1 << 20

type freeBoard struct {
	cells   int
	full    uint32
	through [][]uint32 // through[c]: the k-windows that contain cell c, as masks
	order   []int      // cells from the centre outwards: the usual best first
}

// newFreeBoard returns the solver's view of r, or nil when r is not a
// two-player free board of at most freeCells cells.
func newFreeBoard(r game.Rules) *freeBoard {
	if r.Gravity || r.Players != 2 || r.Cells() > freeCells {
		return nil
	}
	fb := &freeBoard{cells: r.Cells(), full: uint32(1)<<r.Cells() - 1, through: make([][]uint32, r.Cells())}
	for _, d := range [4]game.Coord{{Row: 0, Col: 1}, {Row: 1, Col: 0}, {Row: 1, Col: 1}, {Row: 1, Col: -1}} {
		for row := 0; row < r.Rows; row++ {
			for col := 0; col < r.Cols; col++ {
				var w uint32
				ok := true
				for i := 0; i < r.Win && ok; i++ {
					rr, cc := row+i*d.Row, col+i*d.Col
					if rr < 0 || rr >= r.Rows || cc < 0 || cc >= r.Cols {
						ok = false
						break
					}
					w |= 1 << (rr*r.Cols + cc)
				}
				if !ok {
					continue
				}
				for rest := w; rest != 0; rest &= rest - 1 {
					c := bits.TrailingZeros32(rest)
					fb.through[c] = append(fb.through[c], w)
				}
			}
		}
	}
	// Centre first: by distance from the centre (doubled, to stay in
	// integers), then by index, so the order is the same on every run.
	for c := range fb.cells {
		fb.order = append(fb.order, c)
	}
	dist := func(c int) int {
		dr, dc := 2*(c/r.Cols)-(r.Rows-1), 2*(c%r.Cols)-(r.Cols-1)
		return max(dr, -dr) + max(dc, -dc)
	}
	slices.SortStableFunc(fb.order, func(a, b int) int { return cmp.Compare(dist(a), dist(b)) })
	return fb
}

// wins reports whether stones, which hold cell c, make a k-window through c.
func (fb *freeBoard) wins(stones uint32, c int) bool {
	for _, w := range fb.through[c] {
		if stones&w == w {
			return true
		}
	}
	return false
}

// threats returns the empty cells where one more stone of stones wins.
func (fb *freeBoard) threats(stones, occupied uint32) uint32 {
	var t uint32
	for rest := fb.full &^ occupied; rest != 0; rest &= rest - 1 {
		c := bits.TrailingZeros32(rest)
		if fb.wins(stones|1<<c, c) {
			t |= 1 << c
		}
	}
	return t
}

// masks returns the stones of g's mover and of the other player.
func (fb *freeBoard) masks(g *game.Game) (cur, opp uint32) {
	r := g.Rules()
	me := g.Turn()
	for c := range fb.cells {
		switch g.At(game.Coord{Row: c / r.Cols, Col: c % r.Cols}) {
		case game.NoPlayer:
		case me:
			cur |= 1 << c
		default:
			opp |= 1 << c
		}
	}
	return cur, opp
}

// freeBound is a table entry: the score lies in [lo, hi].
type freeBound struct{ lo, hi int8 }

type freeSearch struct {
	*freeBoard
	ctx     context.Context
	tt      map[uint64]freeBound
	nodes   int64
	stopped bool
}

// freePosition is a position before the free-board solver, whose winning
// stone onto a board of m stones scores cells−m.
type freePosition struct {
	fb       *freeBoard
	ctx      context.Context
	cur, opp uint32 // the mover's stones and the other side's
	n        int    // stones on the board
}

func (f freePosition) score(lo, hi int) (int, bool) {
	s := &freeSearch{freeBoard: f.fb, ctx: f.ctx, tt: map[uint64]freeBound{}}
	v := s.negamax(f.cur, f.opp, f.n, lo-1, hi+1)
	return v, !s.stopped
}

func (f freePosition) winScore(m int) int { return f.fb.cells - m }
func (f freePosition) maxScore() int      { return f.fb.cells - f.n }
func (f freePosition) plies(score int) int {
	return f.fb.cells + 1 - max(score, -score) - f.n
}

// negamax returns the score of the position (cur to move, n stones on the
// board) within (alpha, beta), fail-soft: at most alpha means at most the
// result, at least beta means at least the result, in between exact.
func (s *freeSearch) negamax(cur, opp uint32, n, alpha, beta int) int {
	s.nodes++
	if s.nodes&1023 == 0 && s.ctx.Err() != nil {
		s.stopped = true
	}
	if s.stopped {
		return 0
	}
	occupied := cur | opp
	if mine := s.threats(cur, occupied); mine != 0 {
		return s.cells - n // the winning stone makes n+1
	}
	if n+1 >= s.cells {
		return 0 // the last cell, and it does not win
	}
	moves := s.full &^ occupied
	if t := s.threats(opp, occupied); t != 0 {
		if t&(t-1) != 0 {
			return -(s.cells - n - 1) // two threats: the opponent's next stone wins
		}
		moves = t // block the one threat
	}
	lo, hi := -(s.cells - n - 1), s.cells-n-2 // neither side wins at once
	alpha, beta = max(alpha, lo), min(beta, hi)
	if alpha >= beta {
		return alpha
	}
	key := uint64(cur) | uint64(opp)<<32
	if b, ok := s.tt[key]; ok {
		alpha, beta = max(alpha, int(b.lo)), min(beta, int(b.hi))
		if alpha >= beta {
			return alpha
		}
	}
	alpha0 := alpha
	best := -s.cells - 1
	for _, c := range s.order {
		if moves&(1<<c) == 0 {
			continue
		}
		v := -s.negamax(opp, cur|1<<c, n+1, -beta, -alpha)
		if s.stopped {
			return 0
		}
		best = max(best, v)
		alpha = max(alpha, v)
		if alpha >= beta {
			break
		}
	}
	b, ok := s.tt[key]
	if !ok {
		b = freeBound{lo: int8(lo), hi: int8(hi)}
	}
	switch {
	case best <= alpha0:
		b.hi = int8(min(int(b.hi), best))
	case best >= beta:
		b.lo = int8(max(int(b.lo), best))
	default:
		b = freeBound{lo: int8(best), hi: int8(best)}
	}
	if ok || len(s.tt) < maxFreeEntries {
		s.tt[key] = b
	}
	return best
}
