package puzzle

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/tttbot/tttbot/ai"
	"github.com/tttbot/tttbot/game"
)

// ErrNotPuzzle means a position is not a puzzle: its mover does not win by
// force, or more than one first move wins.
var ErrNotPuzzle = errors.New("not a puzzle")

// legalMoves lists the mover's moves in reading order: under gravity the
// cell each non-full column drops to, left to right; on a free board every
// empty cell, row by row from the top.
func legalMoves(g *game.Game) []game.Coord {
	r := g.Rules()
	var out []game.Coord
	if r.Gravity {
		for col := range r.Cols {
			if at, err := g.Target(game.Coord{Col: col}); err == nil {
				out = append(out, at)
			}
		}
		return out
	}
	for row := range r.Rows {
		for col := range r.Cols {
			if c := (game.Coord{Row: row, Col: col}); g.At(c) == game.NoPlayer {
				out = append(out, c)
			}
		}
	}
	return out
}

// after returns a copy of g with the mover's stone on m.
func after(g *game.Game, m game.Coord) (*game.Game, error) {
	child := g.Clone()
	if _, err := child.Play(child.Turn(), m); err != nil {
		return nil, err
	}
	return child, nil
}

// moveValue returns what move m is worth to the side that plays it. With
// horizon 0 only the outcome is known (Plies counts the empty cells after
// m); otherwise a win or loss within horizon plies has its exact
// distance, and exact says whether it has.
func moveValue(ctx context.Context, g *game.Game, m game.Coord, horizon int) (v ai.Value, exact bool, err error) {
	child, err := after(g, m)
	if err != nil {
		return ai.Value{}, false, err
	}
	switch child.State() {
	case game.Won:
		return ai.Value{Outcome: ai.Won, Plies: 1}, true, nil
	case game.Drawn:
		return ai.Value{Outcome: ai.Drawn, Plies: 1}, true, nil
	}
	if horizon == 0 {
		v.Outcome, err = ai.Prove(ctx, child)
		v.Plies = child.Rules().Cells() - child.Filled()
	} else {
		v, exact, err = ai.SolveWithin(ctx, child, horizon-1)
	}
	if err != nil {
		return ai.Value{}, false, err
	}
	switch v.Outcome {
	case ai.Won:
		v.Outcome = ai.Lost
	case ai.Lost:
		v.Outcome = ai.Won
	}
	v.Plies++
	return v, exact, nil
}

// rank orders outcomes for the side that has them.
func rank(o ai.Outcome) int {
	switch o {
	case ai.Won:
		return 2
	case ai.Drawn:
		return 1
	}
	return 0
}

// bestMove returns the mover's best move under perfect play: a win over a
// draw over a loss, then the fastest win or the slowest loss; among equal
// losses a block of the other side's immediate win; then the first in
// reading order. Distances count only within horizon
// plies: a win or loss further off ranks as slower than every nearer one,
// and ties with the others as far. Only the moves of the best outcome are
// solved for their distance, which keeps drawn positions cheap.
func bestMove(ctx context.Context, g *game.Game, horizon int) (game.Coord, error) {
	moves := legalMoves(g)
	if len(moves) == 0 {
		return game.Coord{}, ai.ErrNoMove
	}
	outcomes := make([]ai.Outcome, len(moves))
	top := -1
	for i, m := range moves {
		v, _, err := moveValue(ctx, g, m, 0)
		if err != nil {
			return game.Coord{}, err
		}
		outcomes[i] = v.Outcome
		top = max(top, rank(v.Outcome))
	}
	// speed is how soon a move ends the game: its plies, or past the
	// horizon for a far or unknown end.
	// A lost side that can only choose how to lose blocks: among moves
	// that lose equally slowly, one on a cell where the other side would
	// win at once comes first, so the defence never looks like it missed
	// a threat.
	var blocks []game.Coord
	if top == rank(ai.Lost) {
		blocks = winningCells(g, 1-g.Turn())
	}
	best, bestSpeed, bestBlocks := -1, 0, false
	for i, m := range moves {
		if rank(outcomes[i]) != top {
			continue
		}
		if outcomes[i] == ai.Drawn {
			return m, nil // any draw keeps the draw: the first
		}
		v, exact, err := moveValue(ctx, g, m, horizon)
		if err != nil {
			return game.Coord{}, err
		}
		speed := horizon + 1
		if exact {
			speed = v.Plies
		}
		block := slices.Contains(blocks, m)
		better := best < 0
		switch outcomes[i] {
		case ai.Won:
			better = better || speed < bestSpeed
		case ai.Lost:
			better = better || speed > bestSpeed || speed == bestSpeed && block && !bestBlocks
		}
		if better {
			best, bestSpeed, bestBlocks = i, speed, block
		}
	}
	return moves[best], nil
}

