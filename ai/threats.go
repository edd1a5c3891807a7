package ai

import (
	"slices"
	"time"
)

// Threat-space search (Allis, Searching for Solutions in Games and
// Artificial Intelligence, 1994, ch. 5) for two players on free-placement
// boards with k ≥ 5, where the game is decided by forcing sequences long
// before a full-width search sees their end.
//
// A four is a window holding k−1 stones of one player and one empty cell:
// the other side must take that cell at once. A VCF (victory by continuous
// fours) is a sequence of fours, each answered by its only reply, that ends
// in two fours with different cells, or a four the defender cannot stop.
// Every defender move in a VCF is forced, so a VCF found is a proof.
//
// A threat is a move after which the attacker would have a VCF if the
// defender passed; a VCT (victory by continuous threats) is a sequence of
// threats and fours that wins against every defence. The defences tried
// are the cells of the windows the attacker's VCF uses and the defender's
// own fours (which the attacker must answer); a move anywhere else leaves
// the VCF standing. This is Allis' relevance argument. It misses one rare
// case — a distant defender stone that turns a later forced reply into a
// four of the defender's — so a VCT is played but not reported as proved.
//
// Both searches count their positions against the node budget, so a
// MaxNodes move stays reproducible, and stop at tssShare of the budget,
// leaving the rest to the alpha-beta search that follows.
const (
	vcfDepth    = 20 // most fours in one VCF
	vctDepth    = 3  // most threats (not fours) in one VCT
	vctBranch   = 12 // threat moves tried at each attacker node of a VCT
	tssShare    = 3  // the threat search may use 1/tssShare of the budget
	failBits    = 13 // entries in the table of positions proved not to win
	vctKeySalt  = 0x9e3779b97f4a7c15
	turnKeySalt = 0x6a09e667f3bcc909
)

// threatSearch is the threat search's state inside a search.
type threatSearch struct {
	limit    int64     // s.nodes at which to stop
	deadline time.Time // or the time
	stopped  bool      // the limit was reached: failures are not proofs
	move     int       // the first move of the last proof found
	// failed remembers positions where the attacker has no win within a
	// depth, so transpositions of a failed sequence are not searched again.
	failKey   []uint64
	failDepth []int8
}

// threatsApply reports whether the threat search can help: Hard, two
// players left, no gravity (a four's empty cell must be playable at once),
// k ≥ 5.
func (s *search) threatsApply() bool {
	p := s.pos
	return s.opt.Level == Hard && !p.gravity && p.k >= 5 && p.next(p.next(s.me)) == s.me && p.next(s.me) != s.me
}

// threatMove runs the threat search at the root: a forced win by fours or
// by threats, else the moves that stop the opponent's forced win by fours
// (and, budget allowing, by threats). It returns the move to play and true
// when the search found a win; otherwise the root moves to keep searching.
func (s *search) threatMove(moves []int) (int, Stats, bool, []int) {
	p := s.pos
	me, opp := s.me, p.next(s.me)
	t := &s.tss
	t.failKey = make([]uint64, 1<<failBits)
	t.failDepth = make([]int8, 1<<failBits)
	// Half the threat search's share for our own wins (and the
	// opponent's VCF, which is cheap), half for the opponent's VCT: one
	// long fruitless search for a win of ours must not leave nothing for
	// the defence.
	var half time.Duration
	if !s.deadline.IsZero() {
		half = time.Until(s.deadline) / (2 * tssShare)
	}
	phase := func() {
		t.stopped = false
		t.limit = 1<<62 - 1
		if s.opt.MaxNodes > 0 {
			t.limit = s.nodes + max(1, s.opt.MaxNodes/(2*tssShare))
		}
		if half > 0 {
			t.deadline = time.Now().Add(half)
		}
	}
	phase()
	left := len(p.cell) - p.filled
	if s.vcf(me, opp, vcfDepth, nil) {
		// A proof, but not of the fastest win: the distance is unknown.
		return t.move, Stats{Nodes: s.nodes, Score: Win - int64(left), Complete: true}, true, moves
	}
	// The opponent's VCF, if it exists, must be stopped now; then, among
	// the moves that stop it, prefer those that leave no VCT either.
	var zone []int
	if s.vcf(opp, me, vcfDepth, &zone) {
		keep := s.refuting(s.defences(me, zone), opp, 0)
		if len(keep) == 0 {
			return 0, Stats{}, false, moves // lost against best play: let the search delay it
		}
		if safe := s.refuting(keep, opp, vctDepth); len(safe) > 0 {
			keep = safe
		}
		return 0, Stats{}, false, keep
	}
	if s.vct(me, opp, vctDepth) {
		return t.move, Stats{Nodes: s.nodes, Score: mateBound - 1}, true, moves
	}
	// The opponent's VCT: keep the defences after which it has none. They
	// lie in the windows of its first threat's VCF, or are that threat's
	// cell, or are fours of ours.
	if s.outOfTime() {
		return 0, Stats{}, false, moves
	}
	phase()
	if !s.vct(opp, me, vctDepth) {
		return 0, Stats{}, false, moves
	}
	x := t.move
	p.set(x, opp)
	s.vcf(opp, me, vcfDepth, &zone)
	p.unset(x)
	if keep := s.refuting(s.defences(me, append(zone, x)), opp, vctDepth); len(keep) > 0 {
		return 0, Stats{}, false, keep
	}
	return 0, Stats{}, false, moves
}

