package bitboard

import (
	"context"
	"math/bits"
	"sync"
	"sync/atomic"
	"time"
)

// The exact solver for two-player gravity boards that fit a bitboard
// (standard Connect Four among them). It follows the public recipe of
// Pascal Pons' "Solving Connect 4" articles and John Tromp's solver:
// negamax with alpha-beta on a bitboard, scores that count the stones left
// to the winner (so a faster win scores higher), null-window searches driven
// by a binary search on the score, moves ordered by the winning cells they
// create, forced and losing moves detected before recursing, and a
// transposition table of score bounds that outlives the call.
//
// Scores (Pons'): on a board of C cells, a player whose winning stone is
// played onto a board of m stones scores (C+1−m)/2 — about the stones they
// still had in hand, so a faster win scores higher — and the loser scores
// its negative. 0 is a draw.

// Table is a transposition table shared by every search of every
// game: exact score bounds stay true forever, so what one move learnt
// speeds up the next one and the next game. It is lockless (Hyatt and
// Mann's trick): a slot holds data and key^data in two atomic words, and a
// reader keeps an entry only if they agree, so a slot torn by two writers
// at once reads as empty instead of wrong.
type Table struct {
	slots []ttSlot
	shift uint // 64 − log2(len(slots)): a hash's top bits pick the bucket
}

type ttSlot struct {
	check, data atomic.Uint64
}

// data word layout: score+128 in bits 0–7, bound kind in bits 8–9, the
// column that caused a cutoff plus one in bits 10–15, the stones on the
// board in bits 16–21, the rules' tag from bit 22 (so boards of different
// sizes share the table).
const (
	boundUpper = 1 << 8
	boundLower = 2 << 8
	tagShift   = 22
)

// NewTable returns an empty table of 2^bits slots of 16 bytes.
func NewTable(bits int) *Table {
	return &Table{slots: make([]ttSlot, 1<<bits), shift: uint(64 - bits)}
}

// bucket returns the two slots key may live in: adjacent, so one cache
// line. The first keeps the position with the fewest stones (the biggest
// subtree, the most work saved) and the second the latest one, as in
// Tromp's Fhourstones, so deep positions cannot flush the valuable
// shallow ones out of a saturated table.
func (t *Table) bucket(key, tag uint64) (*ttSlot, *ttSlot) {
	h := (key ^ tag<<40) * 0x9e3779b97f4a7c15
	i := h >> t.shift &^ 1
	return &t.slots[i], &t.slots[i+1]
}

// read returns a slot's data word if it holds key.
func (s *ttSlot) read(key, tag uint64) (uint64, bool) {
	d := s.data.Load()
	return d, s.check.Load()^d == key && d>>tagShift == tag
}

// get returns the stored bound kind, score and cutoff column (−1 for
// none) for key, or kind 0.
func (t *Table) get(key, tag uint64) (kind uint64, score, col int) {
	a, b := t.bucket(key, tag)
	d, ok := a.read(key, tag)
	if !ok {
		if d, ok = b.read(key, tag); !ok {
			return 0, 0, -1
		}
	}
	return d & (3 << 8), int(d&0xff) - 128, int(d>>10&63) - 1
}

func (t *Table) put(key, tag, kind uint64, score, col, moves int) {
	a, b := t.bucket(key, tag)
	d := uint64(score+128) | kind | uint64(col+1)<<10 | uint64(moves)<<16 | tag<<tagShift
	s := b
	if old, ok := a.read(key, tag); ok || old == 0 || int(old>>16&63) >= moves {
		s = a // the same position, an empty slot, or no shallower than this one
	}
	s.data.Store(d)
	s.check.Store(key ^ d)
}

// Bounds returns what the table and the rules know of p's score:
// lo ≤ score ≤ hi.
func (t *Table) Bounds(g *Geometry, p Pos) (lo, hi int) {
	if v, ok := g.Trivial(p); ok {
		return v, v
	}
	if p.Moves >= g.Cells() {
		return 0, 0
	}
	lo, hi = g.minScore(p.Moves), g.MaxScore(p.Moves)
	switch kind, v, _ := t.get(g.tableKey(p), g.tag); kind {
	case boundUpper:
		hi = min(hi, v)
	case boundLower:
		lo = max(lo, v)
	}
	return lo, hi
}

