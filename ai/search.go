package ai

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/tttbot/tttbot/game"
)

const (
	inf        = Win * 2
	mateBound  = Win - 1<<16 // scores beyond this are forced results
	ttBits     = 18          // transposition table entries: 1<<ttBits
	checkEvery = 256         // nodes between clock checks
	smallBoard = 49          // up to 7×7 every empty cell is a candidate
	beamRoot   = 24          // on big boards, root moves searched
	beamInner  = 10          // on big boards, moves searched below the root
	nearReach  = 2           // on big boards, candidates lie this close to a token
	// paranoidDepth caps Hard's search with three players (docs/ai.md).
	paranoidDepth = 4
	// crowdPlayers: from this many players on, Hard plays Medium's
	// search, among its forks when it has any (docs/ai.md).
	crowdPlayers = 4
	// forkReadyPlayers: from this many players on, Hard without a fork
	// prepares one (docs/ai.md).
	forkReadyPlayers = 5
)

// ttEntry remembers a searched position.
type ttEntry struct {
	key   uint64
	score int64
	best  int32
	depth int8
	flag  int8 // exact, lower or upper bound
}

const (
	flagExact int8 = iota + 1
	flagLower
	flagUpper
)

type search struct {
	ctx      context.Context
	deadline time.Time
	opt      Options
	pos      *position
	me       int
	rng      *rand.Rand
	tt       []ttEntry
	nodes    int64
	aborted  bool
	big      bool    // beam search and nearby candidates only
	initial  []int   // cells occupied at the root
	stamp    []int32 // candidate de-duplication
	stampGen int32
	// columns, when not nil, are the only gravity columns the root may
	// play: the exact solver ran out of budget but proved the others
	// worse.
	columns []bool
	tss     threatSearch
	many    bool // three or more players left
}

func newSearch(ctx context.Context, g *game.Game, opt Options) *search {
	s := &search{ctx: ctx, opt: opt, pos: newPosition(g), me: g.Turn(), rng: rand.New(rand.NewPCG(opt.Seed, opt.Seed^0x5eed))}
	s.deadline, _ = ctx.Deadline()
	s.big = !s.pos.gravity && len(s.pos.cell) > smallBoard
	s.many = s.active() > 2
	for c, v := range s.pos.cell {
		if v >= 0 {
			s.initial = append(s.initial, c)
		}
	}
	s.stamp = make([]int32, len(s.pos.cell))
	return s
}

func (s *search) coord(c int) game.Coord { return game.Coord{Row: c / s.pos.cols, Col: c % s.pos.cols} }

// choose picks the move for s.me. The rules for three or more players, and
// the ladder results that chose them, are in docs/ai.md.
func (s *search) choose() (game.Coord, Stats) {
	moves := s.allowed(s.candidates(s.me, 0))
	if len(moves) == 1 {
		return s.coord(moves[0]), Stats{}
	}
	// Take a win; otherwise, above Easy, block the next player's win.
	if c, ok := s.immediate(moves, s.me); ok {
		return s.coord(c), Stats{Score: Win - 1, Depth: 1, Complete: true, Distance: 1}
	}
	if s.opt.Level >= Medium {
		if c, ok := s.immediate(moves, s.pos.next(s.me)); ok {
			return s.coord(c), Stats{Depth: 1}
		}
	}
	// Under gravity with three or more players, the end is solved when it
	// is near (endgame.go); the search below chooses among its best moves.
	if s.opt.Level == Hard && s.pos.gravity && s.many && len(s.pos.cell)-s.pos.filled <= endgameCells {
		if keep, ok := s.endgame(moves); ok {
			if len(keep) == 1 {
				return s.coord(keep[0]), Stats{Nodes: s.nodes}
			}
			moves = keep
		}
	}
	crowded := s.opt.Level == Hard && s.active() >= crowdPlayers
	if s.opt.Level == Hard && !crowded {
		// With three players both others move before s.me again, so take
		// away the win of the first in turn order who has one.
		for o := s.pos.next(s.pos.next(s.me)); o != s.me; o = s.pos.next(o) {
			if c, ok := s.immediate(moves, o); ok {
				return s.coord(c), Stats{Depth: 1}
			}
		}
	}
	if s.threatsApply() {
		c, st, won, keep := s.threatMove(moves)
		if won {
			return s.coord(c), st
		}
		if len(keep) == 1 {
			return s.coord(keep[0]), Stats{Nodes: s.nodes}
		}
		moves = keep
	}
	if crowded {
		moves = s.crowdedMoves(moves)
	}
	switch {
	case s.opt.Level == Easy:
		if s.rng.IntN(2) == 0 {
			return s.coord(moves[s.rng.IntN(len(moves))]), Stats{}
		}
		return s.coord(moves[0]), Stats{}
	case s.opt.Level == Medium || crowded:
		c, st := s.deepen(moves, 2)
		return s.coord(c), st
	}
	maxDepth := len(s.pos.cell) - s.pos.filled
	if s.many {
		// A paranoid search past one round imagines a coalition that
		// opponents playing each for itself do not form.
		maxDepth = min(maxDepth, paranoidDepth)
	}
	c, st := s.deepen(moves, maxDepth)
	return s.coord(c), st
}

