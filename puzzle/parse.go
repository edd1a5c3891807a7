package puzzle

import (
	"context"
	"fmt"
)

// Parse returns the puzzle an ID names: from the pool at once, else (a
// puzzle generated on demand) rebuilt from the position the ID encodes and
// proved again with the exact solver, which ctx bounds. It returns an
// error matching ErrUnknown for an ID that names no position, and
// ErrNotPuzzle for a position that is not a puzzle.
func Parse(ctx context.Context, id string) (Puzzle, error) {
	if p, ok := lookup(id); ok {
		return p, nil
	}
	k, r, moves, err := decodeID(id)
	if err != nil {
		return Puzzle{}, err
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
	return Puzzle{ID: id, Kind: k, Difficulty: d, Rules: r, Moves: moves, WinIn: pr.winIn, Line: pr.line, Rating: startRating(k, pr.winIn)}, nil
}
