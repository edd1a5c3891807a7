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
	// paranoidDepth caps Hard's search with three players (see choose).
	paranoidDepth = 4
	// crowdPlayers: from this many players on, Hard plays Medium's
	// search, among its forks when it has any (see choose).
	crowdPlayers = 4
	// forkReadyPlayers: from this many players on, Hard without a fork
	// prepares one (see choose).
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

// choose picks the move for s.me.
func (s *search) choose() (game.Coord, Stats) {
	moves := s.candidates(s.me, 0)
	if s.columns != nil {
		var kept []int
		for _, c := range moves {
			if s.columns[c%s.pos.cols] {
				kept = append(kept, c)
			}
		}
		if len(kept) > 0 {
			moves = kept
		}
	}
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
		// With three players the others both move before s.me again:
		// take away the win of the first in turn order who has one
		// (measured: Hard scores better against Medium with this than
		// when it trusts the player in between to block; with four or
		// more it scores worse, see below).
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
		// With four or more players every deeper model measured below
		// made Hard weaker than Medium (TestLongLadder, one Hard against
		// Medium in every other seat, wins a seat: 10×10 k=4 with 4
		// players 8 against 13 over 100 games; gravity 9×8 with 4,
		// 0 against 10 over 500; 12×12 k=4 with 6, 0 against 2 over
		// 90, and two minutes a ladder). Medium's own search scores
		// its seat's share (52 against 52 over 400 games on 10×10, 8
		// against 8 over 500 on gravity 9×8, 6 against 6 on 12×12).
		// A fork is what lifts Hard above it: the one player who would
		// block a win cannot block two, so when s.me can make one, the
		// search chooses among the forks. 10×10: 74 against 51 over 400
		// games; gravity 9×8 and 12×12: no change. Nor did two more
		// rules there (gravity 9×8, 4 players): not filling the cell
		// under any opponent's win (8/462/30 over 500 games, against
		// 8/468/24), and flat Monte Carlo, as below, in place of the
		// two-ply search when there is no fork (1/91/8 over 100, against
		// 2/92/6, and 40 times slower).
		//
		// Blocking every opponent's win, as with three players, is the
		// trade-off: it wastes a move when the player before that
		// opponent blocks anyway, as Medium does, and saves the game when
		// nobody does, as with Easy. With it (and the fork), 10×10 with
		// 4 players scores 43 against 45 a seat over 400 games against
		// Medium, and 182 wins, 9 losses against Easy; without it 74
		// against 51, and 183 wins, 87 losses (Medium: 181 and 59).
		// Without it is the rule that puts Hard above Medium.
		//
		// With five or more players and no fork to make, Hard prepares
		// one: it keeps the moves after which it could make the most
		// forks next turn, two at least (forkReady). 12×12 k=4 with 6
		// players, 450 games (-ladder-games 25): 43 wins against Medium's
		// 22.8 a seat, where it was 17 against 13.8; counting one fork
		// ready as enough, 47 against 25.8 with more losses. With four
		// players it lifts Medium more than Hard (10×10, 100 games: 26
		// against 19.7 a seat, against 18 against 11 without it).
		if forks := s.forks(moves); len(forks) > 0 {
			moves = forks
		} else if s.active() >= forkReadyPlayers {
			if ready := s.forkReady(moves); len(ready) > 0 {
				moves = ready
			}
		}
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
		// Three players. A paranoid search gets worse, not better, past
		// about one round: every extra ply of opponents is one more
		// stone of a coalition that real opponents, each playing for
		// itself, do not form. Measured against Medium with 3 and 4
		// players (7×7 and 10×10 k=4, gravity 7×6 and 9×8), 4 plies (or
		// one round, with more players) won the most a seat; unlimited
		// depth, 3 and 5 plies lost more than they won.
		//
		// Other models did no better (TestLongLadder -ladder-games 2,
		// 36 to 40 games a rule set, 20,000 nodes a move unless said):
		// best-reply search (Schadd and Winands) at any depth lost more
		// everywhere, since in its model only Hard ever blocks; max^n,
		// each opponent maximising its own windows against the strongest
		// or all others, at 4, 5 or 8 plies, and as a fallback when the
		// paranoid search proves a loss, changed nothing on 4 players
		// (10×10: 1–4 wins, 14–20 losses); flat Monte Carlo with UCB1 at
		// the root and win/block/top-three playouts helped gravity 9×8
		// with 4 players (4/33/3 at 100,000 nodes) but lost 12/0/24 on
		// 10×10 with 3 and took minutes a ladder; scoring a leaf where an
		// opponent has two playable wins as lost changed nothing; and
		// at Medium's depth of two Hard scored much as at four (10×10, 4
		// players: 3/25/12 against 4/22/14): the search depth is not
		// what decides these games. Nor did playing, before the search,
		// a move that makes two playable wins at once (over 100 games
		// a set, -ladder-games 5: 10×10 with 4 players 10/48/42 against
		// 8/52/40, the others unchanged); and two made things worse:
		// taking any opponent's fork cell first (7×7 with 3 players
		// 1/78/11 against 18/68/4, 10×10 with 3 12/21/57 against
		// 45/2/43), and one ply of search (10×10 with 4 11/33/56).
		// Medium's search with a fork first, as with four players, is
		// worse with three (7×7 11/62/17, 10×10 34/2/54, gravity 7×6
		// 2/84/4, over 90 games a set).
		maxDepth = min(maxDepth, paranoidDepth)
	}
	c, st := s.deepen(moves, maxDepth)
	return s.coord(c), st
}

// forks lists the moves among moves after which s.me has two cells that
// would each complete a run, so one stone cannot block both. Under gravity
// one of them may still wait for the cell below it; counting only cells
// playable at once, or one stacked on the other, measured no better
// (gravity 9×8, 4 players: 4 against 8 wins a seat over 500 games).
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
			// win. (Measured, not understood: without it Medium beat
			// Hard more often with 3 and 4 players, 10×10 k=4 3
			// players going from 10/0/8 to 3/1/14 for Hard.)
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
