package ai

import (
	"math/bits"

	"github.com/tttbot/tttbot/game"
)

// position is the search's own board: flat arrays that make and unmake a
// move in O(k), with the k-window tallies and the Zobrist hash kept up to
// date incrementally. (game.Game is built for refereeing, not for millions
// of make/unmake pairs.)
type position struct {
	rows, cols, k int
	gravity       bool
	players       int
	out           []bool // resigned players, skipped in turn order

	cell    []int8 // player or -1, row-major, row 0 at the top
	height  []int  // gravity: tokens in each column
	filled  int
	hash    uint64
	turn    int
	history []int // cells placed since the root, for unmake

	// k-windows: every run of k cells in one of four directions. mask holds
	// the players present (bit p), count the tokens, per each player's
	// tokens; score[p] sums the weight of p's live windows (only p present).
	winOf  [][]int32 // the windows through each cell
	mask   []uint16
	count  []int8
	per    []int8 // per[w*players+p]
	score  []int64
	weight []int64 // weight[n]: a live window holding n tokens

	// The threat search needs, fast, the windows a player is close to
	// filling: hot[p] lists p's live windows holding at least hotMin
	// tokens (for k ≥ 5, k−3: fours, threes and the windows one stone
	// short of a three; else only fours), hotAt[w] is w's index there or −1, and fours[p] counts p's
	// live windows one token short of k: p wins on its next move. start
	// and step give a window's cells: start + i·step for i < k.
	hot    [][]int32
	hotAt  []int32
	hotMin int8
	fours  []int
	start  []int32
	step   []int32
}

var dirs = [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}}

func newPosition(g *game.Game) *position {
	r := g.Rules()
	p := &position{
		rows: r.Rows, cols: r.Cols, k: r.Win, gravity: r.Gravity, players: r.Players,
		out:   make([]bool, r.Players),
		cell:  make([]int8, r.Rows*r.Cols),
		score: make([]int64, r.Players),
		turn:  g.Turn(),
	}
	for i := range p.out {
		p.out[i] = g.Resigned(i)
	}
	if p.gravity {
		p.height = make([]int, r.Cols)
	}
	p.weight = make([]int64, p.k+1)
	for n := 1; n <= p.k; n++ {
		// Counts far from k matter little; the last few matter a lot.
		e := max(0, n-(p.k-5))
		p.weight[n] = int64(n) + int64(1)<<(3*e)
	}
	p.buildWindows()
	for i := range p.cell {
		p.cell[i] = -1
	}
	for row := 0; row < r.Rows; row++ {
		for col := 0; col < r.Cols; col++ {
			if pl := g.At(game.Coord{Row: row, Col: col}); pl != game.NoPlayer {
				p.set(row*p.cols+col, pl)
			}
		}
	}
	p.history = p.history[:0]
	return p
}

// buildWindows lists every k-window and, per cell, the windows through it.
func (p *position) buildWindows() {
	p.winOf = make([][]int32, len(p.cell))
	n := 0
	for row := 0; row < p.rows; row++ {
		for col := 0; col < p.cols; col++ {
			for _, dir := range dirs {
				endR, endC := row+dir[0]*(p.k-1), col+dir[1]*(p.k-1)
				if endR < 0 || endR >= p.rows || endC < 0 || endC >= p.cols {
					continue
				}
				id := int32(n)
				n++
				p.start = append(p.start, int32(row*p.cols+col))
				p.step = append(p.step, int32(dir[0]*p.cols+dir[1]))
				for i := 0; i < p.k; i++ {
					c := (row+dir[0]*i)*p.cols + col + dir[1]*i
					p.winOf[c] = append(p.winOf[c], id)
				}
			}
		}
	}
	p.mask = make([]uint16, n)
	p.count = make([]int8, n)
	p.per = make([]int8, n*p.players)
	p.hot = make([][]int32, p.players)
	p.hotAt = make([]int32, n)
	for i := range p.hotAt {
		p.hotAt[i] = -1
	}
	// Below k = 5 there is no threat search, which is what needs the
	// windows short of a four: keep only the fours, which cost least.
	p.hotMin = int8(p.k - 1)
	if p.k >= 5 {
		p.hotMin = int8(p.k - 3)
	}
	p.fours = make([]int, p.players)
}

