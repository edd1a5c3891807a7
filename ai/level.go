package ai

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tttbot/tttbot/ai/internal/bitboard"
	"github.com/tttbot/tttbot/game"
)

// Level is how strong the computer plays.
type Level int

const (
	// Easy plays a sensible move half the time and a random nearby one
	// otherwise; it misses threats, so a beginner can beat it.
	Easy Level = iota
	// Medium takes a win, blocks a loss, and looks two moves ahead.
	Medium
	// Hard searches as deep as the budget allows: on small boards it plays
	// perfectly, preferring the fastest win and the slowest loss. With k ≥ 5
	// and no gravity it first searches for forced wins by threats. With
	// three or more players it looks one round ahead (4 plies, or one move
	// of each player), which measured stronger than a deeper search that
	// assumes everyone plays against it.
	Hard
)

// String returns "easy", "medium" or "hard".
func (l Level) String() string {
	switch l {
	case Easy:
		return "easy"
	case Medium:
		return "medium"
	case Hard:
		return "hard"
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// DefaultBudget is the time a move may take unless the caller says otherwise.
const DefaultBudget = time.Second

// Options tune one decision.
type Options struct {
	Level Level
	// Budget is the wall-clock limit; 0 means DefaultBudget. It always
	// applies, so a move never takes much longer than this.
	Budget time.Duration
	// MaxNodes, when positive, stops the search after this many positions
	// instead of by the clock, and keeps the search from reading what
	// earlier searches left behind: the same position and Options then
	// give the same move and Stats on any machine, as long as Budget is
	// generous enough not to cut in first. 0 means no node limit.
	MaxNodes int64
	// Seed drives Easy's random choices (which of its moves are careless,
	// and which cell a careless move takes). Medium and Hard do not use
	// it: they are deterministic for a given MaxNodes.
	Seed uint64
}

// ErrNoMove means the game is over or it is nobody's turn to move.
var ErrNoMove = errors.New("no move to make: the game is over")

// Stats describe the search behind a move.
type Stats struct {
	Nodes int64 // positions visited
	Depth int   // deepest iteration completed (plies)
	// Score is the value of the position for the mover under the best
	// play the search found: ±(Win − plies) for a forced win or loss, 0
	// for a draw, and a heuristic figure below the forced-result range
	// otherwise.
	Score int64
	// Complete means the search proved the outcome Score gives (see
	// Outcome): a win, a loss, or a draw. The distance in Score is exact
	// when Distance is positive; a proof that knows who wins but not how
	// fast counts every ply left on the board instead.
	Complete bool
	// Distance is the number of plies to the end of the game under
	// perfect play by both sides (the winning stone, or the last cell of a
	// draw), when proved; 0 when not known.
	Distance int
}

// Outcome is what a search proved about a position for the player to move.
type Outcome int

const (
	// Unknown means the search did not prove the result.
	Unknown Outcome = iota
	// Won means the mover wins whatever the others do.
	Won
	// Lost means the mover loses against perfect play.
	Lost
	// Drawn means neither side can force a win.
	Drawn
)

// String returns "unknown", "won", "lost" or "drawn".
func (o Outcome) String() string {
	switch o {
	case Won:
		return "won"
	case Lost:
		return "lost"
	case Drawn:
		return "drawn"
	}
	return "unknown"
}

// Outcome reads the proved result off the stats.
func (s Stats) Outcome() Outcome {
	switch {
	case !s.Complete:
		return Unknown
	case s.Score >= mateBound:
		return Won
	case s.Score <= -mateBound:
		return Lost
	}
	return Drawn
}

// Win is the score of a won position before the distance to it is taken
// off: a win in 3 plies scores Win−3, a loss in 4 scores −(Win−4).
const Win int64 = 1 << 40

// Move chooses a move for the player whose turn it is in g. It never
// changes g, and returns a legal cell (for gravity boards, the cell the token
// will land on) unless the game is over. ctx can cancel the search early;
// the best move found so far is returned. Move is safe to call from several
// goroutines at once on different games.
func Move(ctx context.Context, g *game.Game, opt Options) (game.Coord, Stats, error) {
	if g.Over() {
		return game.Coord{}, Stats{}, ErrNoMove
	}
	budget := opt.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	deadline := time.Now().Add(budget)
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	var spent int64
	var columns []bool
	if opt.Level == Hard {
		if geo := bitboard.NewGeometry(g.Rules()); geo != nil {
			c, st, ok := exactMove(ctx, geo, g, opt, deadline, &columns)
			if ok {
				return c, st, nil
			}
			spent = st.Nodes
			if opt.MaxNodes > 0 {
				opt.MaxNodes = max(1, opt.MaxNodes-spent)
			}
		}
	}
	s := newSearch(ctx, g, opt)
	s.columns = columns
	c, st := s.choose()
	st.Nodes += spent
	return c, st, nil
}