// refuting returns the moves among cands after which opp has no VCF
// (depth 0) or no VCT (depth > 0), for s.me to play; moves the budget
// left unchecked are kept too, after the checked ones.
func (s *search) refuting(cands []int, opp, depth int) []int {
	p := s.pos
	var keep, unsure []int
	for _, y := range cands {
		p.set(y, s.me)
		s.nodes++
		var lost bool
		if depth == 0 {
			lost = s.vcf(opp, s.me, vcfDepth, nil)
		} else {
			lost = s.vct(opp, s.me, depth)
		}
		p.unset(y)
		switch {
		case s.tss.stopped:
			unsure = append(unsure, y)
		case !lost:
			keep = append(keep, y)
		}
	}
	return append(keep, unsure...)
}

// stop reports whether the threat search must end now.
func (s *search) tssStop() bool {
	t := &s.tss
	if !t.stopped && (s.nodes >= t.limit || s.aborted ||
		s.nodes%checkEvery == 0 && (s.outOfTime() || !t.deadline.IsZero() && time.Now().After(t.deadline))) {
		t.stopped = true
	}
	return t.stopped
}

func (s *search) failedBefore(key uint64, depth int) bool {
	i := key & (1<<failBits - 1)
	return s.tss.failKey[i] == key && int(s.tss.failDepth[i]) >= depth
}

func (s *search) fail(key uint64, depth int) {
	if s.tss.stopped {
		return // cut short: not a proof of failure
	}
	i := key & (1<<failBits - 1)
	s.tss.failKey[i], s.tss.failDepth[i] = key, int8(depth)
}

// vcf reports whether att, to move, wins by fours alone (def only answers),
// within depth fours; the first move is left in s.tss.move. When zone is
// not nil, the cells of every window the proof uses, and its moves, are
// appended to it: the only cells where a defender stone could refute it.
func (s *search) vcf(att, def, depth int, zone *[]int) bool {
	p := s.pos
	if p.fours[att] > 0 {
		s.tss.move, _ = p.gain(att)
		if zone != nil {
			*zone = s.fourCells(att, *zone)
		}
		return true
	}
	if depth == 0 || s.tssStop() {
		return false
	}
	key := p.hash ^ uint64(att+1)*turnKeySalt
	if s.failedBefore(key, depth) {
		return false
	}
	var moves []int
	if p.fours[def] > 0 {
		// The defender threatens to win: the attacker must block, and
		// the block must itself be a four to keep the initiative.
		g, two := p.gain(def)
		if two {
			return false
		}
		moves = []int{g}
	} else {
		moves = s.fourMoves(att, nil)
	}
	for _, x := range moves {
		s.nodes++
		p.set(x, att)
		ok := false
		if p.fours[att] > 0 { // all through x: there were none before
			g, two := p.gain(att)
			if two {
				ok = true
			} else {
				// The only reply. It cannot win for def: def had no four
				// left (none, or the one x just blocked).
				s.nodes++
				p.set(g, def)
				ok = s.vcf(att, def, depth-1, zone)
				p.unset(g)
			}
			if ok && zone != nil {
				*zone = append(s.fourCells(att, *zone), x)
			}
		}
		p.unset(x)
		if ok {
			s.tss.move = x
			return true
		}
		if s.tss.stopped {
			return false
		}
	}
	s.fail(key, depth)
	return false
}