// allowed keeps the moves in the gravity columns the exact solver left
// open (s.columns), unless that would leave none.
func (s *search) allowed(moves []int) []int {
	if s.columns == nil {
		return moves
	}
	var kept []int
	for _, c := range moves {
		if s.columns[c%s.pos.cols] {
			kept = append(kept, c)
		}
	}
	if len(kept) == 0 {
		return moves
	}
	return kept
}

// crowdedMoves narrows Hard's moves with four or more players, where it
// plays Medium's search and blocks nobody: one player would block a win and
// none can block two, so it makes a fork when it can, and with five or more
// players prepares one.
func (s *search) crowdedMoves(moves []int) []int {
	if forks := s.forks(moves); len(forks) > 0 {
		return forks
	}
	if s.active() >= forkReadyPlayers {
		if ready := s.forkReady(moves); len(ready) > 0 {
			return ready
		}
	}
	return moves
}

// forks lists the moves among moves after which s.me has two cells that
// would each complete a run, so one stone cannot block both. Under gravity
// one of them may still wait for the cell below it (docs/ai.md says why).
func (s *search) forks(moves []int) []int {
	var out []int
	for _, c := range moves {
		s.pos.set(c, s.me)
		if _, two := s.pos.gain(s.me); two {
			out = append(out, c)
		}
		s.pos.unset(c)
	}
	return out
}

// forkReady lists the moves among moves after which s.me could make the
// most forks on its next move: none unless that is two or more, since an
// opponent's stone may take one away meanwhile. It looks at the first
// beamRoot moves and, after each, the first beamRoot candidates (both
// ranked by threat): on big boards with long runs counting every pair
// took seconds.
func (s *search) forkReady(moves []int) []int {
	var out []int
	most := 0
	for _, c := range moves[:min(len(moves), beamRoot)] {
		if s.pastDeadline() {
			return nil
		}
		s.pos.set(c, s.me)
		next := s.candidates(s.me, -1)
		n := len(s.forks(next[:min(len(next), beamRoot)]))
		s.pos.unset(c)
		switch {
		case n > most:
			most, out = n, []int{c}
		case n == most && n > 0:
			out = append(out, c)
		}
	}
	if most < 2 {
		return nil
	}
	return out
}

// active counts the players still in the game.
func (s *search) active() int {
	n := 0
	for _, out := range s.pos.out {
		if !out {
			n++
		}
	}
	return n
}

// immediate returns a move among moves that would complete a run for pl.
func (s *search) immediate(moves []int, pl int) (int, bool) {
	for _, c := range moves {
		s.pos.set(c, pl)
		won := s.pos.wins(c)
		s.pos.unset(c)
		if won {
			return c, true
		}
	}
	return 0, false
}

// deepen runs iterative deepening up to maxDepth plies and returns the best
// move of the deepest iteration that finished.
func (s *search) deepen(moves []int, maxDepth int) (int, Stats) {
	bits := ttBits
	if len(s.pos.cell) <= 9 {
		bits = 14 // classic 3×3 has fewer than 6,000 positions
	}
	for bits > 12 && s.opt.MaxNodes > 0 && int64(1)<<(bits-1) >= 2*s.opt.MaxNodes {
		bits-- // a node budget needs no bigger table than twice its nodes
	}
	s.tt = getTT(bits)
	defer putTT(bits, s.tt)
	best := moves[0]
	st := Stats{}
	for depth := 1; depth <= maxDepth; depth++ {
		score, move, ok := s.root(moves, depth)
		if !ok {
			break
		}
		best, st.Depth, st.Score = move, depth, score
		// Search the best move first next time.
		i := slices.Index(moves, move)
		moves = append([]int{move}, slices.Delete(slices.Clone(moves), i, i+1)...)
		if score >= mateBound || score <= -mateBound || depth == len(s.pos.cell)-s.pos.filled {
			st.Complete = !s.big
			if st.Complete {
				st.Distance = len(s.pos.cell) - s.pos.filled // a draw fills the board
				if score != 0 {
					st.Distance = int(Win - max(score, -score))
				}
			}
			break
		}
	}
	st.Nodes = s.nodes
	return best, st
}

