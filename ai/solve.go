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
	if g.Over() {
		return Value{}, false, ErrNoMove
	}
	r := g.Rules()
	n, cells := g.Filled(), r.Cells()
	// lastBoard is the most stones the board may hold before the
	// deciding stone within the horizon, of the parity of the side that
	// places it.
	lastBoard := func(winner int) int {
		m := n + horizon - 1
		if (m-n-winner)%2 != 0 {
			m--
		}
		return m
	}
	if geo := bitboard.NewGeometry(r); geo != nil {
		p := geo.FromGame(g)
		s := &bitboard.Solver{G: geo, TT: bitboard.SharedTable(), Ctx: ctx}
		sign, ok := s.Solve(p, true)
		if !ok {
			return Value{}, false, stopped(ctx)
		}
		// A win whose stone goes onto a board of m stones scores
		// (cells+1−m)/2 (see bitboard's solver).
		score, lo, hi := sign, 0, 0
		switch {
		case sign > 0:
			lo, hi = max(1, (cells+1-lastBoard(0))/2), geo.MaxScore(p.Moves)
		case sign < 0:
			lo, hi = -geo.MaxScore(p.Moves), -max(1, (cells+1-lastBoard(1))/2)
		}
		if sign != 0 && lo <= hi {
			if score, ok = s.SolveWindow(p, lo, hi); !ok {
				return Value{}, false, stopped(ctx)
			}
		}
		if sign == 0 || score < lo || score > hi {
			return valueOf(sign, cells-n), sign == 0, nil
		}
		return valueOf(score, geo.Plies(p, score)), true, nil
	}
	fb := newFreeBoard(r)
	if fb == nil {
		return Value{}, false, fmt.Errorf("%w: %d players, %d×%d, gravity %v", ErrNoSolver, r.Players, r.Rows, r.Cols, r.Gravity)
	}
	sign, ok := fb.solve(ctx, g, false)
	if !ok {
		return Value{}, false, stopped(ctx)
	}
	// Here a winning stone that goes onto a board of m stones scores
	// cells−m (see freeboard.go).
	score, lo, hi := sign, 0, 0
	switch {
	case sign > 0:
		lo, hi = max(1, cells-lastBoard(0)), cells
	case sign < 0:
		lo, hi = -cells, -max(1, cells-lastBoard(1))
	}
	if sign != 0 && lo <= hi {
		if score, ok = fb.solveWindow(ctx, g, lo, hi); !ok {
			return Value{}, false, stopped(ctx)
		}
	}
	if sign == 0 || score < lo || score > hi {
		return valueOf(sign, cells-n), sign == 0, nil
	}
	return valueOf(score, fb.plies(n, score)), true, nil
}

func solve(ctx context.Context, g *game.Game, exact bool) (Value, error) {
	if g.Over() {
		return Value{}, ErrNoMove
	}
	r := g.Rules()
	if geo := bitboard.NewGeometry(r); geo != nil {
		p := geo.FromGame(g)
		s := &bitboard.Solver{G: geo, TT: bitboard.SharedTable(), Ctx: ctx}
		score, ok := s.Solve(p, !exact)
		if !ok {
			return Value{}, stopped(ctx)
		}
		plies := geo.Cells() - p.Moves
		if exact && score != 0 {
			plies = geo.Plies(p, score)
		}
		return valueOf(score, plies), nil
	}
	sb := newFreeBoard(r)
	if sb == nil {
		return Value{}, fmt.Errorf("%w: %d players, %d×%d, gravity %v", ErrNoSolver, r.Players, r.Rows, r.Cols, r.Gravity)
	}
	score, ok := sb.solve(ctx, g, exact)
	if !ok {
		return Value{}, stopped(ctx)
	}
	empty := r.Cells() - g.Filled()
	plies := empty
	if exact && score != 0 {
		plies = sb.plies(g.Filled(), score)
	}
	return valueOf(score, plies), nil
}

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
