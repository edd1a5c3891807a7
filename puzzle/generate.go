package puzzle

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/tttbot/tttbot/ai"
	"github.com/tttbot/tttbot/game"
)

// Puzzles made on demand, and the pool's Connect Four ones, come from real
// games: self-play of ai.Hard (with a small node budget, so a game is
// quick and the same on every machine) where each move is, with
// probability noise, a random one instead. The noise makes the mistakes
// that turn a drawn game into a won one. The finished game is then read
// backwards from its end: near the end positions solve in microseconds,
// and each step back makes the win longer. A position becomes a puzzle
// when its mover wins in a number of moves its difficulty wants and
// exactly one first move wins (prove). The pool's classic puzzles come
// from a walk of every position instead (poolgen.go).

// selfPlayNodes is Hard's node budget a move in self-play.
const selfPlayNodes = 20_000

// noise is the chance that a self-play move is random: on small free
// boards, where Hard's games are mostly draws or quick wins, far more
// often. Every game also opens with up to maxOpening random moves (fewer
// on small boards), so that games do not all start alike.
const (
	noise      = 0.2
	smallNoise = 0.5
	maxOpening = 4
)

// ErrNoPuzzle means generation found no puzzle of the kind and difficulty
// within its budget.
var ErrNoPuzzle = errors.New("no puzzle found in time")

// Generate makes a puzzle of kind k and difficulty d from self-play games
// seeded by seed: the same seed gives the same puzzle on every machine,
// unless a solve runs into its time limit (solveLimit) on a slow one. It plays games until one yields a puzzle that accept
// (if not nil) takes by its ID, or until ctx ends (then it returns
// ErrNoPuzzle wrapping ctx's error).
func Generate(ctx context.Context, k Kind, d Difficulty, seed uint64, accept func(id string) bool) (Puzzle, error) {
	if err := checkKind(k, d); err != nil {
		return Puzzle{}, err
	}
	rs := rulesOf(k)
	var usable []game.Rules
	for _, r := range rs {
		for n := 1; n <= r.Cells(); n++ {
			if dd, ok := difficultyOf(k, r, n); ok && dd == d {
				usable = append(usable, r)
				break
			}
		}
	}
	stream := fnv.New64a() // one stream of games a kind and difficulty
	stream.Write([]byte(string(k) + "/" + string(d)))
	rng := rand.New(rand.NewPCG(seed, stream.Sum64()))
	for {
		if err := ctx.Err(); err != nil {
			return Puzzle{}, fmt.Errorf("%w: %w", ErrNoPuzzle, err)
		}
		r := usable[rng.IntN(len(usable))]
		moves, err := selfPlay(ctx, r, rng)
		if err != nil {
			continue // the context ended: the loop's check returns
		}
		want := func(got Difficulty, moves []game.Coord) bool {
			return got == d && (accept == nil || accept(encodeID(k, r, moves)))
		}
		if found := findPuzzles(ctx, k, r, moves, want, 1, maxWinIn(k, d)+2); len(found) > 0 {
			return found[0], nil
		}
	}
}

// selfPlay plays one game of r to its end and returns its moves.
func selfPlay(ctx context.Context, r game.Rules, rng *rand.Rand) ([]game.Coord, error) {
	g, err := game.New(r, game.Fast, tokens)
	if err != nil {
		return nil, err
	}
	opening := rng.IntN(min(maxOpening, r.Cells()/8) + 1)
	chance := noise
	if !r.Gravity {
		chance = smallNoise
	}
	for !g.Over() {
		moves := legalMoves(g)
		m := moves[rng.IntN(len(moves))]
		if g.MoveCount() >= opening && rng.Float64() >= chance {
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

// solveLimit bounds one solve while a game is read backwards: the first
// position that takes longer ends the reading (earlier ones, with fewer
// stones, would mostly take longer still).
const solveLimit = 2 * time.Second

// findPuzzles reads a finished game of kind k backwards and returns up to
// limit puzzles its positions make, the latest position first, of the
// difficulties and moves want says yes to. The reading stops at a won
// position whose win takes more than maxWinIn moves: earlier positions
// mostly take longer still, and cost more to solve.
func findPuzzles(ctx context.Context, k Kind, r game.Rules, moves []game.Coord, want func(Difficulty, []game.Coord) bool, limit, maxWinIn int) []Puzzle {
	var found []Puzzle
	for end := len(moves) - 1; end >= minStones(r) && len(found) < limit; end-- {
		g, err := replay(r, moves[:end])
		if err != nil {
			break
		}
		sctx, cancel := context.WithTimeout(ctx, solveLimit)
		o, err := ai.Prove(sctx, g) // who wins first: cheap, and most positions are drawn
		var v ai.Value
		if err == nil && o == ai.Won {
			v, err = ai.Solve(sctx, g)
		}
		cancel()
		if err != nil {
			break
		}
		if o != ai.Won {
			continue
		}
		n := (v.Plies + 1) / 2
		if n > maxWinIn {
			break
		}
		d, ok := difficultyOf(k, r, n)
		if !ok || !want(d, moves[:end]) {
			continue
		}
		pctx, cancel := context.WithTimeout(ctx, 4*solveLimit)
		p, err := build(pctx, k, r, moves[:end])
		cancel()
		if err != nil {
			continue
		}
		found = append(found, p)
	}
	return found
}

// minConnectFourStones is the fewest stones a Connect Four puzzle has.
// Earlier positions make fine puzzles, but proving that no other first move
// wins takes the solver a second or more each (against milliseconds from
// twelve stones on), which the pool's proof test and every judgement of a
// try would pay for.
const minConnectFourStones = 12

// minStones is the fewest stones a puzzle on r has.
func minStones(r game.Rules) int {
	if r == connectFourRules {
		return minConnectFourStones
	}
	return 0
}

// build proves the position after moves and makes it a puzzle of kind k.
func build(ctx context.Context, k Kind, r game.Rules, moves []game.Coord) (Puzzle, error) {
	if !r.Gravity {
		moves = canonicalOrder(moves)
	}
	if len(moves) < minStones(r) {
		// Also what keeps Parse from solving Connect Four's empty board.
		return Puzzle{}, fmt.Errorf("%w: %d stones, fewer than %d", ErrNotPuzzle, len(moves), minStones(r))
	}
	g, err := replay(r, moves)
	if err != nil {
		return Puzzle{}, fmt.Errorf("%w: %v", ErrUnknown, err)
	}
	pr, err := prove(ctx, g)
	if err != nil {
		return Puzzle{}, err
	}
	d, ok := difficultyOf(k, r, pr.winIn)
	if !ok {
		return Puzzle{}, fmt.Errorf("%w: a win in %d is no difficulty of %s", ErrNotPuzzle, pr.winIn, k)
	}
	return Puzzle{
		ID: encodeID(k, r, moves), Kind: k, Difficulty: d, Rules: r,
		Moves: slices.Clone(moves), WinIn: pr.winIn, Line: pr.line, Rating: startRating(k, pr.winIn),
	}, nil
}

// maxWinIn is the longest win difficulty d of kind k asks for.
func maxWinIn(k Kind, d Difficulty) int {
	longest := 0
	for _, r := range rulesOf(k) {
		for n := 1; n <= r.Cells(); n++ {
			if got, ok := difficultyOf(k, r, n); ok && got == d {
				longest = max(longest, n)
			}
		}
	}
	return longest
}
