package bitboard

import (
	"math/bits"

	"github.com/tttbot/tttbot/game"
)

// Geometry describes a gravity board small enough for one uint64 bitboard:
// each column takes rows+1 bits (the extra, always empty, bit on top keeps
// runs from wrapping into the next column), column c at bits c*(rows+1)…,
// row 0 at the bottom. This is the layout of Tromp's and Pons' Connect Four
// solvers, generalised to any k.
type Geometry struct {
	rows, cols, k int
	h1            int      // rows + 1: the stride between columns
	bottom        uint64   // the bottom cell of every column
	board         uint64   // every playable cell
	colMask       []uint64 // the playable cells of each column
	order         []int    // columns from the centre outwards: the usual best first
	dirs          [4]uint  // bit distances of the four line directions
	tag           uint64   // the rules, for telling tables of different boards apart
}

// NewGeometry returns the bitboard geometry of r, or nil when r is not a
// two-player gravity board that fits 64 bits.
func NewGeometry(r game.Rules) *Geometry {
	if !r.Gravity || r.Players != 2 || (r.Rows+1)*r.Cols > 64 {
		return nil
	}
	g := &Geometry{rows: r.Rows, cols: r.Cols, k: r.Win, h1: r.Rows + 1}
	g.colMask = make([]uint64, r.Cols)
	for c := 0; c < r.Cols; c++ {
		g.colMask[c] = (uint64(1)<<r.Rows - 1) << (c * g.h1)
		g.bottom |= uint64(1) << (c * g.h1)
		g.board |= g.colMask[c]
	}
	for i := 0; i < r.Cols; i++ {
		// centre, then alternately left and right of it (Pons' order)
		c := r.Cols/2 + (1-2*(i%2))*(i+1)/2
		g.order = append(g.order, c)
	}
	g.dirs = [4]uint{1, uint(g.h1), uint(g.h1 - 1), uint(g.h1 + 1)}
	g.tag = uint64(r.Rows) | uint64(r.Cols)<<8 | uint64(r.Win)<<16
	return g
}

// Cells is the number of playable cells.
func (g *Geometry) Cells() int { return g.rows * g.cols }

// Cols is the number of columns.
func (g *Geometry) Cols() int { return g.cols }

// aligned reports whether p holds k in a row. Runs are found by doubling:
// run holds the cells that start a run of l stones, and two runs that
// overlap make a longer one, so it takes O(log k) shifts per direction.
func (g *Geometry) aligned(p uint64) bool {
	for _, d := range g.dirs {
		run, l := p, 1
		for 2*l <= g.k {
			run &= run >> (uint(l) * d)
			l *= 2
		}
		if l < g.k {
			run &= run >> (uint(g.k-l) * d)
		}
		if run != 0 {
			return true
		}
	}
	return false
}

// winning returns the empty cells where one more stone of p makes k in a
// row (whether or not they are playable yet). A cell wins when it has a
// stones of p next to it on one side and k−1−a on the other, for some a.
func (g *Geometry) winning(p, mask uint64) uint64 {
	var r uint64
	if g.k == 4 {
		r = winning4(p, uint(g.h1))
	} else {
		var after [maxBitK]uint64 // after[b]: cells with b stones of p following them
		for _, d := range g.dirs {
			after[0] = ^uint64(0)
			for b := 1; b < g.k; b++ {
				after[b] = after[b-1] & (p >> (uint(b) * d))
			}
			before := ^uint64(0) // cells with a stones of p before them
			for a := 0; a < g.k; a++ {
				if a > 0 {
					before &= p << (uint(a) * d)
				}
				r |= before & after[g.k-1-a]
			}
		}
	}
	return r & g.board &^ mask
}

// maxBitK bounds k on a bitboard: a run of k fits in a column of at most
// 63 rows, but the rules cap k at 25.
const maxBitK = game.MaxWin + 1

