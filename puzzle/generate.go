package puzzle

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/tttbot/tttbot/ai"
	"github.com/tttbot/tttbot/game"
)

// Puzzles come from real games: self-play of ai.Hard (with a small node
// budget, so a game is quick and the same on every machine) where each
// move is, with probability noise, a random one instead. The noise makes
// the mistakes that turn a drawn game into a won one. The finished game is
// then read backwards from its end: near the end positions solve in
// microseconds, and each step back makes the win longer. A position
// becomes a puzzle when its mover wins in a number of moves its
// difficulty wants and exactly one first move wins.

// selfPlayNodes is Hard's node budget a move in self-play.
const selfPlayNodes = 20_000

// noise is the chance that a self-play move is random.
const noise = 0.2

// ErrNoPuzzle means generation found no puzzle of the kind and difficulty
// within its budget.
var ErrNoPuzzle = errors.New("no puzzle found in time")

// Generate makes a puzzle of kind k and difficulty d from self-play games
// seeded by seed: the same seed gives the same puzzle on every machine,
// given the time. It plays games until one yields a puzzle that accept
// (if not nil) takes by its ID, or until ctx ends (then it returns
// ErrNoPuzzle wrapping ctx's error).
func Generate(ctx context.Context, k Kind, d Difficulty, seed uint64, accept func(id string) bool) (Puzzle, error) {
	rs := rulesOf(k)
	if rs == nil || !slices.Contains(Difficulties(), d) {
		return Puzzle{}, fmt.Errorf("%w: kind %q, difficulty %q", ErrUnknown, k, d)
	}
	var usable []game.Rules
	for _, r := range rs {
		for n := 1; n <= r.Cells(); n++ {
			if dd, ok := difficultyOf(k, r, n); ok && dd == d {
				usable = append(usable, r)
				break
			}
		}
	}
	rng := rand.New(rand.NewPCG(seed, uint64(len(k))<<8|uint64(len(d))))
	for {
		if err := ctx.Err(); err != nil {
			return Puzzle{}, fmt.Errorf("%w: %w", ErrNoPuzzle, err)
		}
		r := usable[rng.IntN(len(usable))]
		moves, err := selfPlay(ctx, r, rng)
		if err != nil {
			continue // the context ended: the loop's check returns
		}
		want := func(got Difficulty, id string) bool { return got == d && (accept == nil || accept(id)) }
		if found := findPuzzles(ctx, k, r, moves, want); len(found) > 0 {
			return found[0], nil
		}
	}
}

// selfPlay plays one game of r to its end and returns its moves.
func selfPlay(ctx context.Context, r game.Rules, rng *rand.Rand) ([]game.Coord, error) {
	g, err := game.New(r, game.Fast, Tokens)
	if err != nil {
		return nil, err
	}
	for !g.Over() {
		moves := legalMoves(g)
		m := moves[rng.IntN(len(moves))]
		if rng.Float64() >= noise {
			if m, _, err = ai.Move(ctx, g, ai.Options{Level: ai.Hard, MaxNodes: selfPlayNodes, Budget: time.Minute}); err != nil {
				return nil, err
			}
		}
		if _, err := g.Play(g.Turn(), m); err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	var out []game.Coord
	for _, m := range g.Moves() {
		out = append(out, m.At)
	}
	return out, nil
}

// solveLimit bounds one exact solve while a game is read backwards: the
// first position that takes longer ends the reading (earlier ones, with
// fewer stones, would take longer still).
const solveLimit = 2 * time.Second

// findPuzzles reads a finished game of kind k backwards and returns the
// puzzles its positions make, of any difficulty, the latest position
// first, for which want (if not nil) says yes.
func findPuzzles(ctx context.Context, k Kind, r game.Rules, moves []game.Coord, want func(Difficulty, string) bool) []Puzzle {
	var found []Puzzle
	for end := len(moves) - 1; end >= 0; end-- {
		g, err := replay(r, moves[:end])
		if err != nil {
			break
		}
		sctx, cancel := context.WithTimeout(ctx, solveLimit)
		v, err := ai.Solve(sctx, g)
		cancel()
		if err != nil {
			break
		}
		if v.Outcome != ai.Won {
			continue
		}
		d, ok := difficultyOf(k, r, (v.Plies+1)/2)
		id := encodeID(k, r, moves[:end])
		if !ok || want != nil && !want(d, id) {
			continue
		}
		pctx, cancel := context.WithTimeout(ctx, 4*solveLimit)
		pr, err := prove(pctx, g)
		cancel()
		if err != nil {
			continue
		}
		found = append(found, Puzzle{
			ID: id, Kind: k, Difficulty: d, Rules: r,
			Moves: slices.Clone(moves[:end]), WinIn: pr.winIn, Line: pr.line,
			Rating: startRating(k, pr.winIn),
		})
	}
	return found
}