// vct reports whether att, to move, wins by threats and fours against
// every relevant defence, with at most depth threats that are not fours;
// the first move is left in s.tss.move.
func (s *search) vct(att, def, depth int) bool {
	if s.vcf(att, def, vcfDepth, nil) {
		return true
	}
	p := s.pos
	if depth == 0 || s.tssStop() {
		return false
	}
	key := p.hash ^ uint64(att+1)*vctKeySalt
	if s.failedBefore(key, depth) {
		return false
	}
	var moves []int
	if p.fours[def] > 0 {
		g, two := p.gain(def)
		if two {
			return false
		}
		moves = []int{g} // forced; it may still be a threat
	} else {
		moves = s.threatMoves(att)
	}
	var zone []int
	for _, x := range moves {
		s.nodes++
		p.set(x, att)
		ok := false
		zone = zone[:0]
		if s.vcf(att, def, vcfDepth, &zone) { // x threatens a VCF
			ok = true
			for _, y := range s.defences(def, zone) {
				s.nodes++
				p.set(y, def)
				won := s.vct(att, def, depth-1)
				p.unset(y)
				if !won {
					ok = false
					break
				}
			}
		}
		p.unset(x)
		if ok && !s.tss.stopped {
			s.tss.move = x
			return true
		}
		if s.tss.stopped {
			return false
		}
	}
	s.fail(key, depth)
	return false
}

// fourMoves appends the cells where att makes a four: the empty cells of
// its windows holding k−2 stones.
func (s *search) fourMoves(att int, dst []int) []int {
	p := s.pos
	s.stampGen++
	var buf [2]int
	for _, w := range p.hot[att] {
		if p.count[w] != int8(p.k-2) {
			continue
		}
		for _, c := range p.empties(buf[:0], w) {
			if s.stamp[c] != s.stampGen {
				s.stamp[c] = s.stampGen
				dst = append(dst, c)
			}
		}
	}
	return dst
}

// threatMoves lists att's candidate threats: empty cells of its windows
// holding k−3 or k−2 stones, the most promising vctBranch first.
func (s *search) threatMoves(att int) []int {
	p := s.pos
	s.stampGen++
	var cells []int
	var buf [3]int
	for _, w := range p.hot[att] {
		if p.count[w] < int8(p.k-3) || p.count[w] > int8(p.k-2) {
			continue
		}
		for _, c := range p.empties(buf[:0], w) {
			if s.stamp[c] != s.stampGen {
				s.stamp[c] = s.stampGen
				cells = append(cells, c)
			}
		}
	}
	type scored struct {
		cell  int
		score int64
	}
	ranked := make([]scored, len(cells))
	for i, c := range cells {
		ranked[i] = scored{c, s.threat(c, att)}
	}
	slices.SortFunc(ranked, func(a, b scored) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return a.cell - b.cell
	})
	cells = cells[:0]
	for _, r := range ranked[:min(len(ranked), vctBranch)] {
		cells = append(cells, r.cell)
	}
	return cells
}

// fourCells appends every cell of att's fours.
func (s *search) fourCells(att int, dst []int) []int {
	p := s.pos
	for _, w := range p.hot[att] {
		if p.count[w] == int8(p.k-1) {
			c, d := int(p.start[w]), int(p.step[w])
			for i := 0; i < p.k; i++ {
				dst = append(dst, c+i*d)
			}
		}
	}
	return dst
}

// defences lists def's replies worth trying against a proof that uses the
// cells in zone: the empty ones, then def's own fours.
func (s *search) defences(def int, zone []int) []int {
	p := s.pos
	fours := s.fourMoves(def, nil)
	var out []int
	s.stampGen++
	for _, c := range zone {
		if p.cell[c] < 0 && s.stamp[c] != s.stampGen {
			s.stamp[c] = s.stampGen
			out = append(out, c)
		}
	}
	for _, c := range fours {
		if s.stamp[c] != s.stampGen {
			out = append(out, c)
		}
	}
	return out
}
