package ai

import (
	"context"
	"errors"
	"fmt"
	"time"

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
	// perfectly, preferring the fastest win and the slowest loss.
	Hard
)

// ParseLevel reads "easy", "medium" or "hard".
func ParseLevel(s string) (Level, error) {
	switch s {
	case "easy":
		return Easy, nil
	case "medium":
		return Medium, nil
	case "hard":
		return Hard, nil
	}
	return Easy, fmt.Errorf("ai level %q: want easy, medium or hard", s)
}

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
	Level    Level
	Budget   time.Duration // wall-clock limit; 0 means DefaultBudget
	MaxNodes int64         // stop after this many positions; 0 means no limit (tests use it to be reproducible)
	Seed     uint64        // randomness for Easy and Medium, and tie-breaking
}

// ErrNoMove means the game is over or it is nobody's turn to move.
var ErrNoMove = errors.New("no move to make: the game is over")

// Stats describe the search behind a move.
type Stats struct {
	Nodes    int64 // positions visited
	Depth    int   // deepest iteration completed
	Score    int64 // from the mover's point of view; ±(Win − plies) for a forced result
	Complete bool  // the search saw to the end of the game: Score is exact
}

// Win is the score of a won position before the distance to it is taken
// off: a win in 3 plies scores Win−3, a loss in 4 scores −(Win−4).
const Win int64 = 1 << 40

// Move chooses a move for the player whose turn it is in g. It never
// changes g, and returns a legal cell (for gravity boards, the cell the token
// will land on) unless the game is over. ctx can cancel the search early;
// the best move found so far is returned.
func Move(ctx context.Context, g *game.Game, opt Options) (game.Coord, Stats, error) {
	if g.Over() {
		return game.Coord{}, Stats{}, ErrNoMove
	}
	budget := opt.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	s := newSearch(ctx, g, opt)
	c, st := s.choose()
	return c, st, nil
}