// Clear empties a table nobody else is using.
func (t *Table) Clear() { clear(t.slots) }

// SharedBits sizes the shared table: 2^21 slots of 16 bytes, 32 MiB,
// allocated on first use. Pons' solver uses 8M five-byte entries;
// this is a little smaller but keeps exact keys.
const SharedBits = 21

var (
	sharedOnce  sync.Once
	sharedTable *Table
)

// SharedTable is the table every timed search shares, kept between moves
// and games.
func SharedTable() *Table {
	sharedOnce.Do(func() { sharedTable = NewTable(SharedBits) })
	return sharedTable
}

// privateTables hands out cleared tables for node-budgeted searches, one
// pool per size: a search that must give the same answer on any machine
// cannot read what other games left in the shared table.
var privateTables [SharedBits + 1]sync.Pool

// PrivateTable returns an empty table of 2^bits slots for one node-budgeted
// search; give it back with ReleaseTable.
func PrivateTable(bits int) *Table {
	if t, ok := privateTables[bits].Get().(*Table); ok {
		t.Clear()
		return t
	}
	return NewTable(bits)
}

// ReleaseTable returns a table PrivateTable handed out.
func ReleaseTable(bits int, t *Table) { privateTables[bits].Put(t) }

// Solver is one exact search. Not safe for concurrent use; the table is.
type Solver struct {
	G        *Geometry
	TT       *Table
	Ctx      context.Context // cancels the search; required
	Deadline time.Time       // stops the search; zero for none
	MaxNodes int64           // stops the search after this many nodes; 0 for none
	Nodes    int64           // nodes searched so far
	Stopped  bool            // the search was stopped: its last result means nothing
}

// symPlies: up to this many stones, table keys are the canonical key of
// the position and its mirror image. Early on a mirrored transposition
// saves a big subtree; later the mirror costs more than it finds.
const symPlies = 14

// tableKey is the key p is stored under in a Table: its canonical
// key below symPlies stones, its own above.
func (g *Geometry) tableKey(p Pos) uint64 {
	if p.Moves < symPlies {
		return g.Canonical(p)
	}
	return p.Key()
}

// noTTPlies: with this few cells left, negamax neither probes nor stores.
var noTTPlies = 8

// minScore and MaxScore bound the score of a position with n stones.
func (g *Geometry) minScore(n int) int { return -(g.Cells() - n) / 2 }
func (g *Geometry) MaxScore(n int) int { return (g.Cells() + 1 - n) / 2 }

func (s *Solver) stop() bool {
	if s.Stopped {
		return true
	}
	if s.MaxNodes > 0 && s.Nodes >= s.MaxNodes {
		s.Stopped = true
	} else if s.Nodes&1023 == 0 {
		if s.Ctx.Err() != nil || !s.Deadline.IsZero() && time.Now().After(s.Deadline) {
			s.Stopped = true
		}
	}
	return s.Stopped
}

