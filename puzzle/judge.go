package puzzle

import (
	"context"
	"errors"
	"fmt"

	"github.com/tttbot/tttbot/ai"
	"github.com/tttbot/tttbot/game"
)

// Outcome is where a try stands after the solver's latest move.
type Outcome int

const (
	// Continue means the move keeps a win within the moves left: the
	// defender answers with Verdict.Reply and the solver moves again.
	Continue Outcome = iota
	// Solved means the move completed k in a row within WinIn moves.
	Solved
	// Failed means the move let the win slip: the defender now draws,
	// wins, or loses only after more moves than the puzzle allows.
	Failed
)

// String returns "continue", "solved" or "failed".
func (o Outcome) String() string {
	switch o {
	case Continue:
		return "continue"
	case Solved:
		return "solved"
	case Failed:
		return "failed"
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// Verdict is the judge's answer to the solver's latest move.
type Verdict struct {
	Outcome Outcome
	// Reply is the defender's answer when Outcome is Continue: the cell
	// its stone lands on. It is the move that loses slowest; among equally
	// slow ones a block of the solver's immediate win, then the first in
	// reading order.
	Reply game.Coord
	// Line is, when Solved, the whole solution as played (the solver's
	// moves and the replies, from the position to the winning stone);
	// when Failed, the refutation: from the position after the failed
	// move, the best play of both sides for as many moves as the try had
	// left (at least the defender's reply), or to the end of the game
	// when sooner. Within it, a side that wins takes its fastest win and
	// a side that loses its slowest loss, as far as the line reaches.
	Line []game.Coord
}

// ErrBadTry means played is not a try of p: a move off the board or into
// a full column or a taken cell, a defender's move other than the one
// Judge answered, or moves after the try ended.
var ErrBadTry = errors.New("not a try of this puzzle")

// Judge judges the solver's latest move of a try at p. played holds the
// moves after the position, alternately the solver's and the defender's,
// the defender's as earlier verdicts replied, and ends with the solver's
// move to judge (under gravity only a move's column counts). Judge is
// deterministic: the same puzzle and moves give the same verdict on every
// machine and run. It solves positions exactly, but only as far as the
// moves left reach: a few milliseconds for the pool's puzzles, longer for
// a position far from its end. When ctx ends first it returns ctx's error.
//
// A move fails when, against the best defence, it no longer wins within
// the solver's moves left: a slower win fails too, since the puzzle says
// "win in N".
func Judge(ctx context.Context, p Puzzle, played []game.Coord) (Verdict, error) {
	if len(played)%2 == 0 {
		return Verdict{}, fmt.Errorf("%w: %d moves played, the last is the defender's", ErrBadTry, len(played))
	}
	g, err := p.Position()
	if err != nil {
		return Verdict{}, err
	}
	var path []game.Coord
	for i := 0; i < len(played); i += 2 {
		left := p.WinIn - i/2 // the solver's moves left, this one included
		at, err := g.Play(g.Turn(), played[i])
		if err != nil {
			return Verdict{}, fmt.Errorf("%w: move %d: %v", ErrBadTry, i+1, err)
		}
		path = append(path, at)
		last := i == len(played)-1
		if g.State() == game.Won {
			if !last {
				return Verdict{}, fmt.Errorf("%w: moves after the winning stone", ErrBadTry)
			}
			return Verdict{Outcome: Solved, Line: path}, nil
		}
		keeps := false
		if left > 1 && !g.Over() {
			// The defender to move: it must lose within the solver's
			// moves left after this one.
			v, exact, err := ai.SolveWithin(ctx, g, 2*(left-1))
			if err != nil {
				return Verdict{}, err
			}
			keeps = v.Outcome == ai.Lost && exact
		}
		if !keeps {
			if !last {
				return Verdict{}, fmt.Errorf("%w: moves after the try failed", ErrBadTry)
			}
			ref, err := refutation(ctx, g, left)
			if err != nil {
				return Verdict{}, err
			}
			return Verdict{Outcome: Failed, Line: ref}, nil
		}
		reply, err := bestMove(ctx, g, 2*(left-1))
		if err != nil {
			return Verdict{}, err
		}
		if last {
			return Verdict{Outcome: Continue, Reply: reply}, nil
		}
		if played[i+1] != reply && !(g.Rules().Gravity && played[i+1].Col == reply.Col) {
			return Verdict{}, fmt.Errorf("%w: move %d is %v, the defence is %v", ErrBadTry, i+2, played[i+1], reply)
		}
		if _, err := g.Play(g.Turn(), reply); err != nil {
			return Verdict{}, err
		}
		path = append(path, reply)
	}
	panic("unreachable: played ends with the solver's move")
}

// refutation is the line that shows why a move failed: g is the position
// after it, the defender to move, and left the solver's moves left before
// it. The best play of both sides follows for the 2·(left−1) moves the try
// had left (at least the defender's reply), or to the end of the game when
// sooner.
func refutation(ctx context.Context, g *game.Game, left int) ([]game.Coord, error) {
	return playOut(ctx, g, max(1, 2*(left-1)))
}