// threatened reports whether the side not to move in g would win at once
// if it were its turn: then the mover's first move is forced (block, or
// lose), and a puzzle that starts there asks nothing. Half to two thirds
// of the Connect Four puzzles self-play gave started so; they are left out.
// Classic boards keep them: there a threat is nearly everywhere (96 in 100
// of 4×4's wins in 2 or 3), and blocking with a fork is the lesson.
func threatened(g *game.Game) bool {
	return len(winningCells(g, 1-g.Turn())) > 0
}

// winningCells returns the cells open to the next stone (under gravity,
// the cells stones drop to) where a stone of player would make k in a row.
func winningCells(g *game.Game, player int) []game.Coord {
	r := g.Rules()
	b, err := game.NewBoard(game.Fast, r.Rows, r.Cols)
	if err != nil {
		return nil
	}
	for row := range r.Rows {
		for col := range r.Cols {
			if pl := g.At(game.Coord{Row: row, Col: col}); pl != game.NoPlayer {
				if err := b.Set(game.Coord{Row: row, Col: col}, pl); err != nil {
					return nil
				}
			}
		}
	}
	var out []game.Coord
	for _, m := range legalMoves(g) {
		if game.LineThrough(b, m, player, r.Win) != nil {
			out = append(out, m)
		}
	}
	return out
}

// proof is what proving a position finds.
type proof struct {
	winIn int
	line  []game.Coord
}

// prove checks that g's mover wins by force, with exactly one winning
// first move, and returns how many moves the win takes and the main line.
func prove(ctx context.Context, g *game.Game) (proof, error) {
	if g.Rules().Gravity && threatened(g) {
		return proof{}, fmt.Errorf("%w: the first move is forced: the other side threatens to win at once", ErrNotPuzzle)
	}
	o, err := ai.Prove(ctx, g) // who wins first: cheap, and it settles most positions
	if err != nil {
		return proof{}, err
	}
	if o != ai.Won {
		return proof{}, fmt.Errorf("%w: the side to move does not win (%v)", ErrNotPuzzle, o)
	}
	v, err := ai.Solve(ctx, g)
	if err != nil {
		return proof{}, err
	}
	winning := 0
	for _, m := range legalMoves(g) {
		mv, _, err := moveValue(ctx, g, m, 0)
		if err != nil {
			return proof{}, err
		}
		if mv.Outcome == ai.Won {
			if winning++; winning > 1 {
				return proof{}, fmt.Errorf("%w: more than one first move wins", ErrNotPuzzle)
			}
		}
	}
	line, err := playOut(ctx, g, v.Plies)
	if err != nil {
		return proof{}, err
	}
	if len(line) != v.Plies {
		return proof{}, fmt.Errorf("main line of %d moves for a win in %d plies", len(line), v.Plies)
	}
	return proof{winIn: (v.Plies + 1) / 2, line: line}, nil
}

// playOut plays on from g under perfect play, a winner hurrying and a
// loser resisting (bestMove, looking as far as the moves left), and
// returns the moves played: to the end of the game, or limit moves.
func playOut(ctx context.Context, g *game.Game, limit int) ([]game.Coord, error) {
	g = g.Clone()
	var line []game.Coord
	for !g.Over() && len(line) < limit {
		m, err := bestMove(ctx, g, limit-len(line))
		if err != nil {
			return nil, err
		}
		at, err := g.Play(g.Turn(), m)
		if err != nil {
			return nil, err
		}
		line = append(line, at)
	}
	return line, nil
}