// negamax returns the score of p within (alpha, beta): exact inside it, an
// upper bound when ≤ alpha, a lower bound when ≥ beta. Precondition: the
// mover cannot win with one stone. After a stop the result is meaningless
// and s.Stopped is set.
func (s *Solver) negamax(p Pos, alpha, beta int) int {
	s.Nodes++
	if s.stop() {
		return 0
	}
	g := s.G
	next := g.NonLosing(p)
	if next == 0 {
		return g.minScore(p.Moves) // the opponent wins with their next stone
	}
	if p.Moves >= g.Cells()-2 {
		return 0 // neither side can make a run with the last two stones
	}
	lo := g.minScore(p.Moves + 2) // the opponent cannot win at once
	if alpha < lo {
		alpha = lo
		if alpha >= beta {
			return alpha
		}
	}
	hi := g.MaxScore(p.Moves + 2) // nor can the mover
	// Near the end a subtree costs less than the cache miss of a probe.
	useTT := p.Moves < g.Cells()-noTTPlies
	key, mirrored, hashCol := p.Key(), false, -1
	if useTT {
		if p.Moves < symPlies {
			if m := g.Mirror(key); m < key {
				key, mirrored = m, true
			}
		}
		kind, v, col := s.TT.get(key, g.tag)
		switch kind {
		case boundUpper:
			hi = min(hi, v)
		case boundLower:
			if v > alpha {
				alpha = v
			}
		}
		if col >= 0 && mirrored {
			col = g.cols - 1 - col
		}
		hashCol = col
	}
	if beta > hi {
		beta = hi
	}
	if alpha >= beta {
		return alpha
	}

	// Enhanced transposition cutoff (Plaat et al.): a child whose stored
	// upper bound already refutes it makes this position fail high
	// without a search. Its probes cost cache misses, but it cut the
	// nodes of ply-10 and ply-12 solves by a fifth and paid for itself.
	if useTT {
		for rest := next; rest != 0; rest &= rest - 1 {
			m := rest & -rest
			// g.tableKey by hand: too big to inline, and this loop is
			// the solver's hottest.
			child := p.Play(m)
			ck := child.Key()
			if child.Moves < symPlies {
				ck = g.Canonical(child)
			}
			if kind, v, _ := s.TT.get(ck, g.tag); kind == boundUpper && -v >= beta {
				col := g.Column(m)
				if mirrored {
					col = g.cols - 1 - col
				}
				s.TT.put(key, g.tag, boundLower, -v, col, p.Moves)
				return -v
			}
		}
	}

	// Order the moves: the one that refuted this position before, then
	// most winning cells created, the centre breaking ties. An insertion
	// sort of at most cols entries.
	var moves [64]uint64
	var scores [64]int
	n := 0
	for _, c := range g.order {
		m := next & g.colMask[c]
		if m == 0 {
			continue
		}
		sc := bits.OnesCount64(g.winning(p.Cur|m, p.Mask|m))
		if c == hashCol {
			sc = 1 << 10
		}
		i := n
		for ; i > 0 && scores[i-1] < sc; i-- {
			moves[i], scores[i] = moves[i-1], scores[i-1]
		}
		moves[i], scores[i] = m, sc
		n++
	}
	for i := 0; i < n; i++ {
		v := -s.negamax(p.Play(moves[i]), -beta, -alpha)
		if s.Stopped {
			return 0
		}
		if v >= beta {
			if useTT {
				col := g.Column(moves[i])
				if mirrored {
					col = g.cols - 1 - col
				}
				s.TT.put(key, g.tag, boundLower, v, col, p.Moves)
			}
			return v
		}
		if v > alpha {
			alpha = v
		}
	}
	if useTT {
		s.TT.put(key, g.tag, boundUpper, alpha, -1, p.Moves)
	}
	return alpha
}

// solve returns the exact score of p (weak: only its sign, as −1, 0 or +1
// or any score of that sign) and whether the search finished. Each probe is
// a null-window search; the window closes in on the score by bisection,
// leaning towards 0 where most positions are.
func (s *Solver) Solve(p Pos, weak bool) (int, bool) {
	g := s.G
	if g.CanWinNext(p) {
		if weak {
			return 1, true
		}
		return g.MaxScore(p.Moves), true
	}
	lo, hi := g.minScore(p.Moves), g.MaxScore(p.Moves)
	if weak {
		lo, hi = -1, 1
	}
	v, ok := s.bisect(p, lo, hi)
	if weak {
		return max(-1, min(1, v)), ok
	}
	return v, ok
}

// SolveWindow returns p's exact score when it lies in [lo, hi], else a
// score below lo or above hi (at lo−1 or hi+1, or the bound of the
// board), and whether the search finished. A narrow window costs far less
// than Solve: asking only for wins faster than some number of plies
// spares the search of the slow ones.
func (s *Solver) SolveWindow(p Pos, lo, hi int) (int, bool) {
	g := s.G
	if g.CanWinNext(p) {
		return g.MaxScore(p.Moves), true
	}
	return s.bisect(p, max(lo-1, g.minScore(p.Moves)), min(hi+1, g.MaxScore(p.Moves)))
}

// bisect closes in on p's score between lo and hi by null-window
// searches; a score outside comes back as the nearer bound.
func (s *Solver) bisect(p Pos, lo, hi int) (int, bool) {
	for lo < hi {
		med := lo + (hi-lo)/2
		if med <= 0 && lo/2 < med {
			med = lo / 2
		} else if med >= 0 && hi/2 > med {
			med = hi / 2
		}
		r := s.negamax(p, med, med+1)
		if s.Stopped {
			return 0, false
		}
		if r <= med {
			hi = r
		} else {
			lo = r
		}
	}
	return lo, true
}