// winning4 is winning for k = 4, unrolled as in Pons' solver: the hot path
// of standard Connect Four.
func winning4(p uint64, h uint) uint64 {
	// vertical
	r := (p << 1) & (p << 2) & (p << 3)
	for _, d := range [3]uint{h, h - 1, h + 1} {
		t := (p << d) & (p << (2 * d))
		r |= t & (p << (3 * d))
		r |= t & (p >> d)
		t = (p >> d) & (p >> (2 * d))
		r |= t & (p << d)
		r |= t & (p >> (3 * d))
	}
	return r
}

// mirror flips a key or mask left to right.
func (g *Geometry) Mirror(x uint64) uint64 {
	var m uint64
	col := uint64(1)<<g.h1 - 1
	for c := 0; c < g.cols; c++ {
		m |= (x >> (c * g.h1) & col) << ((g.cols - 1 - c) * g.h1)
	}
	return m
}

// Pos is a position on a bitboard: the stones of the player to move,
// every stone, and how many have been played.
type Pos struct {
	Cur, Mask uint64 // the mover's stones; every stone
	Moves     int    // stones played
}

// key identifies the position exactly: cur+mask sets, in each column, the
// bit above the column's top stone and below it the mover's stones.
func (p Pos) Key() uint64 { return p.Cur + p.Mask }

// canonical is the smaller of the key and its mirror image, so a position
// and its reflection share book entries and table slots.
func (g *Geometry) Canonical(p Pos) uint64 {
	return min(p.Key(), g.Mirror(p.Key()))
}

func (g *Geometry) Possible(p Pos) uint64 { return (p.Mask + g.bottom) & g.board }

// play drops the mover's stone on cell bit move; the other player moves next.
func (p Pos) Play(move uint64) Pos {
	return Pos{Cur: p.Cur ^ p.Mask, Mask: p.Mask | move, Moves: p.Moves + 1}
}

// canWinNext reports whether the mover wins with one stone.
func (g *Geometry) CanWinNext(p Pos) bool {
	return g.winning(p.Cur, p.Mask)&g.Possible(p) != 0
}

// nonLosing returns the mover's moves that do not let the opponent win at
// once: when the opponent threatens two cells the answer is empty (the
// position is lost), when one the move is forced, and a stone is never put
// right under an opponent's winning cell. Precondition: the mover cannot
// win in one.
func (g *Geometry) NonLosing(p Pos) uint64 {
	possible := g.Possible(p)
	opp := g.winning(p.Cur^p.Mask, p.Mask)
	if forced := possible & opp; forced != 0 {
		if forced&(forced-1) != 0 {
			return 0
		}
		possible = forced
	}
	return possible &^ (opp >> 1)
}

// fromGame builds the bitboard of a two-player gravity game.
func (g *Geometry) FromGame(gm *game.Game) Pos {
	var p Pos
	var mine uint64
	me := gm.Turn()
	for row := 0; row < g.rows; row++ {
		for col := 0; col < g.cols; col++ {
			pl := gm.At(game.Coord{Row: row, Col: col})
			if pl == game.NoPlayer {
				continue
			}
			b := uint64(1) << (col*g.h1 + g.rows - 1 - row)
			p.Mask |= b
			if pl == me {
				mine |= b
			}
			p.Moves++
		}
	}
	p.Cur = mine
	return p
}

// column returns the column of a single-bit move.
func (g *Geometry) Column(move uint64) int {
	return bits.TrailingZeros64(move) / g.h1
}

// moveIn returns the bit of the mover's move in column c, or 0 when full.
func (g *Geometry) MoveIn(p Pos, c int) uint64 {
	return g.Possible(p) & g.colMask[c]
}

// Moves lists the mover's moves as single bits, centre first.
func (g *Geometry) Moves(p Pos) []uint64 {
	var out []uint64
	possible := g.Possible(p)
	for _, c := range g.order {
		if m := possible & g.colMask[c]; m != 0 {
			out = append(out, m)
		}
	}
	return out
}

// Wins reports whether the mover's stone on move makes k in a row.
func (g *Geometry) Wins(p Pos, move uint64) bool { return g.aligned(p.Cur | move) }