// zobrist is the hash contribution of player pl on cell c (splitmix64).
func zobrist(c, pl int) uint64 {
	z := uint64(c)<<4 | uint64(pl) + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// set places pl on c and updates windows, hash and heights.
func (p *position) set(c, pl int) {
	p.cell[c] = int8(pl)
	p.filled++
	p.hash ^= zobrist(c, pl)
	if p.gravity {
		p.height[c%p.cols]++
	}
	bit := uint16(1) << pl
	for _, w := range p.winOf[c] {
		p.unscore(w)
		p.mask[w] |= bit
		p.count[w]++
		p.per[int(w)*p.players+pl]++
		p.rescore(w)
	}
	p.history = append(p.history, c)
}

// unset removes the token on c.
func (p *position) unset(c int) {
	pl := int(p.cell[c])
	p.cell[c] = -1
	p.filled--
	p.hash ^= zobrist(c, pl)
	if p.gravity {
		p.height[c%p.cols]--
	}
	for _, w := range p.winOf[c] {
		p.unscore(w)
		p.count[w]--
		i := int(w)*p.players + pl
		p.per[i]--
		if p.per[i] == 0 {
			p.mask[w] &^= 1 << pl
		}
		p.rescore(w)
	}
	p.history = p.history[:len(p.history)-1]
}

// live returns the single player owning window w, or -1.
func (p *position) live(w int32) int {
	m := p.mask[w]
	if m == 0 || m&(m-1) != 0 {
		return -1
	}
	return bits.TrailingZeros16(m)
}

func (p *position) unscore(w int32) {
	if pl := p.live(w); pl >= 0 {
		p.score[pl] -= p.weight[p.count[w]]
		if p.count[w] == int8(p.k-1) {
			p.fours[pl]--
		}
		if i := p.hotAt[w]; i >= 0 {
			h := p.hot[pl]
			last := h[len(h)-1]
			h[i] = last
			p.hotAt[last] = i
			p.hot[pl] = h[:len(h)-1]
			p.hotAt[w] = -1
		}
	}
}

func (p *position) rescore(w int32) {
	if pl := p.live(w); pl >= 0 {
		p.score[pl] += p.weight[p.count[w]]
		if p.count[w] == int8(p.k-1) {
			p.fours[pl]++
		}
		if p.count[w] >= p.hotMin && p.count[w] < int8(p.k) {
			p.hotAt[w] = int32(len(p.hot[pl]))
			p.hot[pl] = append(p.hot[pl], w)
		}
	}
}

// empties appends the empty cells of window w to dst.
func (p *position) empties(dst []int, w int32) []int {
	c, d := int(p.start[w]), int(p.step[w])
	for i := 0; i < p.k; i++ {
		if p.cell[c] < 0 {
			dst = append(dst, c)
		}
		c += d
	}
	return dst
}

// gain returns a cell where pl wins at once, and whether there is a
// second, different one (then nobody can stop pl with one stone). It
// needs p.fours[pl] > 0.
func (p *position) gain(pl int) (int, bool) {
	first := -1
	var buf [1]int
	for _, w := range p.hot[pl] {
		if p.count[w] != int8(p.k-1) {
			continue
		}
		g := p.empties(buf[:0], w)[0]
		switch {
		case first < 0:
			first = g
		case g != first:
			return first, true
		}
	}
	return first, false
}

// wins reports whether the token just placed on c completes k in a row.
func (p *position) wins(c int) bool {
	pl := p.cell[c]
	row, col := c/p.cols, c%p.cols
	for _, dir := range dirs {
		n := 1
		for s := -1; s <= 1; s += 2 {
			r, cc := row+dir[0]*s, col+dir[1]*s
			for n < p.k && r >= 0 && r < p.rows && cc >= 0 && cc < p.cols && p.cell[r*p.cols+cc] == pl {
				n++
				r, cc = r+dir[0]*s, cc+dir[1]*s
			}
		}
		if n >= p.k {
			return true
		}
	}
	return false
}

// next returns the player after pl still in the game.
func (p *position) next(pl int) int {
	for i := 1; i <= p.players; i++ {
		q := (pl + i) % p.players
		if !p.out[q] {
			return q
		}
	}
	return pl
}

// full reports whether no cell is left.
func (p *position) full() bool { return p.filled == len(p.cell) }

// target returns the cell a move in column col lands on under gravity, or -1.
func (p *position) target(col int) int {
	if p.height[col] >= p.rows {
		return -1
	}
	return (p.rows-1-p.height[col])*p.cols + col
}
