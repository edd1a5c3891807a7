package ai

import (
	"context"
	"errors"
	"fmt"

	"github.com/tttbot/tttbot/ai/internal/bitboard"
	"github.com/tttbot/tttbot/game"
)

// Exact values of positions, for callers that need more than a move: the
// puzzles (package puzzle) prove that exactly one first move wins and how
// fast, and answer a try with the slowest loss. Two solvers serve them:
// the bitboard solver of gravity boards that fit 64 bits (Connect Four),
// with the table every game shares, and a small negamax for free boards of
// at most freeCells cells (3×3, 4×4, 5×5).

// ErrNoSolver means no exact solver handles these rules: more than two
// players, a gravity board over 64 bitboard bits, or a free board over 25
// cells.
var ErrNoSolver = errors.New("no exact solver for these rules")

// Value is what perfect play makes of a position for the player to move.
type Value struct {
	// Outcome is Won, Lost or Drawn: never Unknown.
	Outcome Outcome
	// Plies counts the stones still to be played under perfect play, the
	// winner's last stone included: a win takes the fastest way, a loss the
	// slowest, and a draw fills the board (Plies is then the empty cells).
	// The mover's own moves to a win are (Plies+1)/2.
	Plies int
}

// String reads like "won in 5 plies".
func (v Value) String() string { return fmt.Sprintf("%v in %d plies", v.Outcome, v.Plies) }

// Solve returns the exact value of g's position for the player to move:
// who wins with perfect play, and how many plies it takes when the winner
// hurries and the loser resists. It searches until it knows, or until ctx
// ends (then it returns ctx's error); a position far from its end can take
// long, so callers bound it with ctx. The answer never depends on what
// other searches ran before (they only make it faster). Errors: ErrNoMove
// when the game is over, ErrNoSolver for rules no solver handles.
func Solve(ctx context.Context, g *game.Game) (Value, error) {
	return solve(ctx, g, true)
}

// Prove returns only who wins g's position with perfect play (Won, Lost or
// Drawn for the player to move), which takes a fraction of Solve's time:
// the search stops as soon as the sign of the value is known. Errors as
// for Solve.
func Prove(ctx context.Context, g *game.Game) (Outcome, error) {
	v, err := solve(ctx, g, false)
	return v.Outcome, err
}

// SolveWithin is Solve for callers that need the distance only when the
// game ends within horizon plies: when perfect play wins or loses within
// horizon plies, v is exact and exact is true; when it ends later, v
// holds only who wins (Plies counts the empty cells) and exact is false.
// A draw is always exact (the board fills). It costs far less than Solve
// when the win is slow: only wins fast enough are searched for. Errors as
// for Solve.
func SolveWithin(ctx context.Context, g *game.Game, horizon int) (v Value, exact bool, err error) {
	x, err := exactFor(ctx, g)
	if err != nil {
		return Value{}, false, err
	}
	n, cells := g.Filled(), g.Rules().Cells()
	sign, ok := x.score(0, 0) // a window around 0 decides the sign
	if !ok {
		return Value{}, false, stopped(ctx)
	}
	if sign == 0 {
		return Value{Outcome: Drawn, Plies: cells - n}, true, nil
	}
	// The deciding stone within the horizon goes onto a board of at most
	// last stones, of the parity of the side that places it (the mover
	// places onto n, n+2, …): a win scores at least winScore(last), a
	// loss at most its opposite.
	last, other := n+horizon-1, 0
	if sign < 0 {
		other = 1 // the other side places onto n+1, n+3, …
	}
	if (last-n-other)%2 != 0 {
		last--
	}
	lo, hi := max(1, x.winScore(last)), x.maxScore()
	if sign < 0 {
		lo, hi = -hi, -lo
	}
	score := sign
	if lo <= hi {
		if score, ok = x.score(lo, hi); !ok {
			return Value{}, false, stopped(ctx)
		}
	}
	if lo > hi || score < lo || score > hi {
		return valueOf(sign, cells-n), false, nil
	}
	return valueOf(score, x.plies(score)), true, nil
}

func solve(ctx context.Context, g *game.Game, exact bool) (Value, error) {
	x, err := exactFor(ctx, g)
	if err != nil {
		return Value{}, err
	}
	lo, hi := 0, 0 // a window around 0 decides the sign
	if exact {
		lo, hi = -x.maxScore(), x.maxScore()
	}
	score, ok := x.score(lo, hi)
	if !ok {
		return Value{}, stopped(ctx)
	}
	if !exact || score == 0 {
		return valueOf(score, g.Rules().Cells()-g.Filled()), nil
	}
	return valueOf(score, x.plies(score)), nil
}

// exactSolver is one position before one of the two exact solvers, in
// that solver's scores: a win scores more the sooner it comes, a loss the
// opposite, a draw 0.
type exactSolver interface {
	// score returns the position's score when it lies in [lo, hi], else
	// a score beyond the nearer bound; ok is false if the search stopped.
	score(lo, hi int) (v int, ok bool)
	// winScore is the score of a win whose stone goes onto a board of m
	// stones.
	winScore(m int) int
	// maxScore bounds every score of the position.
	maxScore() int
	// plies converts a win's or loss's score into plies to its stone.
	plies(score int) int
}

// exactFor returns the solver for g's rules.
func exactFor(ctx context.Context, g *game.Game) (exactSolver, error) {
	if g.Over() {
		return nil, ErrNoMove
	}
	r := g.Rules()
	if geo := bitboard.NewGeometry(r); geo != nil {
		s := &bitboard.Solver{G: geo, TT: bitboard.SharedTable(), Ctx: ctx}
		return bitboardPosition{s, geo.FromGame(g)}, nil
	}
	if fb := newFreeBoard(r); fb != nil {
		cur, opp := fb.masks(g)
		return freePosition{fb, ctx, cur, opp, g.Filled()}, nil
	}
	return nil, fmt.Errorf("%w: %d players, %d×%d, gravity %v", ErrNoSolver, r.Players, r.Rows, r.Cols, r.Gravity)
}

// bitboardPosition is a position before the bitboard solver, whose
// winning stone onto a board of m stones scores (cells+1−m)/2.
type bitboardPosition struct {
	s *bitboard.Solver
	p bitboard.Pos
}

func (b bitboardPosition) score(lo, hi int) (int, bool) { return b.s.SolveWindow(b.p, lo, hi) }
func (b bitboardPosition) winScore(m int) int           { return (b.s.G.Cells() + 1 - m) / 2 }
func (b bitboardPosition) maxScore() int                { return b.s.G.MaxScore(b.p.Moves) }
func (b bitboardPosition) plies(score int) int          { return b.s.G.Plies(b.p, score) }

func valueOf(score, plies int) Value {
	switch {
	case score > 0:
		return Value{Outcome: Won, Plies: plies}
	case score < 0:
		return Value{Outcome: Lost, Plies: plies}
	}
	return Value{Outcome: Drawn, Plies: plies}
}

// stopped is the error of a search that ended before it knew.
func stopped(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return context.DeadlineExceeded
}