// root searches every root move to depth and returns the best.
func (s *search) root(moves []int, depth int) (int64, int, bool) {
	if s.big && len(moves) > beamRoot {
		moves = moves[:beamRoot]
	}
	alpha, best := -inf, moves[0]
	next := s.pos.next(s.me)
	for _, c := range moves {
		s.pos.set(c, s.me)
		var score int64
		switch {
		case s.pos.wins(c):
			score = Win - 1
		case s.pos.full():
			score = 0
		default:
			score = s.alphabeta(depth-1, 1, alpha, inf, next)
		}
		s.pos.unset(c)
		if s.aborted {
			return 0, 0, false
		}
		if score > alpha {
			alpha, best = score, c
		}
	}
	return alpha, best, true
}

// alphabeta scores the position from s.me's point of view with mover to
// play: s.me maximises, everyone else minimises (paranoid).
func (s *search) alphabeta(depth, ply int, alpha, beta int64, mover int) int64 {
	s.nodes++
	if s.nodes%checkEvery == 0 && s.outOfTime() {
		s.aborted = true
		return 0
	}
	if s.aborted {
		return 0
	}
	if depth == 0 {
		if s.opt.Level != Hard && !s.many {
			// With two players Medium looks two plies ahead, no more.
			// With more, its two plies see only the next player, and
			// the rule below is how it also sees the one after that
			// win (docs/ai.md: measured, not understood).
			return s.eval()
		}
		// A player to move with a four wins on the spot: scoring that
		// as the win it is, not as a few heavy windows, is a free ply of
		// tactics at every leaf. (With three or more players this is
		// what turned Hard's paranoid search from losing to Medium into
		// beating it.)
		if s.canWin(mover) {
			score := Win - int64(ply+1)
			if mover != s.me {
				score = -score
			}
			return score
		}
		if s.pos.players == 2 && !s.pos.gravity {
			return s.quiesce(ply, alpha, beta, mover)
		}
		return s.eval()
	}
	key := s.pos.hash
	e := &s.tt[key&uint64(len(s.tt)-1)]
	hashMove := int32(-1)
	if e.key == key && e.flag != 0 {
		hashMove = e.best
		if int(e.depth) >= depth {
			score := fromTT(e.score, ply)
			switch {
			case e.flag == flagExact:
				return score
			case e.flag == flagLower && score >= beta:
				return score
			case e.flag == flagUpper && score <= alpha:
				return score
			}
		}
	}
	moves := s.candidates(mover, hashMove)
	if s.big && len(moves) > beamInner {
		moves = moves[:beamInner]
	}
	maximise := mover == s.me
	origAlpha, origBeta := alpha, beta
	best := -inf
	if !maximise {
		best = inf
	}
	bestMove := int32(-1)
	next := s.pos.next(mover)
	for _, c := range moves {
		s.pos.set(c, mover)
		var score int64
		switch {
		case s.pos.wins(c):
			score = Win - int64(ply+1)
			if !maximise {
				score = -score
			}
		case s.pos.full():
			score = 0
		default:
			score = s.alphabeta(depth-1, ply+1, alpha, beta, next)
		}
		s.pos.unset(c)
		if s.aborted {
			return 0
		}
		if maximise && score > best || !maximise && score < best {
			best, bestMove = score, int32(c)
		}
		if maximise {
			alpha = max(alpha, best)
		} else {
			beta = min(beta, best)
		}
		if alpha >= beta {
			break
		}
	}
	flag := flagExact
	switch {
	case best <= origAlpha:
		flag = flagUpper
	case best >= origBeta:
		flag = flagLower
	}
	*e = ttEntry{key: key, score: toTT(best, ply), best: bestMove, depth: int8(min(depth, 127)), flag: flag}
	return best
}

// quiesce scores a leaf of a two-player free-placement game where mover
// cannot win at once: if the other player has two cells to win on, mover
// loses; if one, mover must take it, and the search follows that forced
// move (and the forced replies it causes) before judging the position by
// its windows. Fours are the threats the heuristic would otherwise
// misjudge by a ply.
func (s *search) quiesce(ply int, alpha, beta int64, mover int) int64 {
	p := s.pos
	other := p.next(mover)
	if p.fours[other] == 0 {
		return s.eval()
	}
	g, two := p.gain(other)
	if two {
		score := Win - int64(ply+2)
		if other != s.me {
			score = -score
		}
		return score
	}
	p.set(g, mover)
	var score int64
	// (The block cannot win: mover had no four.)
	switch {
	case p.full():
		score = 0
	default:
		score = s.alphabeta(0, ply+1, alpha, beta, other)
	}
	p.unset(g)
	return score
}