// Sign is −1, 0 or +1.
func Sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// Best returns the first move in the usual order whose child keeps the
// value v of p (exact score, or with weak only its sign: in a lost
// position any move that does not lose at once). p must not be won in
// one, and v must be p's value.
func (s *Solver) Best(p Pos, v int, weak bool) (uint64, bool) {
	g := s.G
	next := g.NonLosing(p)
	if next == 0 {
		// Lost whatever happens: block one of the threats if possible.
		possible := g.Possible(p)
		if block := possible & g.winning(p.Cur^p.Mask, p.Mask); block != 0 {
			return block & -block, true
		}
		return g.FirstMove(possible), true
	}
	want := v // the child must score at most −want for the mover
	if weak {
		if v < 0 {
			// Lost: every move that does not lose at once keeps that.
			// (The score −1 would ask for the slowest loss.)
			return g.FirstMove(next), true
		}
		want = Sign(v)
	}
	for _, c := range g.order {
		m := next & g.colMask[c]
		if m == 0 {
			continue
		}
		keeps, ok := s.Keeps(p, m, want)
		if !ok {
			return 0, false
		}
		if keeps {
			return m, true
		}
	}
	// Unreachable when v is p's value; fall back to a legal move.
	return g.FirstMove(next), true
}

// Keeps reports whether playing m keeps the score want for p's mover:
// whether the child scores at most −want, tested with a null window.
// ok is false if the search stopped.
func (s *Solver) Keeps(p Pos, m uint64, want int) (keeps, ok bool) {
	child := p.Play(m)
	if child.Moves == s.G.Cells() {
		return want <= 0, true // a draw
	}
	r := s.negamax(child, -want, -want+1)
	if s.Stopped {
		return false, false
	}
	return r <= -want, true
}

// firstMove returns the first move of set in the usual order.
func (g *Geometry) FirstMove(set uint64) uint64 {
	for _, c := range g.order {
		if m := set & g.colMask[c]; m != 0 {
			return m
		}
	}
	return 0
}

// winningMove returns the mover's immediately winning move, or 0.
func (g *Geometry) WinningMove(p Pos) uint64 {
	w := g.winning(p.Cur, p.Mask) & g.Possible(p)
	return w & -w
}

// plies converts a score of p into the number of plies to the end of the
// game under perfect play: the winner's last stone, or the last cell for a
// draw.
func (g *Geometry) Plies(p Pos, score int) int {
	if score == 0 {
		return g.Cells() - p.Moves
	}
	// The winner's last stone goes on a board of m stones, with
	// (C+1−m)/2 = |score| and m of the winner's parity (the mover plays
	// on boards of moves, moves+2, … stones).
	m := g.Cells() + 1 - 2*abs(score)
	parity := p.Moves % 2
	if score < 0 {
		parity = (p.Moves + 1) % 2
	}
	if m%2 != parity {
		m--
	}
	return m - p.Moves + 1
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// PruneProved reads the table's bounds on p's children. A move proved to
// win is returned at once; otherwise *columns lists the moves no other
// move is proved better than, and none proved to lose what p is worth
// when that is known: floor is p's outcome for the mover (−1, 0 or +1;
// −1 when unknown). At the book's deepest ply the book says p is a draw
// while the search for the drawing move runs out of time: the moves it
// proved to lose are then left out even though no move is proved to
// draw.
func PruneProved(geo *Geometry, p Pos, tt *Table, floor int, columns *[]bool) (uint64, bool) {
	type bound struct {
		m      uint64
		lo, hi int // the mover's score after m lies in [lo, hi]
	}
	var bs []bound
	bestLo := -1 << 30
	for _, m := range geo.Moves(p) {
		lo, hi := tt.Bounds(geo, p.Play(m))
		b := bound{m, -hi, -lo}
		if b.lo > 0 {
			return m, true
		}
		bs = append(bs, b)
		bestLo = max(bestLo, b.lo)
	}
	*columns = make([]bool, geo.Cols())
	for _, b := range bs {
		if b.hi >= bestLo && Sign(b.hi) >= floor {
			(*columns)[geo.Column(b.m)] = true
		}
	}
	return 0, false
}
