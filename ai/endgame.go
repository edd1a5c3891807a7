package ai

import "github.com/tttbot/tttbot/game"

// The end of a gravity game with three or more players, solved.
//
// Under gravity a game with many players mostly fills its board, and near
// the end who must play under whose winning cell is decided by how many
// cells are left: a count no search of a few plies sees. Once few cells
// remain, Hard searches the rest of the game whole, each player in turn
// choosing the move best for itself (max^n: a win over a draw over a loss;
// among moves equal for itself, the first in column order), and keeps the
// moves best for itself under that model. It lifts Hard above Medium there,
// and takes half the node budget so that the search still has some when the
// solve runs out (docs/ai.md has the ladder results).

// endgameCells: from this many empty cells or fewer, Hard solves the end.
const endgameCells = 12

// outcome is each player's result: 2 a win, 1 a draw, 0 a loss.
type outcome [game.MaxPlayers]int8

// endgame returns the moves among moves with the best outcome for s.me when
// every player plays the rest of the game for itself, and whether the
// search finished within its budget: half the move's nodes, or without a
// node budget 1<<16 (tens of milliseconds), so that the move's search still
// has its time when the end is too far to solve.
func (s *search) endgame(moves []int) ([]int, bool) {
	limit := int64(1 << 16)
	if s.opt.MaxNodes > 0 {
		limit = s.opt.MaxNodes / 2
	}
	e := endgameSearch{s: s, seen: map[uint64]outcome{}, limit: s.nodes + limit}
	best := int8(-1)
	var keep []int
	for _, c := range moves {
		o, ok := e.after(c, s.me)
		if !ok {
			return nil, false
		}
		switch v := o[s.me]; {
		case v > best:
			best, keep = v, []int{c}
		case v == best:
			keep = append(keep, c)
		}
	}
	return keep, true
}

type endgameSearch struct {
	s     *search
	seen  map[uint64]outcome // by position: the player to move follows from the cells filled
	limit int64
}

// after plays c for pl and returns the outcome of the rest of the game.
func (e *endgameSearch) after(c, pl int) (outcome, bool) {
	p := e.s.pos
	p.set(c, pl)
	defer p.unset(c)
	var o outcome
	switch {
	case p.wins(c):
		o[pl] = 2
		return o, true
	case p.full():
		for i := range o {
			o[i] = 1
		}
		return o, true
	}
	return e.solve(p.next(pl))
}

// solve returns the outcome with pl to move.
func (e *endgameSearch) solve(pl int) (outcome, bool) {
	s := e.s
	if o, ok := e.seen[s.pos.hash]; ok {
		return o, true
	}
	s.nodes++
	if s.nodes >= e.limit || (s.nodes%checkEvery == 0 && s.outOfTime()) {
		return outcome{}, false
	}
	p := s.pos
	var best outcome
	found := false
	for col := 0; col < p.cols; col++ {
		c := p.target(col)
		if c < 0 {
			continue
		}
		o, ok := e.after(c, pl)
		if !ok {
			return outcome{}, false
		}
		if !found || o[pl] > best[pl] { // ties: the first (see above)
			best, found = o, true
		}
		if best[pl] == 2 {
			break // nothing beats a win
		}
	}
	e.seen[p.hash] = best
	return best, true
}