// canWin reports whether pl completes a run with one stone now.
func (s *search) canWin(pl int) bool {
	p := s.pos
	if p.fours[pl] == 0 {
		return false
	}
	if !p.gravity {
		return true
	}
	var buf [1]int
	for _, w := range p.hot[pl] {
		if p.count[w] != int8(p.k-1) {
			continue
		}
		// Under gravity the cell must also be the top of its column.
		if g := p.empties(buf[:0], w)[0]; p.target(g%p.cols) == g {
			return true
		}
	}
	return false
}

// ttPool keeps the heuristic search's tables between calls, one pool per
// size, so a move does not allocate megabytes; a table is cleared before
// reuse, which keeps every search independent of the ones before it.
var ttPool [ttBits + 1]sync.Pool

func getTT(bits int) []ttEntry {
	if t, ok := ttPool[bits].Get().(*[]ttEntry); ok {
		clear(*t)
		return *t
	}
	return make([]ttEntry, 1<<bits)
}

func putTT(bits int, t []ttEntry) { ttPool[bits].Put(&t) }

// Forced results are stored relative to the node, so a transposition reached
// at another ply keeps the right distance.
func toTT(score int64, ply int) int64 {
	switch {
	case score >= mateBound:
		return score + int64(ply)
	case score <= -mateBound:
		return score - int64(ply)
	}
	return score
}

func fromTT(score int64, ply int) int64 {
	switch {
	case score >= mateBound:
		return score - int64(ply)
	case score <= -mateBound:
		return score + int64(ply)
	}
	return score
}

func (s *search) outOfTime() bool {
	if s.opt.MaxNodes > 0 && s.nodes >= s.opt.MaxNodes {
		return true
	}
	return s.pastDeadline()
}

// pastDeadline reports whether the move's time is up (or its caller gone),
// whatever its node budget.
func (s *search) pastDeadline() bool {
	return s.ctx.Err() != nil || (!s.deadline.IsZero() && time.Now().After(s.deadline))
}

// eval scores a quiet position for s.me: its open windows against everyone
// else's (paranoid: the others count together).
func (s *search) eval() int64 {
	v := s.pos.score[s.me]
	for p, sc := range s.pos.score {
		if p != s.me {
			v -= sc
		}
	}
	return v
}

// candidates lists mover's moves, best first: the hash move, then by threat.
func (s *search) candidates(mover int, hashMove int32) []int {
	p := s.pos
	var moves []int
	switch {
	case p.gravity:
		for col := 0; col < p.cols; col++ {
			if c := p.target(col); c >= 0 {
				moves = append(moves, c)
			}
		}
	case !s.big:
		for c, v := range p.cell {
			if v < 0 {
				moves = append(moves, c)
			}
		}
	default:
		moves = s.nearby()
	}
	type scored struct {
		cell, idx int
		score     int64
	}
	ranked := make([]scored, len(moves))
	for i, c := range moves {
		ranked[i] = scored{c, i, s.threat(c, mover)}
		if int32(c) == hashMove {
			ranked[i].score = inf
		}
	}
	// Best first; equal scores keep the order the cells were listed in
	// (row-major or by column), which keeps the choice deterministic.
	// Cells are distinct, so this is a total order and the unstable sort
	// gives what a stable one would, faster.
	slices.SortFunc(ranked, func(a, b scored) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return a.idx - b.idx
	})
	for i, r := range ranked {
		moves[i] = r.cell
	}
	return moves
}

// nearby lists empty cells within nearReach of a token (the centre on an
// empty board).
func (s *search) nearby() []int {
	p := s.pos
	if p.filled == 0 {
		return []int{(p.rows/2)*p.cols + p.cols/2}
	}
	s.stampGen++
	var out []int
	visit := func(c int) {
		r0, c0 := c/p.cols, c%p.cols
		for r := max(0, r0-nearReach); r <= min(p.rows-1, r0+nearReach); r++ {
			for cc := max(0, c0-nearReach); cc <= min(p.cols-1, c0+nearReach); cc++ {
				x := r*p.cols + cc
				if p.cell[x] < 0 && s.stamp[x] != s.stampGen {
					s.stamp[x] = s.stampGen
					out = append(out, x)
				}
			}
		}
	}
	for _, c := range s.initial {
		visit(c)
	}
	for _, c := range p.history {
		visit(c)
	}
	return out
}

// threat is how much playing c does for mover: extending its own windows,
// and spoiling windows another single player owns.
func (s *search) threat(c, mover int) int64 {
	p := s.pos
	var v int64
	for _, w := range p.winOf[c] {
		n := p.count[w]
		switch owner := p.live(w); {
		case p.mask[w] == 0:
			v++
		case owner == mover:
			v += p.weight[n+1] * 2
		case owner >= 0:
			v += p.weight[n+1]
		}
	}
	return v
}
